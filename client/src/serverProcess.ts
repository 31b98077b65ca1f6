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
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=2', '--heap-growing-percent=50'];
