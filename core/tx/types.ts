/**
 * What the exporter builds: one unsigned contract call per element, with everything a wallet request,
 * a serialized transaction, a person (summary) and a script (json) need. Amounts are bigint.
 */
import type { ClarityValue, PostCondition } from '@stacks/transactions';
import type { ExecResult } from '../chain/index';
import type { Finding } from '../plan/diagnostics';
import type { OpMode } from '../prepare/prepared';
import type { Network } from '../chain/deployments';
import type { TokenInfo } from '../chain/postConditions';
import type { BlockCost } from './cost';

export type { TokenInfo } from '../chain/postConditions';

/** An amount with the token that gives it human units (none for pool shares). */
export interface Amount {
  label: string;
  amount: bigint;
  token?: TokenInfo;
}

/** A protective bound written into the call, and what it was computed from. */
export interface Bound extends Amount {
  /** e.g. "expected 1234 minted at 1% slippage (exact core math on the prepared bin)". */
  basis: string;
}

/** One row per position (bin, move or swap step) of a transaction. */
export interface PositionRow {
  /** e.g. "bin 140", "offset -1 (bin 138 now)", "164 -> 150", "dlmm_1 bin 139". */
  label: string;
  amounts: Amount[];
  bounds: Bound[];
}

type PostConditionModeName = 'deny' | 'allow';

export interface BuiltTransaction {
  opId: string;
  opIndex: number;
  op: 'add' | 'withdraw' | 'move' | 'swap';
  mode: OpMode | 'swap';
  /** 1-based part of the operation when it was split (router list limit, post-condition budget). */
  part: number;
  parts: number;
  network: Network;
  /** ADDR.name of the router. */
  contract: string;
  functionName: string;
  functionArgs: ClarityValue[];
  /** Parameter names, aligned with functionArgs (for readable output). */
  argNames: string[];
  postConditions: PostCondition[];
  /** Each post-condition in words, aligned with postConditions. */
  postConditionWords: string[];
  postConditionMode: PostConditionModeName;
  rows: PositionRow[];
  totals: Amount[];
  /** Decisions worth telling the signer (splits, fallbacks, deadline). */
  notes: string[];
  /** Unix seconds, or null when the router takes none / the plan sets none. */
  deadline: bigint | null;
  /** Assigned when the caller gave a starting nonce: consecutive across the export. */
  nonce?: bigint;
  /** Per list element: the index of the plan item it comes from (bins / moves list), when there is one. */
  itemIndexes?: (number | undefined)[];
  /** The transaction executed on the state read, after the ones before it (when a state was given). */
  execution?: ExecResult;
  /** What that execution did, in amounts (when it succeeded): shares, tokens in and out. */
  effects?: TxEffects;
  /**
   * What the transaction spends of a block's execution budget (cost.ts): by its list elements, or for a
   * simple swap by the bins its walk may take on the state read; undefined when that is unknown (a simple
   * swap built without the state read).
   */
  blockCost?: BlockCost;
}

/** An executed transaction's effects (effects.ts): one row per list element, and the sender's totals. */
export interface TxEffects {
  /** e.g. "bin 140": deposits x/y and shares minted; "136 -> 130": shares burned and minted. */
  rows: {
    label: string;
    amounts: Amount[];
    /** 0-based list element of the call (aligned with `itemIndexes`). */
    element: number;
    /** The bin the element adds to, withdraws from or moves into (liquidity calls). */
    bin?: number;
  }[];
  /** Tokens the sender sends, per token. */
  sent: Amount[];
  /** Tokens the sender receives from pools, per token. */
  received: Amount[];
  /**
   * The sender's balance of each token the transaction moves, before it (its fee, when the export sets
   * one, included) and after it, as the chain model followed it through the plan; `exact: false` when the
   * balance was not read (then only a floor: what earlier operations paid the sender).
   */
  balances?: BalanceChange[];
}

/** One token's balance around a transaction (TxEffects.balances). */
export interface BalanceChange {
  token?: TokenInfo;
  /** Token contract, or `stx`. */
  key: string;
  before: bigint;
  after: bigint;
  exact: boolean;
}

/**
 * A position whose min-dlp is 1 (no protection from it), as the build computed it: the check reports each
 * as `min-dlp-unprotected` (core/check/rules/min-dlp-unprotected.ts). A strict add whose bin shares are
 * unknown is that rule's own (it needs no build).
 */
export interface WeakBound {
  /** The operation's id and index in the plan. */
  operation: string;
  opIndex: number;
  /** The plan item (`bins` / `moves` index, or the distribution's expansion index). */
  item: number;
  fromDistribution: boolean;
  /** The position in words: `offset -1 (bin 138 at the expected active bin)`, `bin 145`, `136 -> 130`. */
  label: string;
  /** Where the position lands (at the expected active bin, in simple mode). */
  bin: number;
  why: string;
}

/** Every code an export refusal carries (`not exported (CODE)`); docs/diagnostics.md lists each. */
export const EXPORT_ERROR_CODES = [
  'plan-has-errors',
  'plan-unreadable',
  'live-data-unavailable',
  'operation-unchecked',
  'op-not-found',
  'sender-missing',
  'router-config-missing',
  'token-unknown',
  'swap-route-missing',
  'swap-partial-fill',
  'swap-route-unsupported',
  'bad-public-key',
  'public-key-mismatch',
  'nothing-to-export',
  'amount-exceeds-post-condition',
  'would-revert',
  'bounds-unknown',
  'quote-mismatch',
  'deadline-passed',
  'exceeds-block-budget',
] as const;

type ExportErrorCode = (typeof EXPORT_ERROR_CODES)[number];

/** An export refusal: a value with a code, the user-facing message and the findings behind it. */
export interface ExportError {
  code: ExportErrorCode;
  message: string;
  findings: Finding[];
}

export type ExportOutcome =
  | {
      ok: true;
      transactions: BuiltTransaction[];
      findings: Finding[];
      /** Simple-mode positions whose min-dlp is 1, when the build made any. */
      weakBounds?: WeakBound[];
    }
  | { ok: false; error: ExportError };
