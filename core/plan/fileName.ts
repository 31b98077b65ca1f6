/** What names a plan file: `*.dlmm.yaml`, `*.dlmm.yml` or `*.dlmm.json`, in any letter case. One pattern for every face. */
export const PLAN_FILE = /\.dlmm\.(ya?ml|json)$/i;

/** The patterns in words and as globs (docs, help, editor file associations). */
export const PLAN_FILE_GLOBS = ['*.dlmm.yaml', '*.dlmm.yml', '*.dlmm.json'] as const;

/** Is this path a plan file? */
export function isPlanPath(path: string): boolean {
  return PLAN_FILE.test(path);
}
