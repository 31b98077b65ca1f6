/**
 * The per-user cache folder of every dlmm process (node bin facts, the CLI's compiled code): DLMM_CACHE_DIR
 * when set (`off`: none), else the platform's per-user cache folder. Only node:path (node:os when HOME is
 * unset), so the CLI's dispatcher can ask for it without loading anything else.
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
