/**
 * Language server entry inside the extension (dist/server.js): chooses the transport only. The client
 * starts it with --node-ipc (or --stdio); `createConnection` reads that from argv. Everything else is in
 * server.ts, shared with `dlmm lsp --stdio`.
 *
 * The bundles it loads (dist/lazy-*.js: the LSP protocol, the engine, the HTTP client, the execution) go
 * through the same V8 code cache as the CLI's (cli/src/codeCache.ts): after the first session they are read
 * from the cache instead of parsed and compiled again. The cache is installed before anything else is
 * required (hence the requires below, not imports, which would run first).
 */
import { enableCodeCache } from '../../cli/src/codeCache';
import { userCacheDir } from '../../core/cacheDir';

enableCodeCache(__dirname, () => userCacheDir(process.env));
/* eslint-disable @typescript-eslint/no-require-imports */
const lsp = require('vscode-languageserver/node') as typeof import('vscode-languageserver/node');
const { startServer } = require('./server') as typeof import('./server');
/* eslint-enable @typescript-eslint/no-require-imports */

startServer(lsp.createConnection(lsp.ProposedFeatures.all), { env: process.env });
