/**
 * Plans at the size limit (core/plan/parse.ts PARSE_LIMITS.maxBytes, 1 MiB characters) in every form the fast
 * readers take, through the real command line (`dlmm check --offline`, a fresh process each time) and the real
 * language server (open -> first diagnostics, a fresh server per file, started as the extension starts it):
 * bins as flow maps, as block maps and in JSON (valid: too many positions and ~20,000 duplicate bins, whose
 * findings are capped), ~20,000 invalid bins in YAML and JSON, comment-only lines in the body, anchors and
 * aliases (whole bins; an amount shared by 50 bins), a block-scalar note, the forms the fast reader takes
 * beyond the common ones (escapes in quoted strings, quoted keys, tabs between the parts of a line, `<<` keys,
 * flow collections over many lines and nested, a plan written as JSON, explicit keys, the core schema's tags
 * on scalars and collections, scalars over several lines in flow collections, escaped line breaks); files the
 * full parser is not run on above 512 KB (one finding where the form starts): one bin in 200 in such a form, a
 * local tag in the header, a local tag in every bin, tabs as indentation; a plan written as one flow mapping;
 * JSON with a key repeated in every bin, a `__proto__` key in every bin, a list as the root; and a file one
 * character over the limit (one finding). The budget (issue 27): a plan at the limit checked in at most 1 s
 * of CPU and 300 MB by the whole `dlmm check --offline` process (user + system time and max RSS as the kernel
 * reports them through /usr/bin/time), beside the same command on one ordinary plan; the server's CPU time
 * from open to the first diagnostics (/proc/<pid>/stat) and its peak RSS (VmHWM). CPU time, not wall time:
 * the machine is shared, and wall time there measures the others' load. Medians of a few rounds.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extensionServer, ROOT, startLsp } from '../integration/lsp/harness';
import { PARSE_LIMITS } from '../../core/plan/parse';
import { median, versus, type BenchRow } from './types';

const ROUNDS = 3;
/** Rounds of the language server rows (a fresh server per file and round). */
const SERVER_ROUNDS = 1;
/** CPU time (user + system) of a plan at the limit, in ms. */
const BUDGET_MS = 1000;
const BIN = '      - { bin_id: 1, x_amount: 1, y_amount: 0 }\n';
/** A bin, one commented out, a note less indented, a blank line, a note more indented. */
const COMMENTED = `${BIN}      # - { bin_id: 2, x_amount: 1, y_amount: 0 }  (commented out)\n    # a note less indented\n\n          # a deeper note\n`;
/** 50 bins sharing an amount through an anchor and 49 aliases of it (yaml allows fewer than 100 per anchor). */
const anchored = (i: number): string =>
  `      - { bin_id: 1, x_amount: &a${i} 1000, y_amount: 0 }\n` +
  `      - { bin_id: 1, x_amount: *a${i}, y_amount: 0 }\n`.repeat(49);
/** The largest plan read. */
const LIMIT = PARSE_LIMITS.maxBytes;
/** A literal block-scalar note (lines that look like YAML, empty lines): half of the file. */
const NOTE = '      - { bin_id: 1 } is not a bin here: # nor a comment\n\n';
/** YAML in forms the fast reader takes beyond the common ones, one bin line repeated: name -> bin text. */
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
/** One bin in 200 in forms only the full parser reads (a local tag, an empty value). */
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

interface Measured {
  /** CPU time (user + system) in ms. */
  cpuMs: number;
  /** Peak resident memory in MB. */
  rssMb: number;
}

/** CPU time of one run of `dlmm` in ms and its max RSS in MB, as /usr/bin/time reports them (NaN without it). */
function run(args: string[]): Measured {
  const timeBin = '/usr/bin/time';
  if (!existsSync(timeBin)) return { cpuMs: NaN, rssMb: NaN };
  const r = spawnSync(timeBin, ['-f', '%U %S %M', process.execPath, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });
  // `check` exits 0 or 1 (error findings); anything else is a failure to run, unmeasured.
  if (r.status !== 0 && r.status !== 1) return { cpuMs: NaN, rssMb: NaN };
  const stderr = r.stderr;
  const m = /([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr.trim());
  if (!m) return { cpuMs: NaN, rssMb: NaN };
  return { cpuMs: (Number(m[1]) + Number(m[2])) * 1000, rssMb: Number(m[3]) / 1024 };
}

/** Clock ticks a second (the unit of /proc/<pid>/stat's CPU times). */
let clockTicks: number | undefined;
/** CPU time (user + system) a process has used so far, in ms; NaN without /proc. */
function cpuOf(pid: number | undefined): number {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is the first; utime and stime the 12th, 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  } catch {
    return NaN;
  }
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

/** [name, file name, text], each within LIMIT but the last, one character over it. */
function files(): Array<[string, string, string]> {
  const half = (unit: string) => unit.repeat(Math.floor((LIMIT / 2 - 200) / unit.length));
  const wholeBins = (i: number): string =>
    `      - &b${i} { bin_id: 1, x_amount: 1, y_amount: 0 }\n${`      - *b${i}\n`.repeat(3)}`;
  const atLimit = binsUpTo(() => BIN);
  return [
    ['bins (YAML flow maps)', 'bins.dlmm.yaml', atLimit],
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
    [
      'YAML: one bin in 200 in a form only the full parser reads (one finding: not run above 512 KB)',
      'sparse.dlmm.yaml',
      binsUpTo(sparse),
    ],
    [
      'YAML: a local tag in the header (one finding: not run above 512 KB)',
      'header-tag.dlmm.yaml',
      binsUpTo(() => BIN, 'note: !local x\n' + HEAD + '    bins:\n'),
    ],
    [
      'YAML: a local tag in every bin (one finding: not run above 512 KB)',
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
    [
      'one character over the limit (one finding)',
      'beyond.dlmm.yaml',
      atLimit + ' '.repeat(LIMIT + 1 - atLimit.length),
    ],
  ];
}

/**
 * Open -> first diagnostics in a fresh language server (as the extension starts it): the server's CPU time
 * over that span and its peak RSS.
 */
async function serverRun(file: string, text: string): Promise<Measured> {
  const lsp = await startLsp({ command: extensionServer() });
  try {
    const uri = pathToFileURL(file).href;
    const before = cpuOf(lsp.child.pid);
    lsp.open(uri, text, file.endsWith('.json') ? 'json' : 'yaml');
    await lsp.diagnostics(uri, (d) => d.length > 0, 120_000);
    const cpuMs = cpuOf(lsp.child.pid) - before;
    let rssMb = NaN;
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${lsp.child.pid}/status`, 'utf8'));
      if (hwm) rssMb = Number(hwm[1]) / 1024;
    } catch {
      // no /proc: the figure is unmeasured (NaN)
    }
    return { cpuMs, rssMb };
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
        cli: [] as Measured[],
        server: [] as Measured[],
      };
    });
    const bin = join(ROOT, 'bin', 'dlmm.js');
    const one = join(ROOT, 'examples', 'add-ladder.dlmm.yaml');
    const peer: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      peer.push(run([bin, 'check', '--offline', one]).cpuMs);
      for (const c of cases) c.cli.push(run([bin, 'check', '--offline', c.file]));
    }
    for (let i = 0; i < SERVER_ROUNDS; i++)
      for (const c of cases) c.server.push(await serverRun(c.file, c.text));
    const against = { name: 'dlmm check --offline one.dlmm.yaml (CPU time)', value: median(peer) };
    const row = (name: string, runs: Measured[], rounds: number): BenchRow[] => {
      const ms = median(runs.map((r) => r.cpuMs));
      const rss = median(runs.map((r) => r.rssMb));
      return [
        {
          ...versus(`${name}: CPU time (median of ${rounds})`, ms, 'ms', against),
          budget: `<= ${BUDGET_MS} ms`,
          ok: ms <= BUDGET_MS,
        },
        { name: `${name}: max RSS`, value: rss, unit: 'MB', budget: '<= 300 MB', ok: rss <= 300 },
      ];
    };
    return [
      ...cases.flatMap((c) => row(`dlmm check --offline, ${c.name}`, c.cli, ROUNDS)),
      ...cases.flatMap((c) =>
        row(`language server, open -> first diagnostics, ${c.name}`, c.server, SERVER_ROUNDS),
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
