/**
 * How the extension starts the language server's Node process (no vscode import: the bench starts the
 * server with the same flags). `--max-semi-space-size` caps V8's young generation: after a burst of opens
 * Node 20 grows each semi-space to 16 MB and keeps it, which was most of the server's resident memory
 * beyond its code. A 2 MB semi-space collects the short-lived analysis garbage more often (scavenges stay
 * cheap: little of it survives). The flag cannot be set from inside the running process, so the parent
 * passes it.
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=2'];
