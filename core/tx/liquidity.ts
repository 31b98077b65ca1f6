/**
 * Add / withdraw / move operations to liquidity-router calls (docs/contracts.md "Router functions"): strict ->
 * absolute bin ids with post-condition mode deny; simple -> relative functions with mode allow. Built
 * from prepared items only; bounds from bounds.ts; post-conditions from postConditions.ts.
 */
import { itemTarget } from '../plan/schema';
import { Cl, type ClarityValue, type PostCondition } from '@stacks/transactions';
import type {
  PreparedAddItem,
  PreparedMoveItem,
  PreparedOperation,
  PreparedWithdrawItem,
} from '../prepare/prepared';
import {
  addToPool,
  binOf,
  commitAdd,
  moveInPool,
  restorePool,
  snapshotPool,
  UnknownState,
  withdrawFromPool,
  type ChainPool,
} from '../chain/index';
import { MAX_UINT128 } from '../dlmm/bins';
import { sharesToAmounts, type PoolFees } from '../dlmm/math';
import {
  addBounds,
  addBoundsAndOutcome,
  simpleBounds,
  slippageBasis,
  withdrawMinimums,
  type AddBounds,
} from './callBounds';
import { activeWindow, windowBinsAmong } from './windowBounds';
import { poolFees } from '../quote/exact';
import {
  chunkItems,
  contractCV,
  exportError,
  isExportError,
  tokenInfo,
  txHead,
  withDeadline,
  withExportFields,
  words,
  type BuildContext,
  type PartialTx,
} from './context';
import { fungibleCondition, positionNftCondition, sharesCondition } from '../chain/postConditions';
import { positionsPerTx } from './cost';
import type { Amount, Bound, ExportError, PositionRow, TokenInfo } from './types';

type LiquidityOp = Extract<PreparedOperation, { op: 'add' | 'withdraw' | 'move' }>;

interface PoolParts {
  pool: string;
  tx: TokenInfo;
  ty: TokenInfo;
  traits: { 'pool-trait': ClarityValue; 'x-token-trait': ClarityValue; 'y-token-trait': ClarityValue };
  /** The pool in the chain model, when the build has a state. */
  chain: ChainPool | undefined;
  /** The active bin the bounds start from: the chain state's when the build has one, else the one read. */
  active: number;
}

function poolParts(ctx: BuildContext, op: LiquidityOp): PoolParts | ExportError {
  const snap = op.pool;
  if (!snap.pool_id.includes('.')) {
    return exportError(
      'plan-unreadable',
      `pool ${snap.written_id} was not resolved to a contract principal; router calls need the pool contract`,
    );
  }
  const tx = tokenInfo(ctx, snap.pool.token_x, snap.token_x);
  if (isExportError(tx)) return tx;
  const ty = tokenInfo(ctx, snap.pool.token_y, snap.token_y);
  if (isExportError(ty)) return ty;
  const chain = ctx.state?.pool(snap.pool_id);
  return {
    pool: snap.pool_id,
    tx,
    ty,
    traits: {
      'pool-trait': contractCV(snap.pool_id),
      'x-token-trait': contractCV(tx.contract),
      'y-token-trait': contractCV(ty.contract),
    },
    chain,
    active: chain?.activeBinId ?? snap.active_bin_id,
  };
}

const sum = <T>(xs: T[], f: (x: T) => bigint): bigint => xs.reduce((a, x) => a + f(x), 0n);

/** Builds the transactions of one add / withdraw / move operation. */
export async function buildLiquidityOp(
  ctx: BuildContext,
  op: LiquidityOp,
): Promise<PartialTx[] | ExportError> {
  const parts = poolParts(ctx, op);
  if (isExportError(parts)) return parts;
  switch (op.op) {
    case 'add':
      return buildAdd(ctx, op, parts, op.items);
    case 'withdraw':
      return buildWithdraw(ctx, op, parts, op.items);
    case 'move':
      return buildMove(ctx, op, parts, op.items);
  }
}

/** Shares of the target bin: prepared trusted value, else the node proxy, else unknown. */
async function knownBin(
  ctx: BuildContext,
  pool: string,
  binId: number,
  item: { reserve_x: bigint; reserve_y: bigint; bin_shares_known?: bigint },
): Promise<{ reserve_x: bigint; reserve_y: bigint; shares: bigint | undefined }> {
  const node = item.bin_shares_known === undefined ? await ctx.shares.read(pool, binId) : undefined;
  return node ?? { reserve_x: item.reserve_x, reserve_y: item.reserve_y, shares: item.bin_shares_known };
}

function addBoundRows(b: AddBounds, t: PoolParts): Bound[] {
  return [
    { label: 'min-dlp', amount: b.minDlp, basis: b.basisDlp },
    { label: 'max-x-liquidity-fee', amount: b.maxFeeX, token: t.tx, basis: b.basisFee },
    { label: 'max-y-liquidity-fee', amount: b.maxFeeY, token: t.ty, basis: b.basisFee },
  ];
}

/**
 * Bin shares the state lacks (the analysis reads the target bins of adds and moves; a read may have failed)
 * from the node proxy, memoized per export; what is read becomes part of the state, so execution uses it too.
 */
async function fillShares(ctx: BuildContext, cp: ChainPool, bins: number[]): Promise<void> {
  const unknown = cp.unknownShares;
  if (!unknown || !ctx.api) return;
  const missing = [...new Set(bins)].filter((id) => unknown.has(id));
  const reads = await Promise.all(missing.map((id) => ctx.shares.read(cp.id, id)));
  // A new set replaces the pool's (copies of the state share it: never changed in place).
  const still = new Set(cp.unknownShares);
  missing.forEach((id, i) => {
    const r = reads[i];
    const b = cp.bins.get(id);
    if (!r || !b) return;
    cp.bins.set(id, { ...b, reserve_x: r.reserve_x, reserve_y: r.reserve_y, shares: r.shares });
    still.delete(id);
  });
  cp.unknownShares = still;
}

/** Runs `f` on the pool and puts the pool back as it was (scratch execution for sequential bounds). */
function scratch<T>(pool: ChainPool, f: () => T): T {
  const snap = snapshotPool(pool);
  try {
    return f();
  } finally {
    restorePool(pool, snap);
  }
}

/** A bin of the chain pool for bounds: shares undefined where the state does not know them. */
function stateBin(pool: ChainPool, binId: number) {
  try {
    const b = binOf(pool, binId);
    return {
      price: b.price,
      reserve_x: b.reserve_x,
      reserve_y: b.reserve_y,
      shares: pool.unknownShares?.has(binId) ? undefined : (b.shares as bigint | undefined),
    };
  } catch (e) {
    if (e instanceof UnknownState) return undefined;
    throw e;
  }
}

const NO_CAP = { minDlp: 1n, maxFeeX: MAX_UINT128, maxFeeY: MAX_UINT128 };

function sameFees(a: PoolFees, b: PoolFees): boolean {
  return (Object.keys(a) as (keyof PoolFees)[]).every((k) => a[k] === b[k]);
}

/** Ignores a scratch call that needs state that was not read (the bound falls back; execution says so). */
function tryScratch(f: () => void): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof UnknownState)) throw e;
  }
}

/**
 * Bounds of each item that adds to a bin (add items, and the to-bin side of moves), exact core math. With a
 * chain state, each item's bound is computed on the state the items before it leave (a second move into the
 * same bin mints against the shares the first one minted), and the active bin is the state's.
 */
async function boundAddingItems<
  I extends {
    index: number;
    bin_price: bigint;
    x_amount: bigint;
    y_amount: bigint;
    reserve_x: bigint;
    reserve_y: bigint;
    bin_shares_known?: bigint;
  },
>(
  ctx: BuildContext,
  op: LiquidityOp,
  t: PoolParts,
  items: I[],
  target: (item: I, active: number) => number,
  listKey: 'bins' | 'moves',
): Promise<{ item: I; b: AddBounds }[]> {
  const fees = poolFees(op.pool.pool);
  const cp = t.chain;
  if (cp && op.mode === 'simple') return boundSimpleItems(ctx, op, cp, items, target);
  const rows: { item: I; b: AddBounds }[] = [];
  if (cp) {
    await fillShares(
      ctx,
      cp,
      items.map((i) => target(i, cp.activeBinId)),
    );
    scratch(cp, () => {
      for (const item of items) {
        const active = cp.activeBinId;
        const binId = target(item, active);
        const bin = stateBin(cp, binId) ?? {
          price: item.bin_price,
          reserve_x: item.reserve_x,
          reserve_y: item.reserve_y,
          shares: undefined,
        };
        let x = item.x_amount;
        let y = item.y_amount;
        const move = item as unknown as Partial<PreparedMoveItem>;
        if (listKey === 'moves' && move.from_bin_id !== undefined) {
          const from = stateBin(cp, move.from_bin_id);
          if (from?.shares !== undefined)
            ({ x, y } = sharesToAmounts({ ...from, shares: from.shares }, move.amount as bigint));
        }
        const { bounds: b, outcome } = addBoundsAndOutcome({
          bin,
          x,
          y,
          binId,
          activeBinId: active,
          fees,
          slippagePpm: ctx.slippagePpm,
          mode: op.mode,
          minimums: cp.minimumShares,
        });
        if (!b.protectedDlp) ctx.unprotected.push({ operation: op.id, bin: binId });
        noteWeak(ctx, op, item, binId, b);
        rows.push({ item, b });
        // The bound's own add ran on this very bin of the state (known shares, same active bin), so when the
        // pool would run it (enabled, same fees) its outcome is the scratch add's: apply it, not recompute.
        if (listKey === 'bins' && outcome !== undefined && cp.active && sameFees(fees, cp.fees)) {
          if (outcome.ok) commitAdd(cp, ctx.sender, binId, outcome.value);
          continue;
        }
        // A bin whose shares were not read changes nothing (the call would stop on UnknownState): skip it
        // rather than raise and catch an exception per item.
        const unknown = cp.unknownShares;
        if (
          unknown !== undefined &&
          (unknown.has(binId) || (listKey === 'moves' && unknown.has(move.from_bin_id as number)))
        )
          continue;
        tryScratch(() => {
          if (listKey === 'bins') addToPool(cp, ctx.sender, binId, x, y, NO_CAP);
          else moveInPool(cp, ctx.sender, move.from_bin_id as number, binId, move.amount as bigint, NO_CAP);
        });
      }
    });
    return rows;
  }
  const active = op.pool.active_bin_id;
  for (const item of items) {
    const binId = target(item, active);
    const bin = await knownBin(ctx, t.pool, binId, item);
    const b = addBounds({
      bin: { price: item.bin_price, ...bin },
      x: item.x_amount,
      y: item.y_amount,
      binId,
      activeBinId: active,
      fees,
      slippagePpm: ctx.slippagePpm,
      mode: op.mode,
    });
    if (!b.protectedDlp) ctx.unprotected.push({ operation: op.id, bin: binId });
    noteWeak(ctx, op, item, binId, b, op.mode === 'simple' ? binId - active : undefined);
    rows.push({ item, b });
  }
  return rows;
}

/**
 * A position whose min-dlp is 1: the check reports it (min-dlp-unprotected). A strict add whose shares are
 * unknown is left to the check's rule on the prepared items, which needs no build.
 */
function noteWeak(
  ctx: BuildContext,
  op: LiquidityOp,
  item: { index: number; from_distribution?: true; from_bin_id?: number },
  bin: number,
  b: AddBounds,
  offset?: number,
): void {
  if (b.weak === undefined) return;
  // A strict add's unknown shares are the rule's; a strict call that reverts today is would-revert's.
  if (op.mode === 'strict' && ((op.op === 'add' && !b.protectedDlp) || b.revert !== undefined)) return;
  const label =
    offset !== undefined
      ? `offset ${offset} (bin ${bin} at the expected active bin)`
      : item.from_bin_id !== undefined
        ? `${item.from_bin_id} -> ${bin}`
        : `bin ${bin}`;
  ctx.weakBounds.push({
    operation: op.id,
    opIndex: op.index,
    item: item.index,
    fromDistribution: item.from_distribution === true,
    label,
    bin,
    why: b.weak,
  });
}

/**
 * Simple-mode bounds on the chain state: each position's outcomes over the active-bin window
 * (callBounds.ts `simpleBounds`), the window's bins whose shares the state lacks read from the node first.
 */
async function boundSimpleItems<I extends { index: number; from_distribution?: true }>(
  ctx: BuildContext,
  op: LiquidityOp,
  cp: ChainPool,
  items: I[],
  target: (item: I, active: number) => number,
): Promise<{ item: I; b: AddBounds }[]> {
  if (op.op === 'withdraw') return [];
  // In simple mode an item's target is the active bin plus its offset.
  const offsets = items.map((i) => target(i, 0));
  const window = activeWindow(cp.activeBinId, ctx.activeBinTolerance);
  if (cp.unknownShares) await fillShares(ctx, cp, windowBinsAmong(cp.unknownShares, offsets, window));
  const { bounds } = simpleBounds(cp, ctx.sender, op, ctx.slippagePpm, ctx.activeBinTolerance);
  // The operation's positions are bounded as one call; `items` are its items (by identity).
  const own = new Map<object, AddBounds>(op.items.map((it, k) => [it, bounds[k] as AddBounds]));
  return items.map((item, k) => {
    const b = own.get(item);
    if (!b) throw new Error(`internal: item ${item.index} is not a position of operation '${op.id}'`);
    if (b.unknownBin !== undefined) ctx.unprotected.push({ operation: op.id, bin: b.unknownBin });
    noteWeak(ctx, op, item, window.expected + (offsets[k] as number), b, offsets[k] as number);
    return { item, b };
  });
}

/** A simple-mode item's label: its offset, and the bin it lands in at the active bin the bounds used. */
function offsetLabel(offset: number, active: number): string {
  return `offset ${offset} (bin ${active + offset} at active ${active})`;
}

/** A simple-mode item's offset from the active bin: as written, else its bin's distance from the one read. */
function offsetOf(op: LiquidityOp, item: { active_bin_offset?: number }, bin: number): number {
  return item.active_bin_offset ?? bin - op.pool.active_bin_id;
}

/** Target of an item on a state whose active bin is `active`: its bin (strict) or its offset (simple). */
function targetOf(
  op: LiquidityOp,
  item: { active_bin_offset?: number },
  bin: number,
  active: number,
): number {
  return itemTarget(op.mode, { bin_id: bin, active_bin_offset: offsetOf(op, item, bin) }, active)!;
}

/** An add or withdraw item's row label: its bin (strict), or its offset and where it lands (simple). */
function binLabel(
  op: LiquidityOp,
  item: { active_bin_offset?: number },
  bin: number,
  active: number,
): string {
  return op.mode === 'strict' ? `bin ${bin}` : offsetLabel(offsetOf(op, item, bin), active);
}

async function buildAdd(
  ctx: BuildContext,
  op: LiquidityOp,
  t: PoolParts,
  items: PreparedAddItem[],
): Promise<PartialTx[]> {
  const rows = await boundAddingItems(ctx, op, t, items, (i, a) => targetOf(op, i, i.bin_id, a), 'bins');
  const strict = op.mode === 'strict';
  // Every bin the transaction mints into: the first mint creates the position NFT, every later mint in the
  // same transaction (or a bin the sender once emptied) burns and re-mints it, a send in deny mode.
  // Within the list limit and the safe share of a block's execution budget (cost.ts), whichever is less.
  const perTx = positionsPerTx(
    strict ? 'add-liquidity-multi' : 'add-relative-liquidity-same-multi',
    ctx.maxPositionsPerTx,
    ctx.routers.version,
  );
  const chunks = chunkItems(rows, perTx, ctx.maxPostConditionsPerTx, 2, (r) =>
    strict ? [r.item.bin_id] : [],
  );
  return chunks.map((chunk) => {
    const totalX = sum(chunk, (r) => r.item.x_amount);
    const totalY = sum(chunk, (r) => r.item.y_amount);
    const pcs: PostCondition[] = [];
    if (totalX > 0n) pcs.push(fungibleCondition(ctx.sender, 'lte', totalX, t.tx));
    if (totalY > 0n) pcs.push(fungibleCondition(ctx.sender, 'lte', totalY, t.ty));
    if (strict) {
      for (const bin of new Set(chunk.map((r) => r.item.bin_id)))
        pcs.push(positionNftCondition(ctx.sender, t.pool, bin));
    }
    let call: { args: ClarityValue[]; names: string[] };
    let fn: string;
    if (strict) {
      fn = 'add-liquidity-multi';
      // Literal keys, not spreads: spread-built objects go to dictionary mode, which made 350 tuples slow.
      const list = chunk.map(({ item, b }) =>
        Cl.tuple({
          'pool-trait': t.traits['pool-trait'],
          'x-token-trait': t.traits['x-token-trait'],
          'y-token-trait': t.traits['y-token-trait'],
          'bin-id': Cl.int(item.bin_id),
          'x-amount': Cl.uint(item.x_amount),
          'y-amount': Cl.uint(item.y_amount),
          'min-dlp': Cl.uint(b.minDlp),
          'max-x-liquidity-fee': Cl.uint(b.maxFeeX),
          'max-y-liquidity-fee': Cl.uint(b.maxFeeY),
        }),
      );
      call = withDeadline(ctx, [Cl.list(list)], ['positions']);
    } else {
      fn = 'add-relative-liquidity-same-multi';
      const list = chunk.map(({ item, b }) =>
        Cl.tuple({
          'active-bin-id-offset': Cl.int(offsetOf(op, item, item.bin_id)),
          'x-amount': Cl.uint(item.x_amount),
          'y-amount': Cl.uint(item.y_amount),
          'min-dlp': Cl.uint(b.minDlp),
          'max-x-liquidity-fee': Cl.uint(b.maxFeeX),
          'max-y-liquidity-fee': Cl.uint(b.maxFeeY),
        }),
      );
      const tolerance = Cl.some(
        Cl.tuple({ 'max-deviation': Cl.uint(ctx.activeBinTolerance), 'expected-bin-id': Cl.int(t.active) }),
      );
      call = withDeadline(
        ctx,
        [
          Cl.list(list),
          t.traits['pool-trait'],
          t.traits['x-token-trait'],
          t.traits['y-token-trait'],
          tolerance,
        ],
        ['positions', 'pool-trait', 'x-token-trait', 'y-token-trait', 'active-bin-tolerance'],
      );
    }
    const positionRows = (): PositionRow[] =>
      chunk.map(({ item, b }) => ({
        label: binLabel(op, item, item.bin_id, t.active),
        amounts: [
          { label: 'x', amount: item.x_amount, token: t.tx },
          { label: 'y', amount: item.y_amount, token: t.ty },
          ...(b.expectedDlp !== undefined ? [{ label: 'expected shares', amount: b.expectedDlp }] : []),
        ],
        bounds: addBoundRows(b, t),
      }));
    const notes = strict
      ? []
      : [
          `active-bin tolerance: the active bin must be within ${ctx.activeBinTolerance} of ${t.active} at execution`,
        ];
    return withExportFields(
      {
        ...txHead(ctx, op, fn),
        functionArgs: call.args,
        argNames: call.names,
        postConditions: pcs,
        itemIndexes: chunk.map((r) => r.item.index),
        notes,
      },
      {
        postConditionWords: () => words(pcs, [t.tx, t.ty]),
        rows: positionRows,
        totals: () => [
          { label: 'total x', amount: totalX, token: t.tx },
          { label: 'total y', amount: totalY, token: t.ty },
        ],
      },
    );
  });
}

function buildWithdraw(
  ctx: BuildContext,
  op: LiquidityOp,
  t: PoolParts,
  items: PreparedWithdrawItem[],
): PartialTx[] {
  const strict = op.mode === 'strict';
  const cp = t.chain;
  // With a chain state: what each withdrawal gives on the state the operations and items before it leave.
  const expected = (item: PreparedWithdrawItem): { x: bigint; y: bigint } => {
    if (!cp) return { x: item.x_amount, y: item.y_amount };
    const id = targetOf(op, item, item.bin_id, cp.activeBinId);
    const b = stateBin(cp, id);
    if (b?.shares === undefined) return { x: item.x_amount, y: item.y_amount };
    const got = sharesToAmounts({ ...b, shares: b.shares }, item.amount);
    if (got.x + got.y > 0n)
      tryScratch(() => void withdrawFromPool(cp, ctx.sender, id, item.amount, got.x, got.y));
    return got;
  };
  const compute = () =>
    items.map((item) => {
      const e = expected(item);
      return {
        item: { ...item, x_amount: e.x, y_amount: e.y },
        m: withdrawMinimums(e.x, e.y, ctx.slippagePpm),
      };
    });
  type Row = ReturnType<typeof compute>[number];
  const rows = cp ? scratch(cp, compute) : compute();
  const sums = (chunk: Row[]) => ({
    expX: sum(chunk, (r) => r.item.x_amount),
    expY: sum(chunk, (r) => r.item.y_amount),
    minX: sum(chunk, (r) => r.m.minX),
    minY: sum(chunk, (r) => r.m.minY),
  });
  const min = (xy: 'x' | 'y', amount: bigint, exp: bigint, token: TokenInfo): Bound => ({
    label: `min-${xy}-amount`,
    amount,
    token,
    basis: slippageBasis(`expected ${xy}`, exp, ctx.slippagePpm),
  });
  return sharesCalls(ctx, op, t, rows, {
    name: 'withdraw',
    nftBins: (r) => [r.item.bin_id],
    tokenConditions: (chunk) => {
      const s = sums(chunk);
      return [
        ...(s.expX > 0n ? [fungibleCondition(t.pool, 'gte', s.minX, t.tx)] : []),
        ...(s.expY > 0n ? [fungibleCondition(t.pool, 'gte', s.minY, t.ty)] : []),
      ];
    },
    tuple: ({ item, m }) =>
      strict
        ? Cl.tuple({
            'pool-trait': t.traits['pool-trait'],
            'x-token-trait': t.traits['x-token-trait'],
            'y-token-trait': t.traits['y-token-trait'],
            'bin-id': Cl.int(item.bin_id),
            amount: Cl.uint(item.amount),
            'min-x-amount': Cl.uint(m.minX),
            'min-y-amount': Cl.uint(m.minY),
          })
        : Cl.tuple({
            'pool-trait': t.traits['pool-trait'],
            'x-token-trait': t.traits['x-token-trait'],
            'y-token-trait': t.traits['y-token-trait'],
            'active-bin-id-offset': Cl.int(offsetOf(op, item, item.bin_id)),
            amount: Cl.uint(item.amount),
            'min-x-amount': Cl.uint(m.minX),
            'min-y-amount': Cl.uint(m.minY),
          }),
    row: ({ item, m }) => ({
      label: binLabel(op, item, item.bin_id, t.active),
      amounts: [
        {
          label: `shares (${item.withdrawal_percentage}% of ${item.user_liquidity} shares)`,
          amount: item.amount,
        },
        { label: 'expected x', amount: item.x_amount, token: t.tx },
        { label: 'expected y', amount: item.y_amount, token: t.ty },
      ],
      bounds: [min('x', m.minX, item.x_amount, t.tx), min('y', m.minY, item.y_amount, t.ty)],
    }),
    totals: (chunk, shares) => {
      const s = sums(chunk);
      return [
        { label: 'shares burned', amount: shares },
        { label: 'expected x', amount: s.expX, token: t.tx },
        { label: 'expected y', amount: s.expY, token: t.ty },
        { label: 'min x', amount: s.minX, token: t.tx },
        { label: 'min y', amount: s.minY, token: t.ty },
      ];
    },
  });
}

async function buildMove(
  ctx: BuildContext,
  op: LiquidityOp,
  t: PoolParts,
  items: PreparedMoveItem[],
): Promise<PartialTx[]> {
  const strict = op.mode === 'strict';
  const rows = await boundAddingItems(ctx, op, t, items, (i, a) => targetOf(op, i, i.to_bin_id, a), 'moves');
  return sharesCalls(ctx, op, t, rows, {
    name: 'move',
    // Both NFTs of every move: the from bin's is re-tagged by the burn, the to bin's by the mint (the first
    // mint creates it; a second move into the same bin, or a bin once emptied, burns and re-mints it).
    nftBins: (r) => [r.item.from_bin_id, r.item.to_bin_id],
    itemIndex: (r) => r.item.index,
    // Literal keys, not spreads: spread-built objects go to dictionary mode, which made 350 tuples slow.
    tuple: ({ item, b }) =>
      strict
        ? Cl.tuple({
            'pool-trait': t.traits['pool-trait'],
            'x-token-trait': t.traits['x-token-trait'],
            'y-token-trait': t.traits['y-token-trait'],
            'from-bin-id': Cl.int(item.from_bin_id),
            'to-bin-id': Cl.int(item.to_bin_id),
            amount: Cl.uint(item.amount),
            'min-dlp': Cl.uint(b.minDlp),
            'max-x-liquidity-fee': Cl.uint(b.maxFeeX),
            'max-y-liquidity-fee': Cl.uint(b.maxFeeY),
          })
        : Cl.tuple({
            'pool-trait': t.traits['pool-trait'],
            'x-token-trait': t.traits['x-token-trait'],
            'y-token-trait': t.traits['y-token-trait'],
            'from-bin-id': Cl.int(item.from_bin_id),
            'active-bin-id-offset': Cl.int(offsetOf(op, item, item.to_bin_id)),
            amount: Cl.uint(item.amount),
            'min-dlp': Cl.uint(b.minDlp),
            'max-x-liquidity-fee': Cl.uint(b.maxFeeX),
            'max-y-liquidity-fee': Cl.uint(b.maxFeeY),
          }),
    row: ({ item, b }) => ({
      label: strict
        ? `${item.from_bin_id} -> ${item.to_bin_id}`
        : `${item.from_bin_id} -> ${offsetLabel(offsetOf(op, item, item.to_bin_id), t.active)}`,
      amounts: [
        { label: 'shares', amount: item.amount },
        { label: 'x moved', amount: item.x_amount, token: t.tx },
        { label: 'y moved', amount: item.y_amount, token: t.ty },
        ...(b.expectedDlp !== undefined ? [{ label: 'expected shares', amount: b.expectedDlp }] : []),
      ],
      bounds: addBoundRows(b, t),
    }),
    totals: (chunk, shares) => [
      { label: 'shares moved', amount: shares },
      { label: 'x moved', amount: sum(chunk, (r) => r.item.x_amount), token: t.tx },
      { label: 'y moved', amount: sum(chunk, (r) => r.item.y_amount), token: t.ty },
    ],
  });
}

/** What a withdraw's calls and a move's calls differ in; sharesCalls is the rest, written once. */
interface SharesCallKind<R> {
  name: 'withdraw' | 'move';
  /** Bins whose position NFT an item burns or re-mints (strict: one condition per bin of a call). */
  nftBins(r: R): number[];
  /** Strict mode's token conditions, between the shares condition and the NFT ones. */
  tokenConditions?(chunk: R[]): PostCondition[];
  /** The plan item a list element comes from (the moves list; a withdraw's items are computed). */
  itemIndex?(r: R): number;
  tuple(r: R): ClarityValue;
  row(r: R): PositionRow;
  totals(chunk: R[], shares: bigint): Amount[];
}

/**
 * The calls of a withdraw or move: items split within the list and post-condition limits; each call burns
 * the sender's shares (exactly in strict mode, at most in simple mode, where the mode is allow) and, in
 * strict mode, names every position NFT it touches.
 */
function sharesCalls<R extends { item: { amount: bigint } }>(
  ctx: BuildContext,
  op: LiquidityOp,
  t: PoolParts,
  rows: R[],
  kind: SharesCallKind<R>,
): PartialTx[] {
  const strict = op.mode === 'strict';
  const nftBins = (r: R) => (strict ? kind.nftBins(r) : []);
  // Conditions of a call besides the NFTs': the shares', and a withdraw's two token conditions.
  const fixed = kind.tokenConditions ? 3 : 1;
  const fn = `${kind.name}-${strict ? '' : 'relative-'}liquidity-multi`;
  // Within the list limit and the safe share of a block's execution budget (cost.ts), whichever is less.
  const perTx = positionsPerTx(fn, ctx.maxPositionsPerTx, ctx.routers.version);
  const chunks = chunkItems(rows, perTx, ctx.maxPostConditionsPerTx, fixed, nftBins);
  return chunks.map((chunk) => {
    const shares = sum(chunk, (r) => r.item.amount);
    const pcs: PostCondition[] = [sharesCondition(ctx.sender, strict ? 'eq' : 'lte', shares, t.pool)];
    if (strict) {
      pcs.push(...(kind.tokenConditions?.(chunk) ?? []));
      for (const bin of new Set(chunk.flatMap(nftBins)))
        pcs.push(positionNftCondition(ctx.sender, t.pool, bin));
    }
    const call = withDeadline(ctx, [Cl.list(chunk.map((r) => kind.tuple(r)))], ['positions']);
    return withExportFields(
      {
        ...txHead(ctx, op, fn),
        functionArgs: call.args,
        argNames: call.names,
        postConditions: pcs,
        ...(kind.itemIndex ? { itemIndexes: chunk.map(kind.itemIndex) } : {}),
        notes: [],
      },
      {
        postConditionWords: () => words(pcs, [t.tx, t.ty]),
        rows: () => chunk.map((r) => kind.row(r)),
        totals: () => kind.totals(chunk, shares),
      },
    );
  });
}
