/**
 * V8's old generation may grow up to four times what survived its last full collection before it collects
 * again; checking a plan of several MB, most of what the reader, the schema and the rules leave behind is
 * garbage by then, and that headroom was what pushed `dlmm check` on a 5 MB plan to 300-440 MB resident.
 * While a large plan is analysed, the growth is held to 50% (`--heap-growing-percent=50`, as the editor's
 * server runs, client/src/serverProcess.ts): a few more full collections, each cheap next to the parse, and a
 * peak that no longer depends on when V8 happened to collect (5 MB plans: 185-200 MB instead of 220-290 MB).
 *
 * The flag is set back to its default once no large analysis is running: V8 refuses code-cache data made under
 * other flags (codeCache.ts writes the cache at exit), so the cache stays valid for the next run. A flag the
 * user gave Node is left alone.
 */
const GROWING_PERCENT = 50;
/** Plans at least this long (characters) are analysed with the growth held. */
export const LARGE_PLAN = 1024 * 1024;

let running = 0;

function userSetsGrowth(): boolean {
  return /heap-growing-percent|heap_growing_percent/.test(
    `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`,
  );
}

function setGrowth(percent: number): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a large plan
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** Runs `analyse` (the analysis of a plan of `length` characters), with the heap's growth held when it is large. */
export async function withHeapGrowthHeld<T>(length: number, analyse: () => T | Promise<T>): Promise<T> {
  if (length < LARGE_PLAN || userSetsGrowth()) return analyse();
  if (running++ === 0) setGrowth(GROWING_PERCENT);
  try {
    return await analyse();
  } finally {
    if (--running === 0) setGrowth(0);
  }
}
