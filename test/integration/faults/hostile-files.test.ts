/**
 * Hostile plan files: the real `dlmm check` (dist/cli.js in a child process) and the real language server,
 * each with its heap capped at 300 MB, on files built to hang or blow up a parser. Bounds are generous on
 * purpose (a minute per file): only a hang, a crash or a blow-up breaks them; figures belong to the bench.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, startLsp, type LspSession } from '../lsp/harness';
import { skipBecause } from '../../skip';

const HEAP = '--max-old-space-size=300';
const HEAD = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - op: add
    pool: dlmm_1
`;
const BIN = '      - { bin_id: 1, x_amount: 1, y_amount: 0 }\n';
const COMMENTED = `${BIN}      # - { bin_id: 2, x_amount: 1, y_amount: 0 }  (commented out)\n    # a note less indented\n\n          # a deeper note\n`;
/** An anchored bin and 3 aliases of it (about 100 characters). */
const anchored = (i: number): string =>
  `      - &b${i} { bin_id: 1, x_amount: 1, y_amount: 0 }\n${`      - *b${i}\n`.repeat(3)}`;

/** 50 bins, the first anchoring its amount, the others aliases of it. */
const sharedAmount = (i: number): string =>
  `      - { bin_id: 1, x_amount: &a${i} 1000, y_amount: 0 }\n` +
  `      - { bin_id: 1, x_amount: *a${i}, y_amount: 0 }\n`.repeat(49);

/** Half a literal block-scalar note (lines that look like YAML, empty lines), half bins. */
function blockScalarPlan(size: number): string {
  const NOTE = '      - { bin_id: 1 } is not a bin here: # nor a comment\n\n';
  const half = Math.ceil(size / 2);
  return (
    HEAD +
    '    note: |-\n' +
    NOTE.repeat(Math.ceil(half / NOTE.length)) +
    '    bins:\n' +
    BIN.repeat(Math.ceil(half / BIN.length))
  );
}

/**
 * Bins in forms generators and hand-written plans use, each repeated to 3 MB: escapes in double-quoted strings
 * and `''` in single-quoted ones, quoted keys (JSON-ish YAML), tabs between the parts of a line, `<<` keys,
 * plain and quoted values over several lines, `!!int`.
 */
const FORMS_BIN =
  '      - {"bin_id": 1, \'x_amount\': "1\\u0030", y_amount:\t"\\"0\\"", note: \'it\'\'s\' }\t# c\n' +
  '      - <<: { x_amount: 1 }\n        "bin_id": 2\n' +
  '      - bin_id: !!int 3\n        note: a long\n          note\n        id: "wrapped\n          id"\n';
/**
 * Bins in the forms the fast reader took over next: explicit keys, the core schema's tags on scalars and collections, its words as values,
 * scalars over several lines inside flow collections, escaped line breaks in double quotes.
 */
const EXPLICIT_TAGS_BIN =
  '      - ? bin_id\n        : !!int 1\n        ? x_amount\n        : 1\n        y_amount: 0\n' +
  '      - !!map { bin_id: 2, x_amount: !!float 1.5, y_amount: !!seq [0], ok: !!bool true, no: null }\n' +
  '      - !!map\n        bin_id: 3\n        note: !!null null\n        flag: false\n' +
  '      - { bin_id: 4, note: a long\n          note, id: "wrapped\n          id" }\n' +
  '      - bin_id: 5\n        note: "escaped \\\n          break"\n';
/** A plan written as JSON in a YAML file, of `bins` bins. */
const jsonPlan = (bins: number): string =>
  JSON.stringify(
    {
      version: 1,
      operations: [
        {
          op: 'add',
          pool: 'dlmm_1',
          bins: Array.from({ length: bins }, () => ({ bin_id: 1, x_amount: 1, y_amount: 0 })),
        },
      ],
    },
    null,
    2,
  );

/** The most bins jsonPlan can hold within `size` characters (each bin takes the same room). */
const jsonBinsWithin = (size: number): number => {
  const one = jsonPlan(1).length;
  return 1 + Math.floor((size - one) / (jsonPlan(2).length - one));
};

/** A bin of a flow sequence over many lines: a flow map holding a flow sequence. */
const FLOW_BIN = '      { bin_id: 1, x_amount: [1],\n        y_amount: 0 },\n';

/** The largest plan read (PARSE_LIMITS.maxBytes, 1 MiB characters). */
const LIMIT = 1024 * 1024;

/** HEAD, `bins:` and `unit(i)` for i = 0, 1, ... as long as the text stays within `size` characters. */
function binsUpTo(size: number, unit: (i: number) => string, head = HEAD + '    bins:\n'): string {
  const parts = [head];
  let length = head.length;
  for (let i = 0; ; i++) {
    const u = unit(i);
    if (length + u.length > size) return parts.join('');
    parts.push(u);
    length += u.length;
  }
}

/** A JSON plan of one add whose bins are `bin` repeated up to `size` characters. */
function jsonBinsUpTo(size: number, bin: string): string {
  const head = `{"version":1,"sender":"SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR","operations":[{"op":"add","pool":"dlmm_1","bins":[`;
  const n = Math.floor((size - head.length - 4) / (bin.length + 1));
  return head + Array.from({ length: n }, () => bin).join(',') + ']}]}';
}

/** name -> file text (built once; the largest are at the 1 MiB limit, one just beyond it). */
function hostileFiles(): Record<string, string> {
  const keys: string[] = [];
  for (let i = 0; i < 60_000; i++) keys.push(`    k${i}: 1\n`);
  const json: Record<string, unknown> = {
    op: 'add',
    pool: 'dlmm_1',
    bins: [{ bin_id: 1, x_amount: 1, y_amount: 0 }],
  };
  for (let i = 0; i < 60_000; i++) json[`k${i}`] = 1;
  const full = binsUpTo(LIMIT, () => BIN);
  return {
    'unknown-keys.dlmm.yaml': HEAD + '    bins:\n' + BIN + keys.join(''),
    'unknown-keys.dlmm.json': JSON.stringify({ version: 1, operations: [json] }),
    'million-digits.dlmm.yaml':
      HEAD + `    bins:\n      - { bin_id: 1, x_amount: ${'9'.repeat(1_000_000)}, y_amount: 0 }\n`,
    'invalid-bins.dlmm.yaml': binsUpTo(LIMIT, () => '      - { bin_id: 9999, x_amount: -1, y_amount: 0 }\n'),
    'invalid-bins.dlmm.json': jsonBinsUpTo(LIMIT, '{"bin_id":9999,"x_amount":-1,"y_amount":0}'),
    // Four problems a bin (some 70,000 issues; 240,000 overflowed zod's own stack when the whole document was
    // validated: boundedSchema.ts), and a list of invalid operations.
    'invalid-bins-4x.dlmm.yaml': binsUpTo(
      LIMIT,
      () => '      - { bin_id: 1.5, x_amount: "x", y_amount: 1e3, zz: 1 }\n',
    ),
    'invalid-operations.dlmm.yaml': binsUpTo(
      LIMIT,
      () => '  - { op: swap, input_token: x, output_token: y, amount_in: -1 }\n',
      'version: 1\noperations:\n',
    ),
    'nesting-after-quote.dlmm.yaml': `version: 1\nnote: it 'is\noperations: ${'['.repeat(200_000)}\n`,
    // The largest plan read, in the forms plans use (too many positions and ~20,000 duplicate bins: the
    // findings are capped), and one character beyond the limit (one finding).
    'one-mebibyte.dlmm.yaml': full,
    'one-mebibyte.dlmm.json': jsonBinsUpTo(LIMIT, '{"bin_id":1,"x_amount":1,"y_amount":0}'),
    'block-map-bins-1mib.dlmm.yaml': binsUpTo(
      LIMIT,
      () => '      - bin_id: 1\n        x_amount: 1\n        y_amount: 0\n',
    ),
    'beyond-the-limit.dlmm.yaml': full + ' '.repeat(LIMIT + 1 - full.length),
    // Read by the fast reader (lightYaml.ts) since it takes these forms: entries commented out and notes at
    // every indentation, blocks of bins repeated through anchors and aliases, a long block-scalar note.
    'comments-1mib.dlmm.yaml': binsUpTo(LIMIT, () => COMMENTED),
    'anchors-1mib.dlmm.yaml': binsUpTo(LIMIT, anchored),
    'block-scalar-1mib.dlmm.yaml': blockScalarPlan(LIMIT - 400),
    // An amount shared by 50 bins through an anchor in a flow map: yaml resolves each alias by scanning every
    // anchor and alias before it (through the full parser, 5 MB of this took over 3 minutes).
    'anchored-amounts-1mib.dlmm.yaml': binsUpTo(LIMIT, sharedAmount),
    // Read by the fast reader since it takes these forms too: escapes, quoted keys, tabs, `<<`; and a YAML
    // plan written wholly as JSON.
    'forms-1mib.dlmm.yaml': binsUpTo(LIMIT, () => FORMS_BIN),
    'json-as-yaml-1mib.dlmm.yaml': jsonPlan(jsonBinsWithin(LIMIT)),
    // Explicit keys, core-schema tags on scalars and collections, `true` / `null` values, multi-line scalars
    // in flow collections, escaped line breaks.
    'explicit-keys-tags-1mib.dlmm.yaml': binsUpTo(LIMIT, () => EXPLICIT_TAGS_BIN),
    // One bin in 200 in a form only the full parser reads (a local tag, an empty value): above 512 KB the
    // full parser is not run (2-3 s of CPU at 1 MiB), so one finding says where that form starts.
    'sparse-full-parser-forms-1mib.dlmm.yaml': binsUpTo(LIMIT, (i) =>
      i % 200 === 199
        ? i % 400 === 199
          ? '      - !local { bin_id: 2, x_amount: 1, y_amount: 0 }\n'
          : '      - bin_id: 3\n        note:\n        x_amount: 1\n'
        : BIN,
    ),
    // A local tag in the header: one finding, as above.
    'header-tag-1mib.dlmm.yaml': 'note: !local x\n' + binsUpTo(LIMIT - 20, () => BIN),
    // Tabs as indentation in every bin: one finding, yaml's own error on the first, without the full parser
    // on the whole file.
    'tab-indentation-1mib.dlmm.yaml': binsUpTo(LIMIT, () => '      - bin_id: 1\n\t x_amount: 1\n'),
    // Flow collections: the bins as one flow sequence over many lines, each bin a flow map holding a flow
    // sequence.
    'flow-1mib.dlmm.yaml':
      HEAD +
      '    bins: [\n' +
      FLOW_BIN.repeat(Math.floor((LIMIT - HEAD.length - 20) / FLOW_BIN.length)) +
      '    ]\n',
    // JSON that yaml reports or that is not a plan object, read by the fast JSON reader: a key repeated in every bin, a `__proto__` key in
    // every bin, a repeated top-level key, a root that is a list, a mapping of more than 2,000 keys.
    'repeated-keys-1mib.dlmm.json': jsonBinsUpTo(LIMIT, '{"bin_id":1,"bin_id":1,"x_amount":1,"y_amount":0}'),
    'proto-keys-1mib.dlmm.json': jsonBinsUpTo(
      LIMIT,
      '{"bin_id":1,"__proto__":{"x":1},"x_amount":1,"y_amount":0}',
    ),
    'repeated-version-1mib.dlmm.json': jsonBinsUpTo(
      LIMIT - 12,
      '{"bin_id":1,"x_amount":1,"y_amount":0}',
    ).replace('{"version":1,', '{"version":1,"version":1,'),
    'root-list-1mib.dlmm.json': `[${jsonBinsUpTo(LIMIT - 2, '{"bin_id":1,"x_amount":1,"y_amount":0}')}]`,
    'many-keys-1mib.dlmm.json': `{"version":1,${Array.from({ length: 80_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
    // A YAML plan written as one flow mapping on one line (read by the fast reader).
    'one-flow-mapping-1mib.dlmm.yaml': `{version: 1, operations: [{op: add, pool: dlmm_1, bins: [${'{bin_id: 1, x_amount: 1, y_amount: 0}, '.repeat(26_000)}]}]}\n`,
    'deep-block.dlmm.yaml':
      HEAD + '    bins:\n' + Array.from({ length: 200 }, (_, i) => ' '.repeat(i + 6) + 'a:\n').join(''),
  };
}

/** Files over 512 KB in a form only the full YAML parser reads: one finding each (parse.ts fullParserRefused). */
const NOT_CHECKED = new Set([
  'sparse-full-parser-forms-1mib.dlmm.yaml',
  'header-tag-1mib.dlmm.yaml',
  'tab-indentation-1mib.dlmm.yaml',
]);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function cli(args: string[], cwd: string, heap = HEAP): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [heap, join(ROOT, 'bin', 'dlmm.js'), ...args],
      {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 55_000,
        env: { PATH: process.env.PATH, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME },
      },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number | null }).code ?? null) : 0;
        resolve({
          code: typeof code === 'number' ? code : null,
          stdout,
          stderr,
          ms: performance.now() - started,
        });
      },
    );
  });
}

describe('hostile files: no hang, no blow-up (CLI and language server, heap capped at 300 MB)', function () {
  this.timeout(120_000);
  let dir: string;
  let files: Record<string, string>;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dlmm-hostile-'));
    files = hostileFiles();
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  for (const name of Object.keys(hostileFiles())) {
    it(`dlmm check ${name}: a short verdict`, async () => {
      const r = await cli(['check', '--offline', '--format', 'json', name], dir);
      assert.equal(r.code, 1, `exit ${r.code}\n${r.stderr.slice(0, 2000)}`);
      assert.doesNotMatch(r.stderr, /internal error|Maximum call stack|heap out of memory/);
      const report = JSON.parse(r.stdout) as { files: Array<{ diagnostics: Array<{ message: string }> }> };
      const diags = report.files[0]!.diagnostics;
      assert.ok(diags.length >= 1 && diags.length <= 1001, `${diags.length} findings`);
      for (const d of diags)
        assert.ok(d.message.length <= 1000, `a message of ${d.message.length} characters`);
      const size = files[name]!.length;
      // Up to the limit a file is checked; beyond it, one finding says to split it.
      if (size > LIMIT) assert.match(diags[0]!.message, /split it/);
      else assert.ok(diags.length > 1 || !/split it/.test(diags[0]!.message), 'checked, not refused');
      assert.ok(name !== 'beyond-the-limit.dlmm.yaml' || size === LIMIT + 1);
      // Above 512 KB, a form only the full YAML parser reads: one finding says where, the parser not run.
      if (NOT_CHECKED.has(name)) {
        assert.equal(diags.length, 1);
        assert.match(diags[0]!.message, /plan was not checked: from line \d+/);
      }
      console.log(`      ${name}: ${Math.round(r.ms)} ms, ${diags.length} findings (incl. process start)`);
    });
  }

  it('dlmm check on a FIFO answers at once (exit 2) instead of blocking', async function () {
    const fifo = join(dir, 'pipe.dlmm.yaml');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      skipBecause(this, 'mkfifo is not on this machine (coreutils): there is no FIFO to test');
    }
    const r = await cli(['check', '--offline', 'pipe.dlmm.yaml'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /FIFO/);
  });

  it('dlmm check on /dev/zero (behind a plan name) answers at once (exit 2) without reading it', async () => {
    await symlink('/dev/zero', join(dir, 'zero.dlmm.yaml'));
    const r = await cli(['check', '--offline', 'zero.dlmm.yaml'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /device/);
  });

  describe('language server', () => {
    let lsp: LspSession;
    before(async () => {
      lsp = await startLsp({
        command: { cmd: process.execPath, args: [HEAP, join(ROOT, 'bin', 'dlmm.js'), 'lsp', '--stdio'] },
      });
    });
    after(async () => lsp.close());

    it('publishes a bounded verdict for every hostile file and keeps answering', async function () {
      // A second a file at most (the 1 MiB ones); the bound is per file, as for the CLI.
      this.timeout(60_000 * Object.keys(files).length);
      for (const [name, text] of Object.entries(files)) {
        const uri = pathToFileURL(join(dir, name)).href;
        lsp.open(uri, text, name.endsWith('.json') ? 'json' : 'yaml');
        const diags = await lsp.diagnostics(uri, (d) => d.length > 0, 60_000);
        assert.ok(diags.length <= 1001, `${name}: ${diags.length} diagnostics`);
        lsp.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
      }
      const symbols = await lsp.conn.sendRequest('textDocument/documentSymbol', {
        textDocument: { uri: pathToFileURL(join(dir, 'none.dlmm.yaml')).href },
      });
      assert.equal(symbols, null, 'still answering after all of them');
    });
  });
});

/**
 * A 1 MiB plan that only the full YAML parser reads (a local tag in every bin). The parser is not run on it
 * (2-3 s of CPU at this size): one finding says where the form starts, at once, in the CLI and the language
 * server alike, each with its heap capped at 300 MB.
 */
describe('hostile files: a 1 MiB plan that only the full YAML parser reads (heap capped at 300 MB)', function () {
  this.timeout(120_000);
  const name = 'full-parser-1mib.dlmm.yaml';
  let dir: string;
  let text: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dlmm-hostile-full-'));
    text = binsUpTo(LIMIT, () => '      - { bin_id: 1, x_amount: !local 1, y_amount: 0 }\n');
    await writeFile(join(dir, name), text);
  });
  after(async () => rm(dir, { recursive: true, force: true }));
  const verdict =
    /^YAML: this 1\.0 MB plan was not checked: from line \d+ \(a tag outside the core schema: !local\)/;

  it(`dlmm check ${name}: a short verdict`, async () => {
    const r = await cli(['check', '--offline', '--format', 'json', name], dir);
    assert.equal(r.code, 1, `exit ${r.code}\n${r.stderr.slice(0, 2000)}`);
    assert.doesNotMatch(r.stderr, /internal error|Maximum call stack|heap out of memory/);
    const report = JSON.parse(r.stdout) as { files: Array<{ diagnostics: Array<{ message: string }> }> };
    const diags = report.files[0]!.diagnostics;
    assert.equal(diags.length, 1);
    assert.match(diags[0]!.message, verdict);
    console.log(`      ${name}: ${Math.round(r.ms)} ms, ${diags.length} findings (incl. process start)`);
  });

  it('the language server publishes a bounded verdict and keeps answering', async () => {
    const lsp = await startLsp({
      command: { cmd: process.execPath, args: [HEAP, join(ROOT, 'bin', 'dlmm.js'), 'lsp', '--stdio'] },
    });
    try {
      const uri = pathToFileURL(join(dir, name)).href;
      lsp.open(uri, text, 'yaml');
      const diags = await lsp.diagnostics(uri, (d) => d.length > 0, 60_000);
      assert.equal(diags.length, 1);
      assert.match(diags[0]!.message, verdict);
      const symbols = await lsp.conn.sendRequest('textDocument/documentSymbol', {
        textDocument: { uri: pathToFileURL(join(dir, 'none.dlmm.yaml')).href },
      });
      assert.equal(symbols, null, 'still answering');
    } finally {
      await lsp.close();
    }
  });
});
