/**
 * The language server, whatever the transport: answers the `initialize` handshake and then loads its
 * working part (handlers.ts: the plan service, the API clients and the feature handlers). Started by
 * server/src/main.ts (extension, IPC) and by `dlmm lsp --stdio` (cli/src/commands/lsp.ts).
 *
 * `initialize` is answered from this file alone: it imports only the LSP library and the message
 * declarations (protocol/messages.ts). handlers.ts is compiled right after the answer is written, while the client
 * reads it and sends `initialized` and its first documents, and started on `initialized`; esbuild.mjs
 * bundles it apart (dist/lazy-server-engine.js), so answering `initialize` compiles neither zod, yaml nor
 * the analyzer.
 */
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  TextDocumentSyncKind,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import { PlanDocuments } from './documents';
import type { Handshake, ServerOptions } from './handlers';

let engine: typeof import('./handlers') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadEngine = () => (engine ??= require('./handlers') as typeof import('./handlers'));

/**
 * Runs `f` once the answer being sent now is written: the writer sends a message on the event loop turn
 * after the handler returns (a `setImmediate`), so a task queued from there runs after it.
 */
function afterReply(f: () => void): void {
  setImmediate(() => setImmediate(f));
}

/** Wires the handshake onto `connection`, the rest once it is done, and starts listening. */
export function startServer(connection: Connection, options: ServerOptions): void {
  const documents = new PlanDocuments();
  let handshake: Handshake | undefined;
  let hasDynamicConfig = false;
  let started = false;

  connection.onInitialize((params): InitializeResult => {
    const caps = params.capabilities;
    handshake = {
      initializationOptions: params.initializationOptions,
      hasConfiguration: caps.workspace?.configuration === true,
      canRefreshLenses: caps.workspace?.codeLens?.refreshSupport === true,
      canRefreshInlays: caps.workspace?.inlayHint?.refreshSupport === true,
    };
    hasDynamicConfig = caps.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    // The engine compiles while the answer travels; `initialized` then only starts it.
    afterReply(() => {
      try {
        if (!started) loadEngine();
      } catch {
        // Not here, where nothing could report it: `initialized` loads the engine again and the error surfaces.
      }
    });
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' ', '-', '.', '"'], resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
        codeLensProvider: { resolveProvider: false },
        documentSymbolProvider: true,
        inlayHintProvider: true,
      },
      serverInfo: { name: 'dlmm-language-server', version: options.env.DLMM_STUDIO_VERSION ?? '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    if (started || !handshake) return;
    started = true;
    // Handlers are bound before the next message is read: nothing the client sends after this is missed,
    // and documents opened meanwhile are kept by `documents` and analysed by the engine when it starts.
    loadEngine().startEngine(connection, documents, options, handshake);
    if (hasDynamicConfig)
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'dlmm' });
  });

  options.hooks?.connection?.(connection);
  documents.listen(connection);
  connection.listen();
}
