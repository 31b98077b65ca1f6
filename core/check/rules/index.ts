/**
 * Every rule, one per file. Order does not matter: findings are sorted by offset. `strict-drift-risk`
 * (strict-drift-risk.ts) and `exceeds-block-budget` (exceeds-block-budget.ts) run on the plan's execution,
 * from core/check/execute.ts.
 */
import type { Rule } from './rule';
import { amountTiny } from './amount-tiny';
import { percentBelowOne } from './percent-below-one';
import { slippageHigh } from './slippage-high';
import { amountExceedsUserLiquidity } from './amount-exceeds-user-liquidity';
import { apiUnreachable } from './api-unreachable';
import { appNotReady } from './app-not-ready';
import { binNotFound } from './bin-not-found';
import { binOutOfRange } from './bin-out-of-range';
import { duplicateBin } from './duplicate-bin';
import { engineNotReady } from './engine-not-ready';
import { inventoryUnavailable } from './inventory-unavailable';
import { invalidDistribution } from './invalid-distribution';
import { minDlpUnprotected } from './min-dlp-unprotected';
import { mixedGeneration } from './mixed-generation';
import { moveDust } from './move-dust';
import { moveSameBin } from './move-same-bin';
import { noUserLiquidity } from './no-user-liquidity';
import { outOfRange } from './out-of-range';
import { poolInactive } from './pool-inactive';
import { poolNotFound } from './pool-not-found';
import { poolNotQuotable } from './pool-not-quotable';
import { positionsMayLag } from './positions-may-lag';
import { preferContractId } from './prefer-contract-id';
import { rateLimited } from './rate-limited';
import { senderMissing } from './sender-missing';
import { slippageUnit } from './slippage-unit';
import { swapNoRoute } from './swap-no-route';
import { swapPartialFill } from './swap-partial-fill';
import { priceImpact } from './price-impact';
import { quoteMismatch } from './quote-mismatch';
import { swapUnchecked } from './swap-unchecked';
import { tipLag } from './tip-lag';
import { tipUnknown } from './tip-unknown';
import { tokenUnknown } from './token-unknown';
import { tooManyPositions } from './too-many-positions';
import { unexpectedResponse } from './unexpected-response';
import { unsignedBinId } from './unsigned-bin-id';
import { withdrawNothing } from './withdraw-nothing';
import { wrongTokenSide } from './wrong-token-side';
import { zeroAmount } from './zero-amount';

export type { Rule, RuleContext } from './rule';

export const RULES: readonly Rule[] = [
  unsignedBinId,
  binOutOfRange,
  zeroAmount,
  invalidDistribution,
  duplicateBin,
  tooManyPositions,
  moveSameBin,
  slippageUnit,
  // Units (issue 45): plausibility of amounts and percents.
  slippageHigh,
  percentBelowOne,
  amountTiny,
  senderMissing,
  preferContractId,
  mixedGeneration,
  poolNotFound,
  poolInactive,
  poolNotQuotable,
  engineNotReady,
  tipLag,
  tipUnknown,
  appNotReady,
  positionsMayLag,
  inventoryUnavailable,
  binNotFound,
  wrongTokenSide,
  noUserLiquidity,
  outOfRange,
  amountExceedsUserLiquidity,
  moveDust,
  withdrawNothing,
  minDlpUnprotected,
  tokenUnknown,
  swapNoRoute,
  swapPartialFill,
  priceImpact,
  quoteMismatch,
  swapUnchecked,
  apiUnreachable,
  rateLimited,
  unexpectedResponse,
];
