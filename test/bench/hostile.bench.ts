/**
 * Plans at the size limit (5 MiB characters: every file up to 5 MB is checked) in every form the fast readers
 * take, through the real command line (`dlmm check --offline`, a fresh process each time) and the real
 * language server (open -> first diagnostics, a fresh server per file, started as the extension starts it):
 * bins as flow maps, as block maps and in JSON (valid: too many positions and ~100,000 duplicate bins, whose
 * findings are capped), ~100,000 invalid bins in YAML and JSON, comment-only lines in the body, anchors and
 * aliases (whole bins; an amount shared by 50 bins), a block-scalar note, the forms the fast reader took over
 * from the full YAML parser (escapes in quoted strings, quoted keys, tabs between the parts of a line, `<<`
 * keys, flow collections over many lines and nested, a plan written as JSON, explicit keys, the core schema's
 * tags on scalars and collections, scalars over several lines in flow collections, escaped line breaks; one bin
 * in 200 in a form only the full parser reads, that bin read by it alone; a local tag in the header, read the
 * same way; and files the full parser is not run on above 512 KB: a local tag in every bin, tabs as
 * indentation; a plan written as one flow mapping; JSON with a key repeated in every bin, a `__proto__` key in
 * every bin, a list as the root), beside the same command on one ordinary plan. The issue's goal: every file up
 * to 5 MB checked in under 2 s and 300 MB. Medians of a few rounds (the machine's load swings); peak memory is
 * the child's max RSS as the kernel reports it (/usr/bin/time for the CLI, VmHWM for the server).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extensionServer, ROOT, startLsp } from '../integration/lsp/harness';
import { median, versus, type BenchRow } from './types';

const ROUNDS = 3;
/** Rounds of the language server rows (a fresh server per file and round). */
const SERVER_ROUNDS = 1;
const BUDGET_MS = 2000;
const BIN = '      - { bin_id: 1, x_amount: 1, y_amount: 0 }\n';
/** A bin, one commented out, a note less indented, a blank line, a note more indented. */
const COMMENTED = `${BIN}      # - { bin_id: 2, x_amount: 1, y_amount: 0 }  (commented out)\n    # a note less indented\n\n          # a deeper note\n`;
/** 50 bins sharing an amount through an anchor and 49 aliases of it (yaml allows fewer than 100 per anchor). */
const anchored = (i: number): string =>
  `      - { bin_id: 1, x_amount: &a${i} 1000, y_amount: 0 }\n` +
  `      - { bin_id: 1, x_amount: *a${i}, y_amount: 0 }\n`.repeat(49);
/** The largest plan read (core/plan/parse.ts PARSE_LIMITS.maxBytes). */
const LIMIT = 5 * 1024 * 1024;
/** A literal block-scalar note (lines that look like YAML, empty lines): half of the file. */
const NOTE = '      - { bin_id: 1 } is not a bin here: # nor a comment\n\n';
/**
 * YAML in forms the fast reader took over next (each went to the full parser before: 5-10 s and 400-530 MB at
 * 3 MB), one bin line repeated: name -> bin text.
 */
const FORMS: Record<string, string> = {
  'escapes in double-quoted strings': '      - { bin_id: 1, x_amount: "1\\u0030", y_amount: "\\"0\\"\\t" }\n',
  "'' in single-quoted strings": "      - { bin_id: 1, x_amount: 'it''s', y_amount: 0 }\n",
  'quoted keys (JSON-ish YAML)': '      - {"bin_id": 1, "x_amount": 1, "y_amount": 0}\n',
  'tabs between the parts of a line': '      - { bin_id:\t1, x_amount: 1, y_amount: 0 }\t# c\n',
  '`<<` keys': '      - <<: { x_amount: 1 }\n        bin_id: 1\n',
  'plain and quoted values over several lines':
    '      - bin_id: 1\n        note: a long\n          note\n        id: "a long\n          id"\n',
  '`!!str` / `!!int` tags': '      - { bin_id: !!int 1, x_amount: !!int "1", y_amount: 0, id: !!str 7 }\n',
  'explicit keys (`? key` / `: value`)':
    '      - ? bin_id\n        : 1\n        ? x_amount\n        : 1\n        ? y_amount\n        : 0\n',
  '`!!float` / `!!bool` / `!!null` tags, `true` / `null` values':
    '      - { bin_id: !!int 1, x_amount: !!float 1.5, y_amount: 0, note: !!null null, ok: !!bool true, no: null }\n',
  '`!!map` / `!!seq` on collections (flow and block)':
    '      - !!map { bin_id: 1, x_amount: !!seq [1], y_amount: 0 }\n      - !!map\n        bin_id: 1\n        x_amount: 1\n        y_amount: 0\n',
  'scalars of several words and lines inside flow collections':
    '      - { bin_id: 1, note: a long\n          note, id: "wrapped\n          id", y_amount: 0 }\n',
  'escaped line breaks in double quotes (as PyYAML wraps)':
    '      - bin_id: 1\n        note: "a long \\\n          note"\n',
};
/**
 * One bin in 200 in forms only the full parser reads (a local tag, an empty value): each such bin is read by
 * yaml alone (core/plan/yamlRegion.ts), the rest by the fast reader.
 */
const SPARSE = [
  '      - !local { bin_id: 2, x_amount: 1, y_amount: 0 }\n',
  '      - bin_id: 3\n        note:\n        x_amount: 1\n',
];
const sparse = (i: number): string => (i % 200 === 199 ? SPARSE[Math.floor(i / 200) % 2]! : BIN);
/** Bins as one flow sequence over many lines, and as one nested flow sequence on one line. */
const FLOW_BIN = '      { bin_id: 1, x_amount: 1,\n        y_amount: 0 },\n';
const NESTED_BIN = '{ bin_id: 1, x_amount: [1], y_amount: 0 }, ';
const HEAD = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - op: add
    pool: dlmm_1
`;

/** Wall time of one run in ms, and its max RSS in MB when /usr/bin/time can tell. */
function run(args: string[]): { ms: number; rssMb: number } {
  const timeBin = '/usr/bin/time';
  const withTime = existsSync(timeBin);
  const cmd = withTime ? timeBin : process.execPath;
  const argv = withTime ? ['-f', '%M', process.execPath, ...args] : args;
  const s = performance.now();
  let stderr = '';
  try {
    execFileSync(cmd, argv, {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH },
    });
  } catch (e) {
    // `check` exits 1 on error findings; only a failure to run is unmeasured.
    if ((e as { status?: number }).status !== 1) return { ms: NaN, rssMb: NaN };
    stderr = String((e as { stderr?: Buffer }).stderr ?? '');
  }
  const ms = performance.now() - s;
  const kb = Number(/(\d+)\s*$/.exec(stderr.trim())?.[1]);
  return { ms, rssMb: withTime && Number.isFinite(kb) ? kb / 1024 : NaN };
}

/** HEAD, `bins:` and `unit(i)` for i = 0, 1, ... as long as the text stays within LIMIT characters. */
function binsUpTo(unit: (i: number) => string, head = HEAD + '    bins:\n'): string {
  const parts = [head];
  let length = head.length;
  for (let i = 0; ; i++) {
    const u = unit(i);
    if (length + u.length > LIMIT) return parts.join('');
    parts.push(u);
    length += u.length;
  }
}

/** A JSON plan of one add whose bins are `bin` (JSON text) repeated up to LIMIT characters. */
function jsonBins(bin: string, pretty = false): string {
  const plan = (n: number): string =>
    JSON.stringify(
      {
        version: 1,
        sender: 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR',
        operations: [{ op: 'add', pool: 'dlmm_1', bins: Array.from({ length: n }, () => JSON.parse(bin)) }],
      },
      null,
      pretty ? 2 : undefined,
    );
  const one = plan(1).length;
  return plan(1 + Math.floor((LIMIT - one) / (plan(2).length - one)));
}

/** A bin of a plan written as one flow mapping. */
const FLOW_ROOT_BIN = '{bin_id: 1, x_amount: 1, y_amount: 0}, ';

/** A compact JSON plan of one add whose bins are `bin` (JSON text, kept as written) up to LIMIT - `less`. */
function jsonText(bin: string, less = 0): string {
  const head =
    '{"version":1,"sender":"SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR","operations":[{"op":"add","pool":"dlmm_1","bins":[';
  const n = Math.floor((LIMIT - less - head.length - 4) / (bin.length + 1));
  return head + Array.from({ length: n }, () => bin).join(',') + ']}]}';
}

/** name -> [file name, text], each within LIMIT. */
function files(): Array<[string, string, string]> {
  const half = (unit: string) => unit.repeat(Math.floor((LIMIT / 2 - 200) / unit.length));
  const wholeBins = (i: number): string =>
    `      - &b${i} { bin_id: 1, x_amount: 1, y_amount: 0 }\n${`      - *b${i}\n`.repeat(3)}`;
  return [
    ['bins (YAML flow maps)', 'bins.dlmm.yaml', binsUpTo(() => BIN)],
    [
      'bins (YAML block maps)',
      'block-bins.dlmm.yaml',
      binsUpTo(() => '      - bin_id: 1\n        x_amount: 1\n        y_amount: 0\n'),
    ],
    ['bins (JSON)', 'bins.dlmm.json', jsonBins('{"bin_id":1,"x_amount":1,"y_amount":0}')],
    ['bins (JSON, indented)', 'pretty.dlmm.json', jsonBins('{"bin_id":1,"x_amount":1,"y_amount":0}', true)],
    [
      'invalid bins (YAML)',
      'invalid-bins.dlmm.yaml',
      binsUpTo(() => '      - { bin_id: 9999, x_amount: -1, y_amount: 0 }\n'),
    ],
    ['invalid bins (JSON)', 'invalid-bins.dlmm.json', jsonBins('{"bin_id":9999,"x_amount":-1,"y_amount":0}')],
    ['YAML with comment-only lines in the body', 'comments.dlmm.yaml', binsUpTo(() => COMMENTED)],
    ['YAML with anchors and aliases (whole bins)', 'anchors.dlmm.yaml', binsUpTo(wholeBins)],
    ['YAML with anchors and aliases (an amount shared by 50 bins)', 'shared.dlmm.yaml', binsUpTo(anchored)],
    [
      'YAML, half of it a block-scalar note',
      'block-scalar.dlmm.yaml',
      HEAD + '    note: |-\n' + half(NOTE) + '    bins:\n' + half(BIN),
    ],
    ...Object.entries(FORMS).map(([name, unit], i): [string, string, string] => [
      `YAML: ${name}`,
      `form-${i}.dlmm.yaml`,
      binsUpTo(() => unit),
    ]),
    ['YAML: one bin in 200 in a form only the full parser reads', 'sparse.dlmm.yaml', binsUpTo(sparse)],
    [
      'YAML: a local tag in the header (that entry read by the full parser alone)',
      'header-tag.dlmm.yaml',
      binsUpTo(() => BIN, 'note: !local x\n' + HEAD + '    bins:\n'),
    ],
    [
      'YAML: a local tag in every bin (refused where it starts: the full parser is not run above 512 KB)',
      'dense-tags.dlmm.yaml',
      binsUpTo(() => '      - { bin_id: 1, x_amount: !local 1, y_amount: 0 }\n'),
    ],
    [
      "YAML: tabs as indentation in every bin (yaml's error on the first, the full parser not run)",
      'tab-indentation.dlmm.yaml',
      binsUpTo(() => '      - bin_id: 1\n\t x_amount: 1\n'),
    ],
    [
      'YAML: one flow sequence of bins over many lines',
      'flow-multiline.dlmm.yaml',
      HEAD + '    bins: [\n' + FLOW_BIN.repeat(Math.floor((LIMIT - 200) / FLOW_BIN.length)) + '    ]\n',
    ],
    [
      'YAML: nested flow collections on one line',
      'flow-nested.dlmm.yaml',
      HEAD + '    bins: [' + NESTED_BIN.repeat(Math.floor((LIMIT - 200) / NESTED_BIN.length)) + ']\n',
    ],
    [
      'YAML: a plan written as JSON',
      'json-as-yaml.dlmm.yaml',
      jsonBins('{"bin_id":1,"x_amount":1,"y_amount":0}', true),
    ],
    [
      'YAML: a plan written as one flow mapping on one line',
      'flow-root.dlmm.yaml',
      `{version: 1, operations: [{op: add, pool: dlmm_1, bins: [${FLOW_ROOT_BIN.repeat(Math.floor((LIMIT - 200) / FLOW_ROOT_BIN.length))}]}]}\n`,
    ],
    // JSON yaml reports or that is no plan object: through the full parser each ran out of a 300 MB heap.
    [
      'JSON: a key repeated in every bin (1,000 findings, then how many more)',
      'repeated-keys.dlmm.json',
      jsonText('{"bin_id":1,"bin_id":1,"x_amount":1,"y_amount":0}'),
    ],
    [
      'JSON: a `__proto__` key in every bin',
      'proto.dlmm.json',
      jsonText('{"bin_id":1,"__proto__":{},"x_amount":1}'),
    ],
    [
      'JSON: a list as the root',
      'root-list.dlmm.json',
      `[${jsonText('{"bin_id":1,"x_amount":1,"y_amount":0}', 2)}]`,
    ],
  ];
}

/** Open -> first diagnostics in a fresh language server (as the extension starts it), and its peak RSS. */
async function serverRun(file: string, text: string): Promise<{ ms: number; rssMb: number }> {
  const lsp = await startLsp({ command: extensionServer() });
  try {
    const uri = pathToFileURL(file).href;
    const s = performance.now();
    lsp.open(uri, text, file.endsWith('.json') ? 'json' : 'yaml');
    await lsp.diagnostics(uri, (d) => d.length > 0, 120_000);
    const ms = performance.now() - s;
    let rssMb = NaN;
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${lsp.child.pid}/status`, 'utf8'));
      if (hwm) rssMb = Number(hwm[1]) / 1024;
    } catch {
      // no /proc: the figure is unmeasured (NaN)
    }
    return { ms, rssMb };
  } finally {
    await lsp.close();
  }
}

export async function bench(): Promise<BenchRow[]> {
  if (!existsSync(join(ROOT, 'dist', 'cli.js')))
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'dlmm-hostile-bench-'));
  try {
    const cases = files().map(([name, fileName, text]) => {
      const file = join(dir, fileName);
      writeFileSync(file, text);
      return {
        name,
        file,
        text,
        cli: [] as Array<{ ms: number; rssMb: number }>,
        server: [] as Array<{ ms: number; rssMb: number }>,
      };
    });
    const bin = join(ROOT, 'bin', 'dlmm.js');
    const one = join(ROOT, 'examples', 'add-ladder.dlmm.yaml');
    const peer: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      peer.push(run([bin, 'check', '--offline', one]).ms);
      for (const c of cases) c.cli.push(run([bin, 'check', '--offline', c.file]));
    }
    for (let i = 0; i < SERVER_ROUNDS; i++)
      for (const c of cases) c.server.push(await serverRun(c.file, c.text));
    const against = { name: 'dlmm check --offline one.dlmm.yaml', value: median(peer) };
    const row = (name: string, runs: Array<{ ms: number; rssMb: number }>, rounds: number): BenchRow[] => {
      const ms = median(runs.map((r) => r.ms));
      const rss = median(runs.map((r) => r.rssMb));
      return [
        {
          ...versus(`${name} (median of ${rounds})`, ms, 'ms', against),
          budget: `< ${BUDGET_MS} ms`,
          ok: ms < BUDGET_MS,
        },
        { name: `${name}: max RSS`, value: rss, unit: 'MB', budget: '< 300 MB', ok: rss < 300 },
      ];
    };
    return [
      ...cases.flatMap((c) => row(`dlmm check --offline, 5 MiB ${c.name}`, c.cli, ROUNDS)),
      ...cases.flatMap((c) =>
        row(`language server, open -> first diagnostics, 5 MiB ${c.name}`, c.server, SERVER_ROUNDS),
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
