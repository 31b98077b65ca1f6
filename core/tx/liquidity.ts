/**
 * Add / withdraw / move operations to liquidity-router calls (DOMAIN.md "Router contracts"): strict ->
 * absolute bin ids with post-condition mode deny; simple -> relative functions with mode allow. Built
 * from prepared items only; bounds from bounds.ts; post-conditions from postConditions.ts.
 */
import { Cl, type ClarityValue, type PostCondition } from '@stacks/transactions';
import type {
  PreparedAddItem,
  PreparedMoveItem,
  PreparedOperation,
  PreparedWithdrawItem,
  PoolSnapshot,
} from '../plan/prepared';
import { addBounds, poolFees, withdrawMinimums, type AddBounds } from './bounds';
import {
  chunkItems,
  contractCV,
  exportError,
  isExportError,
  tokenInfo,
  withDeadline,
  words,
  type BuildContext,
  type PartialTx,
} from './context';
import { fungibleCondition, positionNftCondition, sharesCondition } from './postConditions';
import type { Bound, ExportError, PositionRow, TokenInfo } from './types';

type LiquidityOp = Extract<PreparedOperation, { op: 'add' | 'withdraw' | 'move' }>;

interface PoolParts {
  pool: string;
  tx: TokenInfo;
  ty: TokenInfo;
  traits: { 'pool-trait': ClarityValue; 'x-token-trait': ClarityValue; 'y-token-trait': ClarityValue };
}

function poolParts(ctx: BuildContext, snap: PoolSnapshot): PoolParts | ExportError {
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
  return {
    pool: snap.pool_id,
    tx,
    ty,
    traits: {
      'pool-trait': contractCV(snap.pool_id),
      'x-token-trait': contractCV(tx.contract),
      'y-token-trait': contractCV(ty.contract),
    },
  };
}

const sum = <T>(xs: T[], f: (x: T) => bigint): bigint => xs.reduce((a, x) => a + f(x), 0n);

/** Builds the transactions of one add / withdraw / move operation. */
export async function buildLiquidityOp(
  ctx: BuildContext,
  op: LiquidityOp,
): Promise<PartialTx[] | ExportError> {
  const parts = poolParts(ctx, op.pool);
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

function base(ctx: BuildContext, op: LiquidityOp, fn: string) {
  return {
    opId: op.id,
    opIndex: op.index,
    op: op.op,
    mode: op.mode,
    network: ctx.network,
    contract: ctx.routers.liquidityRouter,
    functionName: fn,
    postConditionMode: op.mode === 'strict' ? ('deny' as const) : ('allow' as const),
    deadline: ctx.deadline,
  };
}

/** Shares of the target bin: prepared trusted value, else the node proxy, else unknown. */
async function knownBin(
  ctx: BuildContext,
  pool: string,
  binId: number,
  item: { reserve_x: bigint; reserve_y: bigint; bin_shares_known?: bigint },
) {
  if (item.bin_shares_known !== undefined)
    return {
      reserve_x: item.reserve_x,
      reserve_y: item.reserve_y,
      shares: item.bin_shares_known as bigint | undefined,
    };
  const node = await ctx.shares.read(pool, binId);
  if (node) return node as { reserve_x: bigint; reserve_y: bigint; shares: bigint | undefined };
  return { reserve_x: item.reserve_x, reserve_y: item.reserve_y, shares: undefined };
}

function addBoundRows(b: AddBounds, t: PoolParts): Bound[] {
  return [
    { label: 'min-dlp', amount: b.minDlp, basis: b.basisDlp },
    { label: 'max-x-liquidity-fee', amount: b.maxFeeX, token: t.tx, basis: b.basisFee },
    { label: 'max-y-liquidity-fee', amount: b.maxFeeY, token: t.ty, basis: b.basisFee },
  ];
}

function reportUnprotected(
  ctx: BuildContext,
  op: LiquidityOp,
  path: (string | number)[],
  binId: number,
): void {
  const r = ctx.rangeOf(path);
  ctx.unprotected.push({ operation: op.id, bin: binId });
  ctx.findings.push({
    code: 'min-dlp-unprotected',
    severity: 'warning',
    message: `bin ${binId}: bin shares are unknown (v2 list liquidity is null and no node read answered), so min-dlp falls back to 1; configure a node proxy (DLMM_NODE_URL) to bound the minted shares`,
    offset: r.offset,
    length: r.length,
    operation: op.id,
  });
}

/** Bounds of each item that adds to a bin (add items, and the to-bin side of moves), exact core math. */
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
  target: (item: I) => number,
  listKey: 'bins' | 'moves',
): Promise<{ item: I; b: AddBounds }[]> {
  const fees = poolFees(op.pool.pool);
  const active = op.pool.active_bin_id;
  const rows: { item: I; b: AddBounds }[] = [];
  for (const item of items) {
    const binId = target(item);
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
    if (!b.protectedDlp) reportUnprotected(ctx, op, ['operations', op.index, listKey, item.index], binId);
    rows.push({ item, b });
  }
  return rows;
}

async function buildAdd(
  ctx: BuildContext,
  op: LiquidityOp,
  t: PoolParts,
  items: PreparedAddItem[],
): Promise<PartialTx[]> {
  const active = op.pool.active_bin_id;
  const rows = await boundAddingItems(ctx, op, t, items, (i) => i.bin_id, 'bins');
  const strict = op.mode === 'strict';
  const chunks = chunkItems(rows, ctx.maxPositionsPerTx, ctx.maxPostConditionsPerTx, 2, (r) =>
    strict && r.item.has_ever_added_to_bin ? [r.item.bin_id] : [],
  );
  return chunks.map((chunk) => {
    const totalX = sum(chunk, (r) => r.item.x_amount);
    const totalY = sum(chunk, (r) => r.item.y_amount);
    const pcs: PostCondition[] = [];
    if (totalX > 0n) pcs.push(fungibleCondition(ctx.sender, 'lte', totalX, t.tx));
    if (totalY > 0n) pcs.push(fungibleCondition(ctx.sender, 'lte', totalY, t.ty));
    if (strict) {
      for (const bin of new Set(
        chunk.filter((r) => r.item.has_ever_added_to_bin).map((r) => r.item.bin_id),
      )) {
        pcs.push(positionNftCondition(ctx.sender, t.pool, bin));
      }
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
          'active-bin-id-offset': Cl.int(item.active_bin_offset ?? item.bin_id - active),
          'x-amount': Cl.uint(item.x_amount),
          'y-amount': Cl.uint(item.y_amount),
          'min-dlp': Cl.uint(b.minDlp),
          'max-x-liquidity-fee': Cl.uint(b.maxFeeX),
          'max-y-liquidity-fee': Cl.uint(b.maxFeeY),
        }),
      );
      const tolerance = Cl.some(
        Cl.tuple({ 'max-deviation': Cl.uint(ctx.activeBinTolerance), 'expected-bin-id': Cl.int(active) }),
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
    const positionRows: PositionRow[] = chunk.map(({ item, b }) => ({
      label: strict
        ? `bin ${item.bin_id}`
        : `offset ${item.active_bin_offset ?? item.bin_id - active} (bin ${item.bin_id} at active ${active})`,
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
          `active-bin tolerance: the active bin must be within ${ctx.activeBinTolerance} of ${active} at execution`,
        ];
    return {
      ...base(ctx, op, fn),
      functionArgs: call.args,
      argNames: call.names,
      postConditions: pcs,
      postConditionWords: words(pcs, [t.tx, t.ty]),
      rows: positionRows,
      totals: [
        { label: 'total x', amount: totalX, token: t.tx },
        { label: 'total y', amount: totalY, token: t.ty },
      ],
      notes,
    };
  });
}

async function buildWithdraw(
  ctx: BuildContext,
  op: LiquidityOp,
  t: PoolParts,
  items: PreparedWithdrawItem[],
): Promise<PartialTx[]> {
  const strict = op.mode === 'strict';
  const active = op.pool.active_bin_id;
  const rows = items.map((item) => ({
    item,
    m: withdrawMinimums(item.x_amount, item.y_amount, ctx.slippagePpm),
  }));
  const chunks = chunkItems(rows, ctx.maxPositionsPerTx, ctx.maxPostConditionsPerTx, 3, (r) =>
    strict ? [r.item.bin_id] : [],
  );
  return chunks.map((chunk) => {
    const shares = sum(chunk, (r) => r.item.amount);
    const minX = sum(chunk, (r) => r.m.minX);
    const minY = sum(chunk, (r) => r.m.minY);
    const expX = sum(chunk, (r) => r.item.x_amount);
    const expY = sum(chunk, (r) => r.item.y_amount);
    const pcs: PostCondition[] = [sharesCondition(ctx.sender, strict ? 'eq' : 'lte', shares, t.pool)];
    if (strict) {
      if (expX > 0n) pcs.push(fungibleCondition(t.pool, 'gte', minX, t.tx));
      if (expY > 0n) pcs.push(fungibleCondition(t.pool, 'gte', minY, t.ty));
      for (const bin of new Set(chunk.map((r) => r.item.bin_id)))
        pcs.push(positionNftCondition(ctx.sender, t.pool, bin));
    }
    const list = chunk.map(({ item, m }) =>
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
            'active-bin-id-offset': Cl.int(item.active_bin_offset ?? item.bin_id - active),
            amount: Cl.uint(item.amount),
            'min-x-amount': Cl.uint(m.minX),
            'min-y-amount': Cl.uint(m.minY),
          }),
    );
    const call = withDeadline(ctx, [Cl.list(list)], ['positions']);
    const pctText = (r: { item: PreparedWithdrawItem }) =>
      `${r.item.withdrawal_percentage}% of ${r.item.user_liquidity} shares`;
    return {
      ...base(ctx, op, strict ? 'withdraw-liquidity-multi' : 'withdraw-relative-liquidity-multi'),
      functionArgs: call.args,
      argNames: call.names,
      postConditions: pcs,
      postConditionWords: words(pcs, [t.tx, t.ty]),
      rows: chunk.map((r) => ({
        label: strict
          ? `bin ${r.item.bin_id}`
          : `offset ${r.item.active_bin_offset ?? r.item.bin_id - active} (bin ${r.item.bin_id} at active ${active})`,
        amounts: [
          { label: `shares (${pctText(r)})`, amount: r.item.amount },
          { label: 'expected x', amount: r.item.x_amount, token: t.tx },
          { label: 'expected y', amount: r.item.y_amount, token: t.ty },
        ],
        bounds: [
          {
            label: 'min-x-amount',
            amount: r.m.minX,
            token: t.tx,
            basis: `expected x ${r.item.x_amount} less ${Number(ctx.slippagePpm) / 10_000}% slippage`,
          },
          {
            label: 'min-y-amount',
            amount: r.m.minY,
            token: t.ty,
            basis: `expected y ${r.item.y_amount} less ${Number(ctx.slippagePpm) / 10_000}% slippage`,
          },
        ],
      })),
      totals: [
        { label: 'shares burned', amount: shares },
        { label: 'expected x', amount: expX, token: t.tx },
        { label: 'expected y', amount: expY, token: t.ty },
        { label: 'min x', amount: minX, token: t.tx },
        { label: 'min y', amount: minY, token: t.ty },
      ],
      notes: [],
    };
  });
}

async function buildMove(
  ctx: BuildContext,
  op: LiquidityOp,
  t: PoolParts,
  items: PreparedMoveItem[],
): Promise<PartialTx[]> {
  const strict = op.mode === 'strict';
  const active = op.pool.active_bin_id;
  const rows = await boundAddingItems(ctx, op, t, items, (i) => i.to_bin_id, 'moves');
  const nftBins = (c: typeof rows) => {
    const s = new Set<number>();
    for (const r of c) {
      s.add(r.item.from_bin_id);
      if (r.item.has_ever_added_to_to_bin) s.add(r.item.to_bin_id);
    }
    return s;
  };
  const chunks = chunkItems(rows, ctx.maxPositionsPerTx, ctx.maxPostConditionsPerTx, 1, (r) =>
    !strict
      ? []
      : r.item.has_ever_added_to_to_bin
        ? [r.item.from_bin_id, r.item.to_bin_id]
        : [r.item.from_bin_id],
  );
  return chunks.map((chunk) => {
    const shares = sum(chunk, (r) => r.item.amount);
    const pcs: PostCondition[] = [sharesCondition(ctx.sender, strict ? 'eq' : 'lte', shares, t.pool)];
    if (strict) for (const bin of nftBins(chunk)) pcs.push(positionNftCondition(ctx.sender, t.pool, bin));
    // Literal keys, not spreads: spread-built objects go to dictionary mode, which made 350 tuples slow.
    const list = chunk.map(({ item, b }) =>
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
            'active-bin-id-offset': Cl.int(item.active_bin_offset ?? item.to_bin_id - active),
            amount: Cl.uint(item.amount),
            'min-dlp': Cl.uint(b.minDlp),
            'max-x-liquidity-fee': Cl.uint(b.maxFeeX),
            'max-y-liquidity-fee': Cl.uint(b.maxFeeY),
          }),
    );
    const call = withDeadline(ctx, [Cl.list(list)], ['positions']);
    return {
      ...base(ctx, op, strict ? 'move-liquidity-multi' : 'move-relative-liquidity-multi'),
      functionArgs: call.args,
      argNames: call.names,
      postConditions: pcs,
      postConditionWords: words(pcs, [t.tx, t.ty]),
      rows: chunk.map(({ item, b }) => ({
        label: strict
          ? `${item.from_bin_id} -> ${item.to_bin_id}`
          : `${item.from_bin_id} -> offset ${item.active_bin_offset ?? item.to_bin_id - active} (bin ${item.to_bin_id} at active ${active})`,
        amounts: [
          { label: 'shares', amount: item.amount },
          { label: 'x moved', amount: item.x_amount, token: t.tx },
          { label: 'y moved', amount: item.y_amount, token: t.ty },
          ...(b.expectedDlp !== undefined ? [{ label: 'expected shares', amount: b.expectedDlp }] : []),
        ],
        bounds: addBoundRows(b, t),
      })),
      totals: [
        { label: 'shares moved', amount: shares },
        { label: 'x moved', amount: sum(chunk, (r) => r.item.x_amount), token: t.tx },
        { label: 'y moved', amount: sum(chunk, (r) => r.item.y_amount), token: t.ty },
      ],
      notes: [],
    };
  });
}
