/**
 * `dlmm check` from a V8 startup snapshot (Node's `--build-snapshot` / `--snapshot-blob`): the CLI's
 * dispatcher (dist/cli.js) and the check command (dist/cli-check.js) loaded, and one offline check of two
 * small plans already run, so zod's plan schema is built and its
 * parsers compiled. A repeated `dlmm check --offline` then starts from that heap instead of loading,
 * compiling and building it again.
 *
 * This one bundle (dist/snapshot.js) plays three parts:
 * - **the builder**, when Node runs it with `--build-snapshot`: loads the bundles above, runs the warm-up
 *   check and names the function a snapshot run starts with (`runFromSnapshot`);
 * - **the supervisor**, `node dist/snapshot.js --build <blob> <node>`: started in the background (detached,
 *   no output) by a run of the `dlmm` launcher (bin/dlmm) that found no valid snapshot; builds the snapshot
 *   aside, checks that it answers a check exactly as the plain CLI does, and renames it into place with the
 *   `.node` file the launcher compares the node binary against;
 * - **the trigger**, `startBuild` (bin/dlmm.js, after a plain run the launcher asked for a snapshot).
 *
 * A snapshot is valid only for the exact node binary and bundles that built it (Node 20 refuses another
 * version's blob with an error and exit status 14; one of another V8 build, or a truncated one, crashes it),
 * so the launcher uses one only when its name holds this build's id (dist/snapshot.id, written by
 * esbuild.mjs from every bundle's content hash), this install's key (`distKey`: two installs of one build
 * keep a snapshot each) and the path of the node on PATH, the `.node` file beside it
 * names that path and carries the binary's exact modification time (copied with `touch -r`; a reinstalled or
 * upgraded node is a new file with another time), and no bundle is newer than it. A snapshot is built only
 * when the node on PATH is the binary itself (not a version manager's shim, whose target may change
 * without the shim changing). Files live in `<cache>/snapshot/` (the per-user cache folder of
 * core/cacheDir.ts, `DLMM_CACHE_DIR=off`: none) under the code cache's trust rules: an absolute folder of
 * this user that no one else may write (created 0700, checked without following links), files created new
 * ('wx', or by Node into a fresh name in that folder) and renamed into place.
 *
 * What a snapshot holds must not depend on the process that built it: modules loaded into it keep no
 * environment, working directory, argv, terminal or time (cli/src/io.ts reads env and cwd when asked);
 * caches filled by the warm-up are keyed by content (schemas, compiled parsers).
 */
import { userCacheDir } from '../../core/cacheDir';
import { privateToUser } from './privateFile';

/**
 * The bundles held in the snapshot: what `check --offline` loads for plans the CLI's own YAML and JSON
 * readers take (the warm-up plans are such). Others (the yaml library for rarer YAML, the HTTP stack for a
 * live check) load from disk on demand, through the code cache, as in a plain run.
 */
const SNAPSHOT_BUNDLES = ['cli.js', 'cli-check.js'] as const;
/**
 * Node's flags for a snapshot's build and every run of it (bin/dlmm passes the same: Node refuses a snapshot
 * built under other V8 flags). Without Sparkplug, V8's baseline compiler: a check that lasts a few
 * milliseconds spent about 2 ms of them compiling again, at each start, the baseline code the warm-up had
 * made (compiled code is not kept in a snapshot); long checks reach the optimising compiler as before.
 */
export const SNAPSHOT_NODE_FLAGS: readonly string[] = ['--no-sparkplug'];
/** A build attempt holding the lock longer than this is taken for dead. */
const LOCK_STALE_MS = 10 * 60_000;
/** Other builds' snapshots (and a crashed build's leftovers) are removed once this old... */
const STALE_MS = 24 * 3600_000;
/** ...and beyond this many, the most recently written first (each is a few MB). */
const KEEP_OTHERS = 2;

/* eslint-disable @typescript-eslint/no-require-imports -- built-ins only when a part needs them: the
   builder's require serves nothing else, and the trigger runs at the end of a plain `dlmm check`. */
const fsMod = (): typeof import('node:fs') => require('node:fs') as typeof import('node:fs');
const pathMod = (): typeof import('node:path') => require('node:path') as typeof import('node:path');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The name of a build's snapshot for the install whose bundles the launcher names `distPath` (its own
 * `<bin>/../dist`, made absolute) and the node binary at `nodePath`: the build id, the install's key
 * (`distKey`) and the node's path with each `/` as `_` (the launcher builds the same name; the `.node` file
 * beside it holds the exact node path). Two installs of one build have two snapshots.
 */
export function snapshotName(buildId: string, nodePath: string, distPath: string): string {
  return `check.${buildId}.${distKey(distPath)}.${nodePath.split('/').join('_')}`;
}

/**
 * A short key of the bundles' folder as the launcher names it, computed as bin/dlmm computes it with shell
 * built-ins only: 32-bit FNV-1a, in decimal, over the path's bytes, each byte counted by its place among the
 * printable ASCII characters (space to `~`), any other byte as 95. Not a digest: it only tells installs apart
 * (the snapshot run still checks that it runs the folder it was built from).
 */
export function distKey(distPath: string): string {
  let h = 2166136261;
  for (const b of Buffer.from(distPath, 'utf8')) {
    const n = b >= 0x20 && b <= 0x7e ? b - 0x20 : 95;
    h = Math.imul(h ^ n, 16777619) >>> 0;
  }
  return String(h);
}

/** This build's id (dist/snapshot.id), or undefined when the bundles carry none (a watch build). */
export function readBuildId(distDir: string): string | undefined {
  try {
    const id = fsMod().readFileSync(`${distDir}/snapshot.id`, 'utf8').trim();
    return /^[0-9a-f]{32}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** A file or folder only this user may have written (on POSIX; elsewhere no snapshot is built). */
function ownedPrivately(st: { uid: number; mode: number }): boolean {
  return privateToUser(st) === true;
}

/**
 * The snapshot folder for `env` when `blob` lies in it under this build's, this install's and this node's
 * name; else undefined (the launcher's idea of the cache folder differs from core/cacheDir.ts's, or its
 * `launcherDist` is not this install's folder: no snapshot then).
 */
export function expectedFolder(
  blob: string,
  nodePath: string,
  distDir: string,
  env: Record<string, string | undefined>,
  launcherDist = distDir,
): string | undefined {
  const path = pathMod();
  const cache = userCacheDir(env);
  const id = readBuildId(distDir);
  if (cache === undefined || !path.isAbsolute(cache) || id === undefined) return undefined;
  if (!path.isAbsolute(launcherDist) || !sameFolder(launcherDist, distDir)) return undefined;
  const folder = path.resolve(cache, 'snapshot');
  if (!path.isAbsolute(blob) || path.resolve(path.dirname(blob)) !== folder) return undefined;
  return path.basename(blob) === `${snapshotName(id, nodePath, launcherDist)}.blob` ? folder : undefined;
}

/** Whether two paths name one folder (links resolved). */
function sameFolder(a: string, b: string): boolean {
  try {
    const fs = fsMod();
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

/** Whether to start a build of `blob`: none under way (a fresh lock), none failed in the last day. */
export function buildWanted(blob: string, now = Date.now()): boolean {
  const fs = fsMod();
  const age = (file: string): number => {
    try {
      return now - fs.statSync(file).mtimeMs;
    } catch {
      return Infinity;
    }
  };
  return age(`${blob}.lock`) >= LOCK_STALE_MS && age(`${blob}.failed`) >= STALE_MS;
}

/**
 * Starts the background build of the snapshot the launcher looked for (`blob`, for the node binary at
 * `nodePath` and the bundles' folder it named `launcherDist`), unless one is being built. Never fails the
 * command: any problem means no snapshot.
 */
export function startBuild(blob: string, nodePath: string, distDir: string, launcherDist = distDir): void {
  try {
    if (process.platform === 'win32' || !expectedFolder(blob, nodePath, distDir, process.env, launcherDist))
      return;
    if (!buildWanted(blob)) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- only for this
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    // Only what finds the cache folder: the build never sees a key (nor anything else of the user's).
    const env: Record<string, string> = {};
    for (const name of ['PATH', 'HOME', 'XDG_CACHE_HOME', 'LOCALAPPDATA', 'DLMM_CACHE_DIR']) {
      const v = process.env[name];
      if (v !== undefined) env[name] = v;
    }
    spawn(process.execPath, [`${distDir}/snapshot.js`, '--build', blob, nodePath, launcherDist], {
      detached: true,
      stdio: 'ignore',
      env,
      cwd: '/',
    }).unref();
  } catch {
    /* the snapshot is an optimisation */
  }
}

/**
 * Two small plans (YAML and JSON) whose offline check builds every part of the plan schema and runs the
 * offline rules, findings included; both within the CLI's own readers (no yaml library in the snapshot).
 */
const WARMUP_YAML = `version: 1
network: mainnet
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
policy:
  max_tip_lag: 3
  active_bin_tolerance: 2
  slippage_tolerance: 1
operations:
  - id: add
    op: add
    mode: strict
    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10
    bins:
      - { bin_id: 145, x_amount: 150000, y_amount: 0 }
      - { bin_id: 131, x_amount: 0, y_amount: "2500000" }
  - id: add-simple
    op: add
    mode: simple
    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-stx-usdcx-v-1-bps-20
    bins:
      - { active_bin_offset: 2, x_amount: 5000000, y_amount: 0 }
  - id: move
    op: move
    mode: simple
    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-stx-usdcx-v-1-bps-20
    moves:
      - { from_bin_id: -40, active_bin_offset: -5, amount: 1000 }
  - id: withdraw
    op: withdraw
    mode: strict
    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-stx-usdcx-v-1-bps-20
    withdrawal_percentage: 50
    bins: [-38, -36]
  - id: swap
    op: swap
    input_token: SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token
    output_token: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx
    amount_in: "100000"
  - id: wrong
    op: add
    pool: nope
    bins:
      - { bin_id: x }
`;
const WARMUP_JSON = `{"version":1,"sender":"SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR","operations":[{"id":"s","op":"swap","input_token":"SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token","output_token":"SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx","amount_in":"100000"}]}\n`;

interface CliBundle {
  main(argv: string[], io?: unknown): Promise<number>;
  useCodeCache(): void;
  fatalText(e: unknown, argv: readonly string[]): string;
}

/** The builder: runs inside `node --snapshot-blob <file> --build-snapshot dist/snapshot.js`. */
function buildSnapshot(): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- the builder's require serves built-ins only */
  const v8 = require('node:v8') as typeof import('node:v8');
  const vm = require('node:vm') as typeof import('node:vm');
  const fs = require('node:fs') as typeof import('node:fs');
  const ModuleClass = require('node:module') as unknown as ModuleCtor;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const builderRequire = require;
  const dist = process.env.DLMM_SNAPSHOT_DIST ?? '';
  const warmup = (process.env.DLMM_SNAPSHOT_WARMUP ?? '').split('\n').filter(Boolean);
  const warmupDir = process.env.DLMM_SNAPSHOT_WARMUP_DIR ?? '/';

  // A small CommonJS loader for dist/: the builder's own require serves only Node's built-ins. Modules are
  // real Module objects (cli/src/codeCache.ts patches their class at run time) compiled like the code
  // cache compiles them, so their functions and stack traces name the same files as a plain run's.
  const loaded = new Map<string, { exports: unknown }>();
  let runtimeRequire: NodeJS.Require | undefined;
  const load = (name: string): unknown => {
    const filename = `${dist}/${name}`;
    const have = loaded.get(filename);
    if (have) return have.exports;
    const mod = new ModuleClass(filename, null);
    mod.filename = filename;
    loaded.set(filename, mod);
    const fn = vm.runInThisContext(ModuleClass.wrap(fs.readFileSync(filename, 'utf8')), { filename }) as (
      ...args: unknown[]
    ) => void;
    fn.call(mod.exports, mod.exports, requireFor, mod, filename, dist);
    mod.loaded = true;
    return mod.exports;
  };
  function requireFor(id: string): unknown {
    const local = /^\.\/([a-z0-9-]+\.js)$/.exec(id)?.[1];
    if (local !== undefined && loaded.has(`${dist}/${local}`)) return load(local);
    if (v8.startupSnapshot.isBuildingSnapshot()) {
      // While building: a bundle the warm-up needs goes into the snapshot too.
      if (local !== undefined) return load(local);
      return builderRequire(id);
    }
    // At run time: Node's own loader (and the code cache), for built-ins and bundles loaded on demand.
    runtimeRequire ??= ModuleClass.createRequire(`${dist}/cli.js`);
    return runtimeRequire(id);
  }

  for (const name of SNAPSHOT_BUNDLES) load(name);
  const cli = load('cli.js') as CliBundle;
  const quiet = { out: () => undefined, err: () => undefined, env: {}, cwd: warmupDir };
  const done = warmup.length > 0 ? cli.main(['check', '--offline', ...warmup], quiet) : Promise.resolve(0);
  void done.then(() => {
    v8.startupSnapshot.setDeserializeMainFunction(() => runFromSnapshot(cli, dist));
    // The built-in modules the snapshot holds loaded (see withoutLoadedCodeCache).
    const modules = process.env.DLMM_SNAPSHOT_MODULES;
    if (modules) {
      const loaded = (process as unknown as { moduleLoadList: string[] }).moduleLoadList
        .filter((m) => m.startsWith('NativeModule '))
        .map((m) => m.slice(13));
      fs.writeFileSync(modules, `${loaded.join('\n')}\n`, { flag: 'wx', mode: 0o600 });
    }
  });
}

/**
 * `blob` (a snapshot as Node 20 writes it) without the V8 code cache of the built-in modules in `loaded`.
 * Node puts the code cache of every built-in module (about 2.5 MB) into each snapshot it builds and reads
 * the whole file at every start; a module the snapshot holds loaded is never compiled again, so its entry
 * (about half of them) is only read and copied for nothing. The entries end the file: a count, then per
 * module its id and its data, each a 64-bit little-endian length and the bytes. Undefined (the snapshot is
 * kept as Node wrote it) when the end of the file does not read exactly so, or nothing would be dropped.
 */
export function withoutLoadedCodeCache(blob: Buffer, loaded: ReadonlySet<string>): Buffer | undefined {
  const len = (at: number): number =>
    at + 8 <= blob.length && blob.readUInt32LE(at + 4) === 0 ? blob.readUInt32LE(at) : -1;
  const entriesFrom = (start: number): Array<[string, number, number]> | undefined => {
    const count = len(start);
    if (count < 1 || count > 4096) return undefined;
    const entries: Array<[string, number, number]> = [];
    let at = start + 8;
    for (let i = 0; i < count; i++) {
      const begin = at;
      const idLength = len(at);
      if (idLength < 1 || idLength > 256) return undefined;
      const id = blob.toString('latin1', at + 8, at + 8 + idLength);
      if (!/^[\w./-]+$/.test(id)) return undefined;
      at += 8 + idLength;
      const dataLength = len(at);
      if (dataLength < 0 || at + 8 + dataLength > blob.length) return undefined;
      at += 8 + dataLength;
      entries.push([id, begin, at]);
    }
    return at === blob.length ? entries : undefined;
  };
  for (let start = 0; start + 16 < blob.length; start++) {
    // Cheap tests first: a count, then an id length, then an id's first character.
    const c = blob[start + 16] as number;
    if (!((c >= 0x61 && c <= 0x7a) || c === 0x5f) || len(start) < 1 || len(start + 8) < 1) continue;
    const entries = entriesFrom(start);
    if (entries === undefined) continue;
    const kept = entries.filter(([id]) => !loaded.has(id));
    if (kept.length === entries.length) return undefined;
    const count = Buffer.alloc(8);
    count.writeUInt32LE(kept.length, 0);
    return Buffer.concat([blob.subarray(0, start), count, ...kept.map(([, b, e]) => blob.subarray(b, e))]);
  }
  return undefined;
}

interface ModuleCtor {
  new (id: string, parent: null): { exports: unknown; filename: string; loaded: boolean };
  wrap(source: string): string;
  createRequire(filename: string): NodeJS.Require;
}

/**
 * A snapshot run: `node --snapshot-blob <blob> <dist> <args...>` (from bin/dlmm). Behaves exactly as
 * bin/dlmm.js with `<args...>`; when `<dist>` is not the folder the snapshot was built from, runs
 * bin/dlmm.js itself.
 */
function runFromSnapshot(cli: CliBundle, builtDist: string): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- Node's built-ins, at run time */
  const fs = require('node:fs') as typeof import('node:fs');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const [distArg = '', ...args] = process.argv.slice(1);
  const blob = snapshotFlag(process.execArgv);
  // The run's own flags without the snapshot (children inherit them); SNAPSHOT_NODE_FLAGS stay, so the code
  // cache's key keeps this run's cached code apart from a plain run's (V8 refuses code made under other flags).
  process.execArgv = withoutSnapshotFlags(process.execArgv);
  let dist: string | undefined;
  try {
    dist = fs.realpathSync.native(distArg);
  } catch {
    dist = undefined;
  }
  const bin = `${dist ?? distArg}/../bin/dlmm.js`;
  process.argv = [process.execPath, bin, ...args];
  if (dist !== builtDist) {
    // Another copy of this very build (same name): its own plain CLI, which then builds its own snapshot.
    try {
      const node = fs.readFileSync(`${blob?.replace(/\.blob$/, '')}.node`, 'utf8').split('\n')[0];
      if (blob !== undefined && node) {
        process.env.DLMM_SNAPSHOT_BLOB = blob;
        process.env.DLMM_SNAPSHOT_NODE = node;
        process.env.DLMM_SNAPSHOT_DIST = distArg;
      }
    } catch {
      /* no rebuild then */
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the plain CLI, as bin/dlmm would run it
    (require('node:module') as unknown as ModuleCtor).createRequire(bin)(bin);
    return;
  }
  cli.useCodeCache();
  cli.main(args).then(
    (code) => {
      process.exitCode = code;
      exitWhenIdle();
    },
    (e: unknown) => {
      process.stderr.write(cli.fatalText(e, args));
      process.exitCode = 2;
      exitWhenIdle();
    },
  );
}

/**
 * Once nothing is left to run (the event loop is empty: all output written, no timer, socket or child held),
 * ends the process as `process.exit` does: the 'exit' handlers run (the code cache is written), but Node
 * does not then free the environment and the heap piece by piece (about a millisecond for a heap restored
 * from the snapshot) before the exit the process was about to make anyway.
 */
function exitWhenIdle(): void {
  process.once('beforeExit', () => process.exit());
}

/** The `--snapshot-blob` of `argv` (Node's flags), if any. */
export function snapshotFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--snapshot-blob') return argv[i + 1];
    if (a.startsWith('--snapshot-blob=')) return a.slice('--snapshot-blob='.length);
  }
  return undefined;
}

/** `process.execArgv` without `--snapshot-blob <file>` (and its `=` form). */
export function withoutSnapshotFlags(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--snapshot-blob') i++;
    else if (!a.startsWith('--snapshot-blob=')) out.push(a);
  }
  return out;
}

/**
 * The supervisor: builds `blob` for this node (its path as the launcher found it: `nodePath`) and this
 * install (its bundles' folder as the launcher named it: `launcherDist`) in the background. Returns a reason
 * when it built nothing (for tests; the background run prints nothing).
 */
export function supervise(
  blob: string,
  nodePath: string,
  distDir: string,
  launcherDist = distDir,
): string | undefined {
  const fs = fsMod();
  const path = pathMod();
  if (process.platform === 'win32') return 'no snapshot on Windows';
  const folder = expectedFolder(blob, nodePath, distDir, process.env, launcherDist);
  if (folder === undefined) return 'not this build’s snapshot in the cache folder';
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(folder);
    if (!st.isDirectory() || !ownedPrivately(st)) return 'the folder is not private to this user';
  } catch {
    return 'no folder';
  }
  // The launcher knows the node binary by its path and modification time only (it runs no program to ask
  // for a version): the node on PATH must be this very binary, not a version manager's shim or a wrapper
  // that picks one (those keep the plain path, and are marked like a failed build: not asked again for a day).
  let notBinary: string | undefined;
  try {
    if (!path.isAbsolute(nodePath) || fs.realpathSync(nodePath) !== fs.realpathSync(process.execPath))
      notBinary = 'the node on PATH is not the node binary itself';
  } catch {
    notBinary = 'no node binary';
  }
  if (notBinary !== undefined) {
    markFailed(blob, notBinary);
    return notBinary;
  }
  const lock = `${blob}.lock`;
  const held = takeLock(lock);
  if (held === undefined) return 'a build is under way';
  const reason = buildLocked(blob, nodePath, distDir, folder);
  if (reason !== undefined) markFailed(blob, reason);
  releaseLock(lock, held);
  return reason;
}

/**
 * A lock file as this process wrote it: its second line, a token of its own (an inode number alone is reused
 * as soon as a file is deleted).
 */
export interface HeldLock {
  token: string;
}

/** The lock's text: the builder's pid, then its token. */
const lockText = (held: HeldLock): string => `${process.pid}\n${held.token}\n`;

/**
 * Takes the build lock `lock`: created exclusively; or, when it is older than LOCK_STALE_MS (its builder
 * died), taken over atomically — the stale file is renamed to a name of this process's own, and only when
 * the file renamed is the very one judged stale (same inode, same modification time) is it dropped and the
 * lock created again, exclusively. Had another process taken the lock over in between, the live lock it
 * wrote was the one renamed: it is put back under its name (a link, which never replaces a file) and this
 * process backs off. Undefined when the lock is another's. `judged` runs between the judgement and the
 * rename (tests use it to stand for that other process).
 */
export function takeLock(lock: string, judged?: () => void): HeldLock | undefined {
  const fs = fsMod();
  const held: HeldLock = {
    token: `${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`,
  };
  const create = (): HeldLock | undefined => {
    try {
      fs.writeFileSync(lock, lockText(held), { flag: 'wx', mode: 0o600 });
      return held;
    } catch {
      return undefined;
    }
  };
  if (create()) return held;
  try {
    const stale = fs.lstatSync(lock);
    if (Date.now() - stale.mtimeMs < LOCK_STALE_MS) return undefined;
    judged?.();
    const aside = `${lock}.${held.token}.stale`;
    fs.renameSync(lock, aside);
    const moved = fs.lstatSync(aside);
    if (moved.dev !== stale.dev || moved.ino !== stale.ino || moved.mtimeMs !== stale.mtimeMs) {
      putBack(aside, lock);
      return undefined;
    }
    fs.rmSync(aside, { force: true });
  } catch {
    return undefined;
  }
  return create();
}

/** Drops the lock if it is still the one this process wrote (never a lock another process took over). */
export function releaseLock(lock: string, held: HeldLock): void {
  const fs = fsMod();
  const aside = `${lock}.${held.token}.release`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return; // no lock left to drop
  }
  let ours = false;
  try {
    ours = fs.readFileSync(aside, 'utf8') === lockText(held);
  } catch {
    /* unreadable: not known to be ours */
  }
  if (ours) fs.rmSync(aside, { force: true });
  else putBack(aside, lock);
}

/** Another process's lock moved aside by mistake goes back under its name, unless that name was taken again. */
function putBack(aside: string, lock: string): void {
  const fs = fsMod();
  try {
    fs.linkSync(aside, lock);
  } catch {
    /* the name was taken again meanwhile: that lock stands */
  }
  fs.rmSync(aside, { force: true });
}

/** Not tried again for a day (a build that fails would otherwise cost every plain run a second of CPU). */
function markFailed(blob: string, reason: string): void {
  try {
    fsMod().writeFileSync(`${blob}.failed`, `${reason}\n`, { flag: 'wx', mode: 0o600 });
  } catch {
    /* one marker is enough */
  }
}

/** The build proper, under the lock: the snapshot aside, checked, then renamed into place with its `.node`. */
function buildLocked(blob: string, nodePath: string, distDir: string, folder: string): string | undefined {
  /* eslint-disable @typescript-eslint/no-require-imports -- see above */
  const fs = fsMod();
  const path = pathMod();
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const unique = `${process.pid}.${Date.now().toString(36)}`;
  const tmp = `${blob}.${unique}.tmp`;
  const ref = blob.replace(/\.blob$/, '.node');
  const refTmp = `${ref}.${unique}.tmp`;
  const yaml = `${folder}/warmup.${unique}.dlmm.yaml`;
  const json = `${folder}/warmup.${unique}.dlmm.json`;
  const modules = `${blob}.${unique}.modules`;
  const trimmed = `${blob}.${unique}.trim.tmp`;
  try {
    fs.writeFileSync(yaml, WARMUP_YAML, { flag: 'wx', mode: 0o600 });
    fs.writeFileSync(json, WARMUP_JSON, { flag: 'wx', mode: 0o600 });
    // The builder's whole environment (what a snapshot could keep of it is nothing of the user's).
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      DLMM_SNAPSHOT_DIST: distDir,
      DLMM_SNAPSHOT_WARMUP: `${path.basename(yaml)}\n${path.basename(json)}`,
      DLMM_SNAPSHOT_WARMUP_DIR: folder,
      DLMM_SNAPSHOT_MODULES: modules,
    };
    const built = spawnSync(
      process.execPath,
      [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', tmp, '--build-snapshot', `${distDir}/snapshot.js`],
      { cwd: folder, env, stdio: 'ignore', timeout: 120_000 },
    );
    if (built.status !== 0) return 'the build failed';
    fs.chmodSync(tmp, 0o600);
    const st = fs.lstatSync(tmp);
    if (!st.isFile() || !ownedPrivately(st) || st.size === 0) return 'no blob written';
    // Smaller to read at each start: without the code cache of the modules it holds loaded. Checked below
    // like the rest (a file Node cannot load, or that answers otherwise, is no snapshot).
    try {
      const loaded = new Set(fs.readFileSync(modules, 'utf8').split('\n').filter(Boolean));
      const smaller = withoutLoadedCodeCache(fs.readFileSync(tmp), loaded);
      if (smaller !== undefined) {
        fs.writeFileSync(trimmed, smaller, { flag: 'wx', mode: 0o600 });
        fs.renameSync(trimmed, tmp);
      }
    } catch {
      /* kept as Node wrote it */
    }
    // The new snapshot must answer a check exactly as the plain CLI does before anyone uses it.
    const args = ['check', '--offline', '--format', 'json', path.basename(yaml), path.basename(json)];
    const plain = spawnSync(process.execPath, [`${distDir}/../bin/dlmm.js`, ...args], {
      cwd: folder,
      env: { PATH: process.env.PATH, DLMM_CACHE_DIR: 'off' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const fromSnapshot = spawnSync(
      process.execPath,
      [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', tmp, distDir, ...args],
      {
        cwd: folder,
        env: { PATH: process.env.PATH, DLMM_CACHE_DIR: 'off' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    if (
      plain.status !== 1 ||
      fromSnapshot.status !== plain.status ||
      fromSnapshot.stdout !== plain.stdout ||
      fromSnapshot.stderr !== plain.stderr
    )
      return 'the snapshot does not answer as the plain CLI';
    // The launcher compares the node binary with this file: its path inside, its modification time copied
    // to the nanosecond (`touch -r`; Node's own utimes rounds), so another binary at that path never matches.
    fs.writeFileSync(refTmp, `${nodePath}\n`, { flag: 'wx', mode: 0o600 });
    const touched = spawnSync('touch', ['-r', nodePath, refTmp], { stdio: 'ignore', timeout: 30_000 });
    if (touched.status !== 0) return 'cannot date the .node file';
    // The blob first: a launcher between the two renames then sees the new blob beside the old `.node` file,
    // which names the node it was built for or no longer matches (plain path), never a new `.node` file beside
    // a blob of another node.
    fs.renameSync(tmp, blob);
    fs.renameSync(refTmp, ref);
    fs.rmSync(`${blob}.failed`, { force: true });
    prune(folder, path.basename(blob));
    return undefined;
  } catch {
    return 'the build failed';
  } finally {
    for (const f of [tmp, refTmp, yaml, json, modules, trimmed]) fs.rmSync(f, { force: true });
  }
}

/** Removes other builds' snapshots beyond the KEEP_OTHERS newest or older than a day, and old leftovers. */
function prune(folder: string, keep: string): void {
  const fs = fsMod();
  const entries = fs
    .readdirSync(folder)
    .filter((n) => n !== keep && n !== keep.replace(/\.blob$/, '.node'))
    .map((n) => ({ n, mtimeMs: fs.lstatSync(`${folder}/${n}`).mtimeMs }));
  const blobs = entries.filter((e) => /^check\..+\.blob$/.test(e.n)).sort((a, b) => b.mtimeMs - a.mtimeMs);
  blobs.forEach((e, i) => {
    if (i >= KEEP_OTHERS || Date.now() - e.mtimeMs > STALE_MS) {
      fs.rmSync(`${folder}/${e.n}`, { force: true });
      fs.rmSync(`${folder}/${e.n.replace(/\.blob$/, '.node')}`, { force: true });
    }
  });
  for (const e of entries)
    if (/\.(tmp|lock|failed|modules|dlmm\.yaml|dlmm\.json)$/.test(e.n) && Date.now() - e.mtimeMs > STALE_MS)
      fs.rmSync(`${folder}/${e.n}`, { force: true });
}

/* eslint-disable @typescript-eslint/no-require-imports -- the part this process plays */
if ((require('node:v8') as typeof import('node:v8')).startupSnapshot.isBuildingSnapshot()) buildSnapshot();
else if (require.main === module && process.argv[2] === '--build') {
  const [, , , blob = '', nodePath = '', launcherDist = __dirname] = process.argv;
  supervise(blob, nodePath, __dirname, launcherDist);
}
/* eslint-enable @typescript-eslint/no-require-imports */
