/**
 * The language server's V8 heap settings when no caller passes flags (`dlmm lsp --stdio`, as editors other
 * than VS Code start it): set from inside the process at start, before the server allocates anything of
 * note. VS Code's client passes its own flags on the command line (client/src/serverProcess.ts); these
 * bring a flagless server to the same memory by other means, since Node 20 fixes the semi-space's maximum
 * when the heap is set up (a runtime `--max-semi-space-size` is ignored) and a re-exec wrapper process costs
 * what it saves.
 *
 * - `--semi-space-growth-factor=1`: V8 reads the factor each time it would grow the young generation, so
 *   the semi-space keeps its starting size instead of doubling up to 16 MB after a burst of opens (which was
 *   most of the server's memory beyond its code). The short-lived analysis garbage is scavenged more often,
 *   and the scavenges stay cheap (little of it survives).
 * - `--heap-growing-percent=50` and `--interrupt-budget=270336`: as the client's flags (serverProcess.ts),
 *   both read by V8 at each use, so they take effect when set at run time.
 *
 * Measured (npm run bench, lspScale): with 200 plans open the flagless server held ~118 MB against
 * yaml-language-server's ~99 MB; with these ~81 MB. Should a Node release stop honouring a flag set at run
 * time, the server only holds more memory: nothing else depends on it.
 */
import { setFlagsFromString } from 'node:v8';

const SERVER_RUNTIME_V8_FLAGS: readonly string[] = [
  '--semi-space-growth-factor=1',
  '--heap-growing-percent=50',
  '--interrupt-budget=270336',
];

/** Applies SERVER_RUNTIME_V8_FLAGS to this process (call once, first thing). */
export function holdServerHeap(): void {
  for (const flag of SERVER_RUNTIME_V8_FLAGS) setFlagsFromString(flag);
}
