/**
 * Language server entry inside the extension (dist/server.js): chooses the transport only. The client
 * starts it with --node-ipc (or --stdio); `createConnection` reads that from argv. Everything else is in
 * server.ts, shared with `dlmm lsp --stdio`.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

startServer(createConnection(ProposedFeatures.all), { env: process.env });
