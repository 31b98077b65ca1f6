/**
 * How the extension starts the language server's Node process (no vscode import: the benches start the
 * server with the same flags). The flags cannot be set from inside the running process, so the parent
 * passes them.
 *
 * - `--max-semi-space-size=2` caps V8's young generation: after a burst of opens Node 20 grows each
 *   semi-space to 16 MB and keeps it, which was most of the server's resident memory beyond its code. A
 *   2 MB semi-space collects the short-lived analysis garbage more often (scavenges stay cheap: little of
 *   it survives).
 * - `--heap-growing-percent=50` lets the old generation grow to 1.5 times what survived the last full
 *   collection before the next one, instead of V8's adaptive factor (up to 4 times while allocation is
 *   fast, as during 150 opens): after such a burst the server holds about 101 MB instead of 118 MB with 200
 *   live plans open, with the keystroke and 150-open latencies unchanged within the machine's noise
 *   (`--optimize-for-size` saved a little more but doubled the keystroke latency).
 * - `--interrupt-budget=270336` (4 times V8's default) lets a function run four times as much before V8
 *   compiles it with its optimizing compiler. A burst of live checks (150 plans opened at once) made the
 *   compiler optimize much of the analyzer, chain model and HTTP client on background threads: about as much
 *   CPU as the checks themselves, taken from the same two cores. With it, that compile work falls by some
 *   60% and the server's total CPU for the burst by about a quarter; code that stays hot (keystrokes on an
 *   open plan) is still optimized, a little later.
 */
export const SERVER_EXEC_ARGV: readonly string[] = [
  '--max-semi-space-size=2',
  '--heap-growing-percent=50',
  '--interrupt-budget=270336',
];
