/**
 * `dlmm check [PATH ...] [--format text|json|sarif] [--max-tip-lag N] [--offline]` (docs/cli.md).
 * Files and folders (every *.dlmm.yaml|yml|json below); one API client and one live session for all files,
 * so 120 plans on one pool take a handful of requests. Results on stdout, progress on stderr.
 * Exit: 0 no error finding; 1 an error finding; 2 usage error, or live data unavailable without --offline.
 */
// Synchronous: local reads of small folders, and an asynchronous call would start libuv's thread pool.
import { readdirSync, statSync } from 'node:fs';
import { LIVE_UNAVAILABLE, type Finding } from '../../../core/plan/diagnostics';
import { join, relative, resolve, sep } from 'node:path';
import { analyzeOffline, analyzePlan, type Analysis } from '../../../core/check/analyze';
import type { DlmmApi } from '../../../core/api/types';
import { checkedFile, toJsonReport, toTextReport, type CheckedFile } from '../report';
import { createLiveSession } from '../../../core/live/live';
import { toSarif } from '../sarif';
import { parseCommand, parseFormat, parseNonNegativeInt, withApi } from '../common';
import { fileProblem, readTextFile, UsageError, type CliIO } from '../io';

export { PLAN_FILE } from '../../../core/plan/fileName';
import { PLAN_FILE } from '../../../core/plan/fileName';
/** Why `--offline` plans carry `live-unchecked` (core/check/rules/live-unchecked.ts says the rest). */
const OFFLINE_BY_CHOICE =
  'checked offline by choice (--offline); run `dlmm check` with --api URL, --sim or DLMM_API_URL for the live rules';

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist']);
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

  const { files, walked, unchecked } = collectFiles(positionals.length ? positionals : ['.'], io.cwd);
  if (files.length === 0 && unchecked.length === 0)
    throw new UsageError(
      `no plan files (*.dlmm.yaml, *.dlmm.yml, *.dlmm.json) under ${positionals.join(' ') || '.'}`,
    );
  io.err(
    `dlmm check: ${files.length} plan file${files.length === 1 ? '' : 's'}${offline ? ' (offline)' : ''}${unchecked.length ? `, ${unchecked.length} not checked` : ''}\n`,
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
        const path = displayPath(file, io.cwd);
        let text;
        try {
          text = await readTextFile(path, io.cwd, 'plan file');
        } catch (e) {
          // A file named on the command line that cannot be read is a usage error; one found by the walk
          // (a file that vanished, or that this user may not read) is an error finding beside the others.
          if (!walked.has(file) || !(e instanceof UsageError)) throw e;
          const prefix = `plan file ${path}: `;
          const why = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
          out[i] = uncheckedFile(path, why);
          continue;
        }
        const fileName = file;
        const opts = maxTipLag === undefined ? { fileName } : { fileName, maxTipLag };
        // Offline by choice: each plan says its live rules did not run (a `live-unchecked` warning).
        const offlineOpts = { ...opts, liveSkipped: OFFLINE_BY_CHOICE };
        const analysis: Analysis = api
          ? await analyzePlan(text, { ...opts, api, session, ...(routers ? { routers } : {}) })
          : analyzeOffline(text, offlineOpts);
        // Reduced at once to what the report needs: the analysis (live data, prepared operations, execution)
        // is not kept, so a batch's memory holds one analysis per worker, not one per plan.
        out[i] = checkedFile(path, analysis);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
    for (const u of unchecked) out.push(uncheckedFile(displayPath(u.path, io.cwd), u.why));
    return out;
  };

  const report = (checked: CheckedFile[]): number => {
    if (format === 'json') io.out(JSON.stringify(toJsonReport(checked)) + '\n');
    else if (format === 'sarif') io.out(JSON.stringify(toSarif(checked), null, 2) + '\n');
    else io.out(toTextReport(checked));
    const findings = checked.flatMap((c) => c.findings);
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

/** The message for an explicit path that is not named like a plan file (e.g. `dlmm check README.md`). */
export function notAPlanFile(path: string): string {
  return `${path} is not a plan file: plan files are named *.dlmm.yaml, *.dlmm.yml or *.dlmm.json (rename it, or give a folder to check every plan file in it)`;
}

/** What a walk found: plan files to check, and the plan files (or folders) it reached but could not check. */
interface Collected {
  files: string[];
  /** Files found by walking a folder (a read failure there is a finding, not a usage error). */
  walked: Set<string>;
  unchecked: Array<{ path: string; why: string }>;
}

/**
 * Plan files named by `paths` (files as given, folders walked), sorted, without duplicates. The walk follows
 * symbolic links (to files and to folders) with no depth limit: each folder is read once, by its device and
 * inode, so a link back to a folder already walked (a loop) or a second link to the same folder ends there
 * (its plans are checked under the first path reached). A plan file it reaches but cannot check (a broken
 * link, a FIFO, a folder it cannot read) is listed in `unchecked`: each becomes an error finding.
 */
function collectFiles(paths: string[], cwd: string): Collected {
  const found = new Set<string>();
  const walked = new Set<string>();
  const unchecked: Collected['unchecked'] = [];
  const seenDirs = new Set<string>();
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let st;
    try {
      st = statSync(abs);
    } catch (e) {
      throw new UsageError(
        `plan file ${p}: ${fileProblem(e).replace('no such file', 'no such file or folder')}`,
      );
    }
    if (st.isDirectory()) walk(abs, `${st.dev}:${st.ino}`, { found, walked, unchecked, seenDirs });
    else if (!PLAN_FILE.test(abs)) throw new UsageError(notAPlanFile(p));
    else found.add(abs);
  }
  return { files: [...found].sort(), walked, unchecked };
}

interface WalkState {
  found: Set<string>;
  walked: Set<string>;
  unchecked: Collected['unchecked'];
  /** `dev:ino` of every folder read (or queued), so that loops and repeated links end. */
  seenDirs: Set<string>;
}

/** Walks `root` with an explicit stack (no recursion, so no depth bound but a loop, which seenDirs ends). */
function walk(root: string, rootId: string, state: WalkState): void {
  if (state.seenDirs.has(rootId)) return;
  state.seenDirs.add(rootId);
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      state.unchecked.push({ path: dir, why: `the folder cannot be read: ${folderProblem(e)}` });
      continue;
    }
    for (const e of entries) {
      const full = join(dir, e.name);
      const isPlanName = PLAN_FILE.test(e.name);
      if (!e.isDirectory() && !e.isSymbolicLink()) {
        if (!isPlanName) continue;
        if (e.isFile()) {
          state.found.add(full);
          state.walked.add(full);
        } else state.unchecked.push({ path: full, why: 'is not a regular file (a FIFO, device or socket)' });
        continue;
      }
      if (SKIP_DIRS.has(e.name) || (e.name.startsWith('.') && !isPlanName)) continue;
      let st;
      try {
        st = statSync(full); // follows a symbolic link
      } catch (err) {
        if (isPlanName || e.isDirectory())
          state.unchecked.push({
            path: full,
            why: e.isSymbolicLink()
              ? `is a symbolic link whose target cannot be read: ${fileProblem(err)}`
              : `cannot be read: ${fileProblem(err)}`,
          });
        continue;
      }
      if (st.isDirectory()) {
        const id = `${st.dev}:${st.ino}`;
        if (state.seenDirs.has(id)) continue; // a loop, or a folder already walked under another path
        state.seenDirs.add(id);
        stack.push(full);
      } else if (isPlanName) {
        if (st.isFile()) {
          state.found.add(full);
          state.walked.add(full);
        } else state.unchecked.push({ path: full, why: 'links to a file that is not a regular file' });
      }
    }
  }
}

function folderProblem(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  return code === 'EACCES' || code === 'EPERM'
    ? `permission denied (${code})`
    : typeof code === 'string'
      ? code
      : 'unknown error';
}

/** The report entry of a plan file (or folder) the walk reached but did not check: one error finding. */
function uncheckedFile(path: string, why: string): CheckedFile {
  const finding: Finding = {
    code: 'file-not-checked',
    severity: 'error',
    message: `not checked: ${path}: ${why}; fix or remove it, or check the folders you mean one by one`,
    offset: 0,
    length: 0,
  };
  return checkedFile(path, { text: '', findings: [finding] });
}

function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return (rel.startsWith('..') ? file : rel).split(sep).join('/');
}
