/**
 * `dlmm lsp --stdio`: the same language server the extension runs, for any editor (docs/editors.md).
 * Settings come from the client by any route (server/src/settings.ts) or, when it sends none, from
 * DLMM_API_URL, DLMM_API_KEY, DLMM_INVENTORY_URL and DLMM_NODE_URL; `environment: simulator` runs the
 * simulated engine in this process.
 */
import {
  createConnection,
  ProposedFeatures,
  StreamMessageReader,
  type Connection,
} from 'vscode-languageserver/node';
import { holdServerHeap } from '../../../server/src/heapFlags';
import type { ServerHooks } from '../../../server/src/handlers';
import { startServer } from '../../../server/src/server';
import { FramingGuard } from '../../../server/src/stdioFraming';
import { BatchedStreamWriter } from '../../../server/src/stdioWriter';
import { UsageError, type CliIO } from '../io';

const USAGE = 'usage: dlmm lsp --stdio';

/** Starts the language server on stdio; resolves when the client ends the session. */
export async function run(args: string[], io: CliIO): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE + '\n');
    return 0;
  }
  const unknown = args.filter((a) => a !== '--stdio');
  if (unknown.length > 0)
    throw new UsageError(`unexpected argument '${unknown[0]}' (${USAGE}; only stdio is offered)`);
  if (!args.includes('--stdio')) throw new UsageError(`missing --stdio (${USAGE})`);
  startStdioServer(io);
  // The connection exits the process when the client sends `exit` or stdin closes.
  return new Promise<number>(() => {});
}

/**
 * The language server on this process's stdio, as `dlmm lsp --stdio` runs it. `hooks`: extra handlers (the
 * tests' entry, test/integration/lsp/testServer.ts, adds its requests; `dlmm lsp` none).
 */
export function startStdioServer(io: CliIO, hooks?: ServerHooks): void {
  // No flags come from the caller here: the heap is held as under VS Code's client (heapFlags.ts).
  holdServerHeap();

  // stdout carries JSON-RPC: anything else written there would corrupt the stream.
  const toStderr = (...parts: unknown[]) => io.err(parts.map(String).join(' ') + '\n');
  console.log = console.info = console.debug = console.warn = toStderr;

  // Frames that are not frames are skipped before the library reads (stdioFraming.ts); said in the log.
  const input = process.stdin.pipe(new FramingGuard((line) => connection.console.warn(line)));
  const connection: Connection = createConnection(
    ProposedFeatures.all,
    new StreamMessageReader(input),
    new BatchedStreamWriter(process.stdout),
  );
  startServer(connection, {
    env: io.env,
    hooks,
    // `environment: simulator` from an editor that runs none: the simulated engine, loaded on first use.
    startSimulator: () =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('../../../core/sim/server') as typeof import('../../../core/sim/server')).startSimulator({
        host: '127.0.0.1',
        port: 0,
      }),
  });
}
