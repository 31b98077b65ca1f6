/**
 * Whether a file or folder is this user's and no one else may write it: what the CLI asks before it runs
 * code it stored itself (the code cache, codeCache.ts; the startup snapshot, snapshot.ts). Undefined where
 * the platform has no user ids (Windows): each caller decides what that means for it.
 */
export function privateToUser(st: { uid: number; mode: number }): boolean | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  return st.uid === uid && (st.mode & 0o022) === 0;
}
