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
 * Why the cache folder `dir` must not be used, or undefined when it may: it is created (0700) when missing;
 * it must be a real folder (not a symbolic link), belong to this user and be writable by no one else, since
 * what it holds is believed (docs/guarantees.md "The cache believes nothing it cannot vouch for"). On a
 * platform without user ids (Windows) only the type is checked.
 */
export function cacheFolderProblem(dir: string): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:fs only when a cache is used
  const fs = require('node:fs') as typeof import('node:fs');
  let st: import('node:fs').Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'ENOENT') return `it cannot be read (${codeOf(e)})`;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      st = fs.lstatSync(dir);
    } catch (e2) {
      return `it cannot be created (${codeOf(e2)})`;
    }
  }
  if (st.isSymbolicLink()) return 'it is a symbolic link';
  if (!st.isDirectory()) return 'it is not a folder';
  return ownershipProblem(st);
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
