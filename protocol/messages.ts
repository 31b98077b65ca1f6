/**
 * The wire contract between the extension client and the language server (vscode-eslint's
 * `customMessages.ts` pattern): every custom message is declared once here, typed, with the direction it
 * travels. Both bundles import this file; it imports only the protocol package, never `vscode` (the schemas that
 * validate what arrives are in schemas.ts).
 * Amounts cross JSON-RPC as decimal strings (bigint is not JSON).
 */
import { NotificationType, RequestType0 } from 'vscode-languageserver-protocol';
import { isPlanPath } from '../core/plan/fileName';

/** Files the server analyses (docs/plan-format.md: a compound suffix, so unrelated YAML is never caught). */
export const PLAN_FILE_GLOB = '**/*.dlmm.{yaml,yml,json}';

/** True when a document URI or path names a plan file (core/plan/fileName.ts: the one pattern). */
export function isPlanFile(uriOrPath: string): boolean {
  return isPlanPath(uriOrPath.split(/[?#]/)[0] ?? '');
}

/**
 * Settings the server works with and the client's initialization options: their zod schemas live in
 * schemas.ts (loaded with the server's working part, not at `initialize`).
 */
import type { ServerSettings } from './schemas';
export type { DlmmSection, InitializationOptions, ServerSettings } from './schemas';

/** Client command ids the server may reference in code lenses (declared once, used by both sides). */
export const ClientCommands = {
  getQuote: 'dlmm.getQuote',
  showStatus: 'dlmm.showEngineStatus',
  setApiKey: 'dlmm.setApiKey',
  startSimulator: 'dlmm.startSimulator',
  newPlan: 'dlmm.newPlan',
  openExample: 'dlmm.openExamplePlan',
  exportTransaction: 'dlmm.exportUnsigned',
  sendToWallet: 'dlmm.sendToWallet',
  showDashboard: 'dlmm.openDashboard',
  recentreLiquidity: 'dlmm.recentreLiquidity',
} as const;

/** Arguments of the "Quote" lens: the swap operation as written (amount in base units, as a string). */
export interface QuoteLensArgs {
  uri: string;
  operation: string;
  input_token: string;
  output_token: string;
  amount_in: string;
  slippage_tolerance?: number;
}

/** Arguments of per-operation lenses that act on one operation of a plan. */
export interface OperationLensArgs {
  uri: string;
  operation: string;
}

/** The engine as the server last saw it. */
export interface EngineStatusParams {
  apiUrl?: string;
  environment?: ServerSettings['environment'];
  /** 'ok' when status was read; 'unreachable' etc. when not; 'offline' without an API URL. */
  state: 'ok' | 'offline' | 'error';
  ready?: boolean;
  stateHeight?: number | null;
  chainTip?: number | null;
  tipLag?: number | null;
  poolCount?: number;
  /** What went wrong, in words (never contains keys). */
  error?: string;
  /** ms since epoch of the read. */
  at: number;
}

/** server -> client: the engine status changed (polled while plan files are open). */
export const EngineStatusNotification = new NotificationType<EngineStatusParams>('dlmm/engineStatus');

/** client -> server: read the engine status now (status bar click, "Show Engine Status"). */
export const EngineStatusRequest = new RequestType0<EngineStatusParams, void>('dlmm/engineStatus/read');

/**
 * client -> server: the API key changed (from SecretStorage). The key travels only in this message and
 * the server's environment; it is never logged, echoed or put in settings. `null` clears it.
 */
export const SetApiKeyNotification = new NotificationType<{ apiKey: string | null }>('dlmm/setApiKey');

/**
 * server -> client, only when the client asked with `analysisEvents` at initialize: the diagnostics of
 * `version` just published came from an offline (`live: false`) or a live analysis, made by the document's
 * `run`-th analysis since it was opened (1: the first).
 */
export const AnalysisNotification = new NotificationType<{
  uri: string;
  version: number;
  live: boolean;
  run: number;
}>('dlmm/analysis');

/**
 * client -> server: the plan documents shown in the editor now (sent at start and whenever the visible
 * editors change). Their live analyses run before the other open documents' (PlanService.setVisible). A
 * client that never sends it gets every document analysed in the order it opened them.
 */
export const VisibleDocumentsNotification = new NotificationType<{ uris: string[] }>('dlmm/visibleDocuments');

/** server -> client: a slow live read started / finished (the client shows a progress notification). */
export const ProgressNotification = new NotificationType<{ id: string; title: string; done: boolean }>(
  'dlmm/progress',
);
