/**
 * Hostile files through the real command line (`dlmm check --offline`, a fresh process each time): 60,000
 * invalid bins in YAML and in JSON, and 3 MB YAML plans in the forms the fast reader (core/plan/lightYaml.ts)
 * took over from the full YAML parser (comment-only lines in the body; anchors and aliases; block scalars;
 * escapes in quoted strings, quoted keys, tabs between the parts of a line, `<<` keys, a plan written as JSON),
 * beside the same command on one ordinary plan. The goal: every file up to 5 MB checked in under
 * 2 s. Medians of a few rounds (the machine's load swings); peak memory is the child's max RSS as the kernel
 * reports it (/usr/bin/time when present).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../integration/lsp/harness';
import { median, versus, type BenchRow } from './types';

const ROUNDS = 3;
const BUDGET_MS = 2000;
const BIN = '      - { bin_id: 1, x_amount: 1, y_amount: 0 }\n';
/** A bin, one commented out, a note less indented, a blank line, a note more indented. */
const COMMENTED = `${BIN}      # - { bin_id: 2, x_amount: 1, y_amount: 0 }  (commented out)\n    # a note less indented\n\n          # a deeper note\n`;
/** 50 bins sharing an amount through an anchor and 49 aliases of it (yaml allows fewer than 100 per anchor). */
const anchored = (i: number): string =>
  `      - { bin_id: 1, x_amount: &a${i} 1000, y_amount: 0 }\n` +
  `      - { bin_id: 1, x_amount: *a${i}, y_amount: 0 }\n`.repeat(49);
const MB3 = 3 * 1024 * 1024;
/** A literal block-scalar note (lines that look like YAML, empty lines): half of the file. */
const NOTE = '      - { bin_id: 1 } is not a bin here: # nor a comment\n\n';
/**
 * 3 MB YAML in forms the fast reader took over next (each went to the full parser before: 5-10 s and
 * 400-530 MB), one bin line repeated: name -> bin text.
 */
const FORMS: Record<string, string> = {
  'escapes in double-quoted strings': '      - { bin_id: 1, x_amount: "1\\u0030", y_amount: "\\"0\\"\\t" }\n',
  "'' in single-quoted strings": "      - { bin_id: 1, x_amount: 'it''s', y_amount: 0 }\n",
  'quoted keys (JSON-ish YAML)': '      - {"bin_id": 1, "x_amount": 1, "y_amount": 0}\n',
  'tabs between the parts of a line': '      - { bin_id:\t1, x_amount: 1, y_amount: 0 }\t# c\n',
  '`<<` keys': '      - <<: { x_amount: 1 }\n        bin_id: 1\n',
};
/** 3 MB of bins as one flow sequence over many lines, and as one nested flow sequence on one line. */
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

export async function bench(): Promise<BenchRow[]> {
  if (!existsSync(join(ROOT, 'dist', 'cli.js')))
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'dlmm-hostile-bench-'));
  try {
    const yaml = join(dir, 'invalid-bins.dlmm.yaml');
    const json = join(dir, 'invalid-bins.dlmm.json');
    writeFileSync(
      yaml,
      HEAD + '    bins:\n' + '      - { bin_id: 9999, x_amount: -1, y_amount: 0 }\n'.repeat(60_000),
    );
    writeFileSync(
      json,
      JSON.stringify({
        version: 1,
        operations: [
          {
            op: 'add',
            pool: 'dlmm_1',
            bins: Array.from({ length: 60_000 }, () => ({ bin_id: 9999, x_amount: -1, y_amount: 0 })),
          },
        ],
      }),
    );
    const comments = join(dir, 'comments.dlmm.yaml');
    const anchors = join(dir, 'anchors.dlmm.yaml');
    writeFileSync(comments, HEAD + '    bins:\n' + COMMENTED.repeat(Math.ceil(MB3 / COMMENTED.length)));
    writeFileSync(
      anchors,
      HEAD +
        '    bins:\n' +
        Array.from({ length: Math.ceil(MB3 / anchored(9999).length) }, (_, i) => anchored(i)).join(''),
    );
    const block = join(dir, 'block-scalar.dlmm.yaml');
    writeFileSync(
      block,
      HEAD +
        '    note: |-\n' +
        NOTE.repeat(Math.ceil(MB3 / 2 / NOTE.length)) +
        '    bins:\n' +
        BIN.repeat(Math.ceil(MB3 / 2 / BIN.length)),
    );
    const forms = Object.entries(FORMS).map(([name, unit], i) => {
      const file = join(dir, `form-${i}.dlmm.yaml`);
      writeFileSync(file, HEAD + '    bins:\n' + unit.repeat(Math.ceil(MB3 / unit.length)));
      return { name, file, runs: [] as Array<{ ms: number; rssMb: number }> };
    });
    const asJson = join(dir, 'json-as-yaml.dlmm.yaml');
    writeFileSync(
      asJson,
      JSON.stringify(
        {
          version: 1,
          operations: [
            {
              op: 'add',
              pool: 'dlmm_1',
              bins: Array.from({ length: Math.ceil(MB3 / 98) }, () => ({
                bin_id: 1,
                x_amount: 1,
                y_amount: 0,
              })),
            },
          ],
        },
        null,
        2,
      ),
    );
    forms.push({ name: 'a plan written as JSON', file: asJson, runs: [] });
    const flowFile = join(dir, 'flow-multiline.dlmm.yaml');
    writeFileSync(
      flowFile,
      HEAD + '    bins: [\n' + FLOW_BIN.repeat(Math.ceil(MB3 / FLOW_BIN.length)) + '    ]\n',
    );
    forms.push({ name: 'one flow sequence of bins over many lines', file: flowFile, runs: [] });
    const nestedFile = join(dir, 'flow-nested.dlmm.yaml');
    writeFileSync(
      nestedFile,
      HEAD + '    bins: [' + NESTED_BIN.repeat(Math.ceil(MB3 / NESTED_BIN.length)) + ']\n',
    );
    forms.push({ name: 'nested flow collections on one line', file: nestedFile, runs: [] });
    const bin = join(ROOT, 'bin', 'dlmm.js');
    const one = join(ROOT, 'examples', 'add-ladder.dlmm.yaml');
    const peer: number[] = [];
    const ys: Array<{ ms: number; rssMb: number }> = [];
    const js: Array<{ ms: number; rssMb: number }> = [];
    const cs: Array<{ ms: number; rssMb: number }> = [];
    const as: Array<{ ms: number; rssMb: number }> = [];
    const bs: Array<{ ms: number; rssMb: number }> = [];
    for (let i = 0; i < ROUNDS; i++) {
      peer.push(run([bin, 'check', '--offline', one]).ms);
      ys.push(run([bin, 'check', '--offline', yaml]));
      js.push(run([bin, 'check', '--offline', json]));
      cs.push(run([bin, 'check', '--offline', comments]));
      as.push(run([bin, 'check', '--offline', anchors]));
      bs.push(run([bin, 'check', '--offline', block]));
      for (const f of forms) f.runs.push(run([bin, 'check', '--offline', f.file]));
    }
    const against = { name: 'dlmm check --offline one.dlmm.yaml', value: median(peer) };
    const row = (name: string, runs: Array<{ ms: number; rssMb: number }>): BenchRow[] => {
      const ms = median(runs.map((r) => r.ms));
      return [
        {
          ...versus(`${name} (median of ${ROUNDS})`, ms, 'ms', against),
          budget: `< ${BUDGET_MS} ms`,
          ok: ms < BUDGET_MS,
        },
        {
          name: `${name}: max RSS`,
          value: median(runs.map((r) => r.rssMb)),
          unit: 'MB',
          budget: '< 300 MB',
          ok: median(runs.map((r) => r.rssMb)) < 300,
        },
      ];
    };
    return [
      ...row('dlmm check --offline, 60,000 invalid bins (YAML, 3 MB)', ys),
      ...row('dlmm check --offline, 60,000 invalid bins (JSON, 3 MB)', js),
      ...row('dlmm check --offline, 3 MB YAML with comment-only lines in the body', cs),
      ...row('dlmm check --offline, 3 MB YAML with anchors and aliases (an amount shared by 50 bins)', as),
      ...row('dlmm check --offline, 3 MB YAML, half of it a block-scalar note', bs),
      ...forms.flatMap((f) => row(`dlmm check --offline, 3 MB YAML: ${f.name}`, f.runs)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
