/**
 * The tests' language server (esbuild.mjs builds it into dist/server-test.js, which neither the VSIX nor
 * the npm package ships): `dlmm lsp --stdio` as shipped, on the same bundles (the engine, the LSP protocol),
 * with the test-only requests of testHooks.ts registered. Started by harness.ts's `testServer()`.
 */
import { startStdioServer } from '../../../cli/src/commands/lsp';
import { processIO } from '../../../cli/src/io';
import { testHooks } from './testHooks';

startStdioServer(processIO, testHooks);
