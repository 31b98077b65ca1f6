/**
 * `dlmm check [PATH ...] [--format text|json|sarif] [--max-tip-lag N] [--offline]` (docs/cli.md).
 * Files and folders (every *.dlmm.yaml|yml|json below); one API client and one live session for all files,
 * so 120 plans on one pool take a handful of requests. Results on stdout, progress on stderr.
 * Exit: 0 no error finding; 1 an error finding; 2 usage error, or live data unavailable without --offline.
 */
import { readdir, stat } from '../fsAsync';
import { join, relative, resolve, sep } from 'node:path';
import { analyzeOffline, analyzePlan, type Analysis } from '../../../core/plan/analyze';
import type { DlmmApi } from '../../../core/api/types';
import { toJsonReport, toTextReport, type CheckedFile } from '../../../core/plan/format';
import { createLiveSession } from '../../../core/plan/live';
import { toSarif } from '../../../core/plan/sarif';
import { parseCommand, parseFormat, parseNonNegativeInt, withApi } from '../common';
import { fileProblem, readTextFile, UsageError, type CliIO } from '../io';
import { withHeapGrowthHeld } from '../heapGrowth';

export const PLAN_FILE = /\.dlmm\.(ya?ml|json)$/i;
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist']);
/** Live findings that mean the data was not there to check against. */
const LIVE_UNAVAILABLE = new Set(['api-unreachable', 'rate-limited']);
const CONCURRENCY = 8;

/** The options of `dlmm check` besides the shared ones (listed in help.ts). */
export const OPTIONS = { 'max-tip-lag': { type: 'string' }, offline: { type: 'boolean' } } as const;

/** Runs `dlmm check`. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values, positionals } = parseCommand(args, OPTIONS, { positionals: true });
  const format = parseFormat(common, ['text', 'json', 'sarif'] as const, 'text');
  const maxTipLagText = values['max-tip-lag'];
  const maxTipLag =
    typeof maxTipLagText === 'string'
      ? Number(parseNonNegativeInt(maxTipLagText, '--max-tip-lag'))
      : undefined;
  const offline = values.offline === true;
  if (offline && (common.sim || common.api !== undefined))
    throw new UsageError('--offline reads no live data: drop --sim / --api');

  const files = await collectFiles(positionals.length ? positionals : ['.'], io.cwd);
  if (files.length === 0)
    throw new UsageError(
      `no plan files (*.dlmm.yaml, *.dlmm.yml, *.dlmm.json) under ${positionals.join(' ') || '.'}`,
    );
  io.err(
    `dlmm check: ${files.length} plan file${files.length === 1 ? '' : 's'}${offline ? ' (offline)' : ''}\n`,
  );

  // DLMM_ROUTERS (and its schema) matters only to the live check's execution: not loaded offline.
  const routers = offline
    ? undefined
    : // eslint-disable-next-line @typescript-eslint/no-require-imports
      await (require('../routers') as typeof import('../routers')).loadRouterOverrides(io);
  const checkAll = async (api: DlmmApi | undefined): Promise<CheckedFile[]> => {
    const session = createLiveSession();
    const out: CheckedFile[] = new Array(files.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < files.length) {
        const i = next++;
        const file = files[i] as string;
        const text = await readPlanFile(file, io.cwd);
        const fileName = file;
        const opts = maxTipLag === undefined ? { fileName } : { fileName, maxTipLag };
        const analysis: Analysis = await withHeapGrowthHeld(text.length, () =>
          api
            ? analyzePlan(text, { ...opts, api, session, ...(routers ? { routers } : {}) })
            : analyzeOffline(text, opts),
        );
        out[i] = { path: displayPath(file, io.cwd), analysis };
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
    return out;
  };

  const report = (checked: CheckedFile[]): number => {
    if (format === 'json') io.out(JSON.stringify(toJsonReport(checked)) + '\n');
    else if (format === 'sarif') io.out(JSON.stringify(toSarif(checked), null, 2) + '\n');
    else io.out(toTextReport(checked));
    const findings = checked.flatMap((c) => c.analysis.findings);
    if (!offline && findings.some((f) => LIVE_UNAVAILABLE.has(f.code))) {
      io.err(
        'dlmm check: live data was unavailable; rerun when the service answers, or use --offline for offline checks only\n',
      );
      return 2;
    }
    return findings.some((f) => f.severity === 'error') ? 1 : 0;
  };

  if (offline) return report(await checkAll(undefined));
  return withApi(common, io, async (api) => report(await checkAll(api)));
}

/** A plan file's text; a file that cannot be read (permissions, I/O) is a usage error, never a stack trace. */
function readPlanFile(file: string, cwd: string): Promise<string> {
  return readTextFile(displayPath(file, cwd), cwd, 'plan file');
}

/** The message for an explicit path that is not named like a plan file (e.g. `dlmm check README.md`). */
export function notAPlanFile(path: string): string {
  return `${path} is not a plan file: plan files are named *.dlmm.yaml, *.dlmm.yml or *.dlmm.json (rename it, or give a folder to check every plan file in it)`;
}

/** Plan files named by `paths` (files as given, folders walked), sorted, without duplicates. */
async function collectFiles(paths: string[], cwd: string): Promise<string[]> {
  const found = new Set<string>();
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let st;
    try {
      st = await stat(abs);
    } catch (e) {
      throw new UsageError(
        `plan file ${p}: ${fileProblem(e).replace('no such file', 'no such file or folder')}`,
      );
    }
    if (st.isDirectory()) await walk(abs, found, 0);
    else if (!PLAN_FILE.test(abs)) throw new UsageError(notAPlanFile(p));
    else found.add(abs);
  }
  return [...found].sort();
}

async function walk(dir: string, found: Set<string>, depth: number): Promise<void> {
  if (depth > 32) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new UsageError(`${dir}: the folder cannot be read${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  for (const e of entries) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await walk(join(dir, e.name), found, depth + 1);
    } else if (e.isFile() && PLAN_FILE.test(e.name)) found.add(join(dir, e.name));
  }
}

function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return (rel.startsWith('..') ? file : rel).split(sep).join('/');
}
