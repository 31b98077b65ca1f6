/**
 * What a simple-mode (relative) add or move can mint over the active-bin window, exactly on the chain model.
 * A relative position lands on `active + offset`, with the active bin read when the call runs: any bin of the
 * window `expected ± tolerance` (the router asserts it for add-relative-liquidity-same-multi; a relative move
 * takes no tolerance, so for it the window is the plan's policy). For each active bin of the window the
 * operation's items are executed in order on a scratch copy of the pool (core/chain addToPool / moveInPool,
 * no bounds), so every item sees the bin it would land on there, as the items before it leave it; the
 * fewest shares an item mints and the largest liquidity fee it pays over those runs are what its bounds are
 * made from (callBounds.ts `windowAddBounds`). A run where an item's own call fails is no landing (the whole
 * call reverts there); a bin whose price or total shares the state lacks makes the item's bound unknown.
 */
import { MAX_UINT128, isSignedBinId, type ActiveWindow } from '../dlmm/bins';
import { itemTarget } from '../plan/schema';

export { activeWindow, windowBinsAmong, type ActiveWindow } from '../dlmm/bins';
import {
  addOutcome,
  addToPool,
  moveInPool,
  restorePool,
  snapshotPool,
  UnknownState,
  type ChainPool,
} from '../chain/index';

/** The window's active bins, nearest the expected one first (an unknown bin is then named by its nearest). */
function scenarioOrder(w: ActiveWindow): number[] {
  const out = [w.expected];
  for (let d = 1; w.expected - d >= w.lo || w.expected + d <= w.hi; d++) {
    if (w.expected - d >= w.lo) out.push(w.expected - d);
    if (w.expected + d <= w.hi) out.push(w.expected + d);
  }
  return out;
}

/** One relative list element: an add of (x, y) at `offset`, or a move of `amount` shares of bin `from`. */
export type WindowItem =
  | { kind: 'add'; offset: number; x: bigint; y: bigint }
  | { kind: 'move'; offset: number; from: number; amount: bigint };

/** What one item does over the window. */
export interface WindowOutcome {
  /** At the expected active bin: what it mints and pays, or why it reverts there. */
  expected?: { minted: bigint; feeX: bigint; feeY: bigint };
  expectedRevert?: string;
  /** The fewest shares minted over the runs where the item's call succeeds, and where. */
  fewest?: { minted: bigint; bin: number; active: number };
  /** The largest liquidity fees paid over those runs (0 when it never lands on the active bin). */
  feeX: bigint;
  feeY: bigint;
  /** Runs where the item's call succeeds. */
  landings: number;
  /** A bin of the window the state cannot execute into (its price or total shares were not read). */
  unknown?: { bin: number; active: number; why: string };
}

const NO_BOUNDS = { minDlp: 1n, maxFeeX: MAX_UINT128, maxFeeY: MAX_UINT128 };

/**
 * Executes `items` in order at every active bin of `window` on scratch copies of `pool` (left as it was) and
 * returns, per item, the fewest shares and largest fees over the runs. `sender` holds the moved shares.
 */
export function windowOutcomes(
  pool: ChainPool,
  sender: string,
  items: readonly WindowItem[],
  window: ActiveWindow,
): WindowOutcome[] {
  const out: WindowOutcome[] = items.map(() => ({ feeX: 0n, feeY: 0n, landings: 0 }));
  const unknown = (o: WindowOutcome, bin: number, active: number, why: string) => {
    o.unknown ??= { bin, active, why };
  };
  // Adds at distinct offsets never meet in a bin at one active bin: each add's outcome is its own, so
  // nothing needs to be applied (the usual list, and 3x cheaper than applying and restoring every run).
  const apply =
    items.some((i) => i.kind === 'move') || new Set(items.map((i) => i.offset)).size < items.length;
  const before = pool.activeBinId;
  for (const active of scenarioOrder(window)) {
    const snap = apply ? snapshotPool(pool) : undefined;
    try {
      pool.activeBinId = active;
      items.forEach((item, i) => {
        const o = out[i] as WindowOutcome;
        const bin = itemTarget('simple', { active_bin_offset: item.offset }, active)!;
        // Outside the domain the router reverts the call (ERR_INVALID_BIN_ID): no landing there.
        if (!isSignedBinId(bin)) return;
        const missing = pool.unknownShares;
        if (missing?.has(bin) || (item.kind === 'move' && missing?.has(item.from))) {
          const at = missing.has(bin) ? bin : (item as { from: number }).from;
          unknown(o, at, active, `the total shares of bin ${at} were not read`);
          return;
        }
        let r;
        try {
          r =
            item.kind === 'move'
              ? moveInPool(pool, sender, item.from, bin, item.amount, NO_BOUNDS)
              : apply
                ? addToPool(pool, sender, bin, item.x, item.y, NO_BOUNDS)
                : addOutcome(pool, bin, item.x, item.y, NO_BOUNDS);
        } catch (e) {
          if (!(e instanceof UnknownState)) throw e;
          unknown(o, bin, active, e.detail);
          return;
        }
        if (!r.ok) {
          if (active === window.expected) o.expectedRevert = `${r.error}: ${r.detail}`;
          return;
        }
        const add = 'add' in r.value ? r.value.add : r.value;
        if (active === window.expected) o.expected = { minted: add.minted, feeX: add.fee_x, feeY: add.fee_y };
        o.landings++;
        if (o.fewest === undefined || add.minted < o.fewest.minted)
          o.fewest = { minted: add.minted, bin, active };
        if (add.fee_x > o.feeX) o.feeX = add.fee_x;
        if (add.fee_y > o.feeY) o.feeY = add.fee_y;
      });
    } finally {
      if (snap) restorePool(pool, snap);
      else pool.activeBinId = before;
    }
  }
  return out;
}
