/**
 * Requests only the tests' language server answers (dist/server-test.js, built from testServer.ts): the
 * shipped entries (dist/server.js, `dlmm lsp`) register none of them, and no shipped bundle holds them
 * (shipped.test.ts). Registered through the server's hooks (server/src/handlers.ts `ServerHooks`).
 */
import { ErrorCodes, RequestType, RequestType0, ResponseError } from 'vscode-languageserver-protocol';
import type { ServerHooks } from '../../../server/src/handlers';

/**
 * client -> server (the leak test): runs a full garbage collection when the process has `--expose-gc` and
 * answers the heap in use.
 */
export const TestHeapRequest = new RequestType0<{ heapUsed: number; gc: boolean }, void>('dlmm/test/heap');

/**
 * client -> server (the debounce test): waits, without ending the debounce, for the analysis of `version` of
 * the document under way; answers whether its newest result is live and whether any diagnostics of that
 * version were published (null: not that version's analysis).
 */
export const TestAnalysedRequest = new RequestType<
  { uri: string; version: number },
  { live: boolean; published: boolean } | null,
  void
>('dlmm/test/analysed');

/**
 * client -> server (the hostile-input test): the server's copy of a document, `{ version, text }`;
 * `{ outOfSync }` with the reason when it has no exact copy; null when the document is not open.
 */
export const TestDocumentRequest = new RequestType<
  { uri: string },
  { version: number; text: string } | { outOfSync: string } | null,
  void
>('dlmm/test/document');

/** The handlers of the requests above, for the server's hooks. */
export const testHooks: ServerHooks = {
  connection(connection) {
    connection.onRequest(TestHeapRequest, () => {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        gc();
        gc();
      }
      return { heapUsed: process.memoryUsage().heapUsed, gc: gc !== undefined };
    });
  },
  engine({ connection, documents, service }) {
    connection.onRequest(
      TestAnalysedRequest,
      async ({ uri, version }) => (await service.analysed(uri, version)) ?? null,
    );
    connection.onRequest(TestDocumentRequest, (p: unknown) => {
      const uri = (p as { uri?: unknown } | null)?.uri;
      if (typeof uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'uri must be a string');
      const doc = documents.get(uri);
      if (doc) return { version: doc.version, text: doc.getText() };
      const lost = documents.outOfSync(uri);
      return lost ? { outOfSync: lost.reason } : null;
    });
  },
};
