/**
 * Language server entry inside the extension (dist/server.js): chooses the transport only. The client
 * starts it with --node-ipc (or --stdio); `createConnection` reads that from argv. Everything else is in
 * server.ts, shared with `dlmm lsp --stdio`.
 *
 * The bundles it loads (dist/lazy-*.js: the LSP protocol, the engine, the HTTP client, the execution) go
 * through the same V8 code cache as the CLI's (core/codeCache.ts): after the first session they are read
 * from the cache instead of parsed and compiled again. The cache is installed before anything else is
 * required (hence the requires below, not imports, which would run first).
 */
import { inspect } from 'node:util';
import { enableCodeCache } from '../../core/codeCache';
import { userCacheDir } from '../../core/cacheDir';

enableCodeCache(__dirname, () => userCacheDir(process.env));
/* eslint-disable @typescript-eslint/no-require-imports */
const lsp = require('vscode-languageserver/node') as typeof import('vscode-languageserver/node');
const { startServer } = require('./server') as typeof import('./server');
/* eslint-enable @typescript-eslint/no-require-imports */

startServer(
  process.argv.includes('--stdio') ? stdioConnection() : lsp.createConnection(lsp.ProposedFeatures.all),
  {
    env: process.env,
  },
);

/**
 * On stdio, the messages of one event-loop turn are written together (stdioWriter.ts). stdout carries the
 * protocol, so console output goes to the client's log, as the library does on its own stdio connection;
 * the process still exits when stdin ends.
 */
function stdioConnection(): import('vscode-languageserver/node').Connection {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { BatchedStreamWriter } = require('./stdioWriter') as typeof import('./stdioWriter');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { FramingGuard } = require('./stdioFraming') as typeof import('./stdioFraming');
  // Frames that are not frames are skipped before the library reads (stdioFraming.ts); said in the log.
  const input = process.stdin.pipe(new FramingGuard((line) => connection.console.warn(line)));
  const connection: import('vscode-languageserver/node').Connection = lsp.createConnection(
    lsp.ProposedFeatures.all,
    // A stream, as on the library's own stdio connection (it then also exits when stdin ends): it takes a
    // stream or a reader on either side, though its typings pair a stream only with a stream.
    input as unknown as import('vscode-languageserver/node').MessageReader,
    new BatchedStreamWriter(process.stdout),
  );
  const text = (args: unknown[]) => args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ');
  console.log = console.info = console.debug = (...args: unknown[]) => connection.console.log(text(args));
  console.warn = (...args: unknown[]) => connection.console.warn(text(args));
  console.error = (...args: unknown[]) => connection.console.error(text(args));
  return connection;
}
