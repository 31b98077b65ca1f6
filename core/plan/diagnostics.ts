/**
 * Diagnostic codes and findings (docs/diagnostics.md). The same codes reach the editor, `dlmm check` and SARIF.
 * Findings keep {offset, length} from the parser's nodes; line/character is computed once, at the edge
 * (core/plan/lineIndex.ts), as yaml-language-server does.
 */

import { closestMatch } from '../text/suggest';

export type Severity = 'error' | 'warning' | 'info';

/** Every code of docs/diagnostics.md, with its default severity. `[strict, simple]` where two are listed. */
export const DIAGNOSTIC_CODES = {
  syntax: 'error',
  schema: 'error',
  'bin-out-of-range': 'error',
  'unsigned-bin-id': 'error',
  'bin-not-found': 'error',
  'wrong-token-side': 'error',
  'zero-amount': 'error',
  'duplicate-bin': 'warning',
  'too-many-positions': 'error',
  'move-same-bin': 'error',
  'no-user-liquidity': 'error',
  'amount-exceeds-user-liquidity': 'error',
  'move-dust': 'error',
  'withdraw-nothing': 'warning',
  'pool-not-found': 'error',
  'mixed-generation': 'error',
  'prefer-contract-id': 'info',
  'pool-inactive': 'error',
  'pool-not-quotable': ['error', 'warning'], // error for swap (and strict), warning otherwise
  'engine-not-ready': 'error',
  'tip-lag': ['error', 'warning'],
  'tip-unknown': ['error', 'warning'],
  'app-not-ready': 'warning',
  'positions-may-lag': 'info',
  'inventory-unavailable': 'error',
  'strict-drift-risk': 'info',
  'slippage-unit': 'warning',
  // A plan without `sender` that export would refuse (core/tx/build.ts).
  'sender-missing': 'warning',
  'token-unknown': 'error',
  'swap-no-route': 'error',
  'swap-partial-fill': 'error',
  'price-impact': ['error', 'warning'], // error above 10%, warning above policy.max_price_impact
  'quote-mismatch': 'warning',
  'swap-unchecked': 'error',
  'min-dlp-unprotected': 'warning',
  'api-unreachable': 'warning',
  'rate-limited': 'warning',
  // The live rules did not run: checked offline by choice, or no service configured (rules/live-unchecked.ts).
  'live-unchecked': 'warning',
  'unexpected-response': 'error',
  // Executing the plan's exact transactions on the state read (core/check/execute.ts).
  'would-revert': 'error',
  'execution-unchecked': 'warning',
  // A transaction's cost against a block's budget (core/tx/cost.ts): error above the block's limit, warning
  // above the safe budget (80% of a block).
  'exceeds-block-budget': ['error', 'warning'],
  // The sender's balances through the plan (core/chain/balances.ts).
  'insufficient-balance': 'error',
  'balance-unchecked': 'warning',
  'fee-not-covered': 'warning',
  // The export's deadline against the service's clock (core/tx/build.ts clockGate).
  'clock-skew': 'warning',
  'invalid-distribution': 'error',
  'out-of-range': 'warning',
  // `dlmm check DIR`: a plan file (or folder) the walk reached but could not check (cli/src/commands/check.ts).
  'file-not-checked': 'error',
  // Units: values plausible in another unit than the plan's (core/check/rules/amount-tiny.ts,
  // percent-below-one.ts, slippage-high.ts).
  'amount-tiny': 'warning',
  'percent-below-one': 'warning',
  'slippage-high': 'warning',
} as const satisfies Record<string, Severity | readonly [Severity, Severity]>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * The codes meaning live data could not be read (the service unreachable, or rate-limited past its
 * retries) or was not read at all (`live-unchecked`): nothing is checked or built on top of them (`dlmm
 * check` exits 2 unless `--offline` was asked for, export refuses).
 */
export const LIVE_UNAVAILABLE: ReadonlySet<string> = new Set<DiagnosticCode>([
  'api-unreachable',
  'rate-limited',
  'live-unchecked',
]);

/** Findings listed per file; beyond it one finding says how many more there are (of the worst severity). */
export const MAX_FINDINGS_PER_FILE = 1000;

/** Longest finding message; longer ones (a value quoted from a hostile file) are cut with a note. */
export const MAX_MESSAGE_LENGTH = 1000;

/**
 * The finding code `written` names or most likely stands for (`slipage-unit` -> `slippage-unit`), any case,
 * `_` or `-`; undefined when none is near.
 */
export function findingCodeMeant(written: string): { code: DiagnosticCode; exact: boolean } | undefined {
  const w = written.trim().toLowerCase().replace(/_/g, '-');
  if (Object.prototype.hasOwnProperty.call(DIAGNOSTIC_CODES, w))
    return { code: w as DiagnosticCode, exact: true };
  const near = closestMatch(w, Object.keys(DIAGNOSTIC_CODES));
  return near === undefined ? undefined : { code: near as DiagnosticCode, exact: false };
}

/** Default severity of a code; `strict` picks the stricter one where docs/diagnostics.md lists two. */
export function defaultSeverity(code: DiagnosticCode, strict = true): Severity {
  const s = DIAGNOSTIC_CODES[code];
  return typeof s === 'string' ? s : strict ? s[0] : s[1];
}

/** A text edit on the plan source, by offset (quick fixes live in core; faces only map them). */
export interface TextEdit {
  offset: number;
  length: number;
  newText: string;
}

export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** Marked preferred for the editor's auto-fix. */
  preferred?: boolean;
}

export interface Finding {
  code: DiagnosticCode;
  severity: Severity;
  /** Names the offending value and what would be accepted. */
  message: string;
  /** Source range of the value at fault (UTF-16 offsets into the document text). */
  offset: number;
  length: number;
  /** The operation's id, or its index as a string; absent for file-level findings. */
  operation?: string;
  fixes?: QuickFix[];
}
