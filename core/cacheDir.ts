/**
 * The per-user cache folder of every dlmm process (node bin facts, the CLI's compiled code): DLMM_CACHE_DIR
 * when set (`off`: none), else the platform's per-user cache folder; and the rules for trusting what is in
 * it. Only node:path at load (node:fs, node:os when needed), so the CLI's dispatcher can ask for it without
 * loading anything else.
 */
import { join } from 'node:path';

/** Where the cache lives when DLMM_CACHE_DIR does not say: the platform's per-user cache folder. */
export function defaultCacheDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  home: string = safeHome(),
): string {
  if (platform === 'win32')
    return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'dlmm-studio', 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'dlmm-studio');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'dlmm-studio');
}

/** DLMM_CACHE_DIR as the user set it: a folder, `off` (no disk cache), or undefined when unset or blank. */
export function explicitCacheDir(env: Record<string, string | undefined>): string | 'off' | undefined {
  return env.DLMM_CACHE_DIR?.trim() || undefined;
}

/** os.homedir(): $HOME when set on POSIX (read directly, without loading node:os for it), else the OS's answer. */
function safeHome(): string {
  const home = process.platform === 'win32' ? undefined : process.env.HOME;
  if (home) return home;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when HOME does not say
    return (require('node:os') as typeof import('node:os')).homedir();
  } catch {
    return '.';
  }
}

/** The cache folder for what any process may keep (not the loopback-node rule of nodeCacheDir); undefined: off. */
export function userCacheDir(env: Record<string, string | undefined>): string | undefined {
  const explicit = explicitCacheDir(env);
  if (explicit === 'off') return undefined;
  return explicit ?? defaultCacheDir(env);
}

/**
 * Why the cache folder `dir` must not be used, or undefined when it may (openCacheFolder's verdict, the
 * folder closed again): for a message said once, when a store is opened. Every use opens it again.
 */
export function cacheFolderProblem(dir: string): string | undefined {
  const opened = openCacheFolder(dir);
  if ('problem' in opened) return opened.problem;
  opened.close();
  return undefined;
}

/**
 * A cache folder checked on the descriptor it is used through. Node has no `openat`, so on Linux the files
 * in it are named through the process's own view of that descriptor (`/proc/self/fd/N/name`): every call
 * resolves them in the very folder that was checked, whatever is put at its path meanwhile (a symbolic link
 * swapped in for it after the check, in a loop, redirects nothing). Where /proc does not show the descriptor
 * (macOS), files are named by path and the path is checked to still be that folder (same device and inode)
 * before each use: a swap in the moment between that check and the call can still win there.
 */
export interface CacheFolder {
  /** `name` inside the checked folder, as a path the file calls resolve through its descriptor. */
  at(name: string): string;
  /** True when `at` goes through the descriptor (Linux); false: by path, checked with `unchanged`. */
  readonly anchored: boolean;
  /** Whether the folder's path still names the folder that was checked (always true when anchored). */
  unchanged(): boolean;
  /** Releases the descriptor; `at` must not be used afterwards. */
  close(): void;
}

/**
 * Opens the cache folder `dir` (created 0700 when missing, unless `create` is false) without following a link, and checks the opened
 * folder (fstat): a real folder of this user that no one else may write, since what it holds is believed
 * (docs/guarantees.md "The cache believes nothing it cannot vouch for"). `{ problem }` says why not. On a
 * platform without user ids or folder descriptors (Windows) the folder is checked by path (lstat), and only
 * its type.
 */
export function openCacheFolder(
  dir: string,
  opts: { create?: boolean } = {},
): CacheFolder | { problem: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:fs only when a cache is used
  const fs = require('node:fs') as typeof import('node:fs');
  if (opts.create !== false) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      if (codeOf(e) !== 'EEXIST') return { problem: `it cannot be created (${codeOf(e)})` };
    }
  }
  const c = fs.constants;
  if (process.platform === 'win32' || c.O_DIRECTORY === undefined || c.O_NOFOLLOW === undefined)
    return byPath(fs, dir);
  let fd: number;
  try {
    fd = fs.openSync(dir, c.O_RDONLY | c.O_DIRECTORY | c.O_NOFOLLOW | (c.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = codeOf(e);
    if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EMLINK') {
      // Which of the two, for the message (the verdict is the same).
      try {
        return {
          problem: fs.lstatSync(dir).isSymbolicLink() ? 'it is a symbolic link' : 'it is not a folder',
        };
      } catch {
        return { problem: 'it is not a folder' };
      }
    }
    return { problem: code === 'ENOENT' ? 'it does not exist' : `it cannot be read (${code})` };
  }
  let st: import('node:fs').Stats;
  try {
    st = fs.fstatSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    return { problem: `it cannot be read (${codeOf(e)})` };
  }
  const problem = !st.isDirectory() ? 'it is not a folder' : ownershipProblem(st);
  if (problem !== undefined) {
    fs.closeSync(fd);
    return { problem };
  }
  const same = (other: { dev: number; ino: number }) => other.dev === st.dev && other.ino === st.ino;
  const anchor = `/proc/self/fd/${fd}`;
  let anchored = false;
  try {
    anchored = same(fs.statSync(anchor));
  } catch {
    anchored = false;
  }
  let open = true;
  return {
    anchored,
    at: (name) => (anchored ? `${anchor}/${name}` : join(dir, name)),
    unchanged: () => {
      if (anchored) return true;
      try {
        const now = fs.lstatSync(dir);
        return now.isDirectory() && same(now);
      } catch {
        return false;
      }
    },
    close: () => {
      if (!open) return;
      open = false;
      fs.closeSync(fd);
    },
  };
}

/** The folder checked by path only (Windows): a real folder, not a link. */
function byPath(fs: typeof import('node:fs'), dir: string): CacheFolder | { problem: string } {
  let st: import('node:fs').Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    return { problem: `it cannot be read (${codeOf(e)})` };
  }
  if (st.isSymbolicLink()) return { problem: 'it is a symbolic link' };
  if (!st.isDirectory()) return { problem: 'it is not a folder' };
  const problem = ownershipProblem(st);
  if (problem !== undefined) return { problem };
  return {
    anchored: false,
    at: (name) => join(dir, name),
    unchanged: () => {
      try {
        const now = fs.lstatSync(dir);
        return now.isDirectory() && !now.isSymbolicLink() && now.ino === st.ino && now.dev === st.dev;
      } catch {
        return false;
      }
    },
    close: () => undefined,
  };
}

/**
 * Why a file or folder's owner or mode makes what it holds untrustworthy (another user's, writable by its
 * group or others), or undefined: the one rule for the node cache and the code cache (codeCache.ts). On a
 * platform without user ids (Windows) there is no such problem to find.
 */
export function ownershipProblem(st: { uid: number; mode: number }): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (st.uid !== uid) return `it belongs to user ${st.uid}, not to you (${uid})`;
  if ((st.mode & 0o022) !== 0)
    return `it is writable by ${(st.mode & 0o002) !== 0 ? 'everyone' : 'its group'} (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * The text of a cache file, or `{ problem }` when it must not be believed: it is opened without following a
 * link and without blocking (a FIFO or device in its place is never read, never waited on), and read only
 * when the opened file is a regular file of this user that no one else may write. A missing file is
 * `{ text: undefined }`.
 */
export function readCacheFile(file: string): { text?: string; problem?: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:fs only when a cache is used
  const fs = require('node:fs') as typeof import('node:fs');
  const c = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, c.O_RDONLY | (c.O_NOFOLLOW ?? 0) | (c.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = codeOf(e);
    if (code === 'ENOENT') return {};
    return { problem: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code})` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { problem: 'it is not a regular file (a FIFO, device or socket)' };
    const problem = ownershipProblem(st);
    if (problem !== undefined) return { problem };
    return { text: fs.readFileSync(fd, 'utf8') };
  } catch (e) {
    return { problem: `it cannot be read (${codeOf(e)})` };
  } finally {
    fs.closeSync(fd);
  }
}

function codeOf(e: unknown): string {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'error';
}
