/**
 * Hover: formats what the analysis already knows about the thing under the cursor (bin, add item, move,
 * pool, swap). Figures come from core: prepared items, the live data read for the analysis, core/dlmm
 * price helpers and core/tx's bound computation (the same numbers the export writes).
 */
import { MarkupKind, type Hover } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Pool, Token } from '../../../core/api/types';
import {
  BIN_ID_OFFSET,
  binPriceHuman,
  isSignedBinId,
  isUnsignedBinId,
  toSignedBinId,
} from '../../../core/dlmm/bins';
import { knownShares, type LiveData, type LivePool } from '../../../core/live/live';
import type { PreparedAddItem, PreparedOperation } from '../../../core/prepare/prepared';
import { revertWords } from '../../../core/chain/router';
import { effectiveSlippage } from '../../../core/dlmm/bounds';
import { itemTarget } from '../../../core/plan/schema';
import { quoteMinReceived } from '../../../core/quote/exact';
import { addBounds, simpleBoundsRead } from '../../../core/tx/callBounds';
import { poolFees } from '../../../core/quote/exact';
import { amountText } from '../../../core/tx/summary';
import { blockCostDetail } from '../../../core/tx/cost';
import type { Amount, TxEffects } from '../../../core/tx/types';
import type { AnalysisResult, ExecutedTransaction } from '../planService';
import { rangeOf } from './diagnostics';
import { describeRoute, formatAmount } from '../../../protocol/format';
import { asRecord, toBig, toNumber } from './planValues';

type Op = Record<string, unknown>;

/** Hover at `offset` of a plan document, or null when there is nothing to say. */
export function hover(doc: TextDocument, result: AnalysisResult, offset: number): Hover | null {
  const a = result.analysis;
  const loc = a.parsed.locate(offset);
  if (!loc || loc.path[0] !== 'operations' || typeof loc.path[1] !== 'number') return null;
  const index = loc.path[1];
  const rawOp = opAt(a.parsed.value, index);
  if (!rawOp) return null;
  const live: LiveData | undefined = a.live;
  const prepared = a.prepared.find((p) => p.index === index);
  const pool = typeof rawOp.pool === 'string' ? live?.byPool.get(rawOp.pool) : undefined;
  const rest = loc.path.slice(2);
  const sections: string[] = [];
  const kind = rawOp.op;
  // The plan's slippage only where written: the schema's default must not hide the dlmm.slippageTolerance setting.
  const planSlippage = a.parsed.rangeOf(['policy', 'slippage_tolerance'])
    ? a.plan?.policy.slippage_tolerance
    : undefined;

  if (rest[0] === 'pool') sections.push(poolSection(pool, rawOp.pool, live, result.live));
  else if (kind === 'add' && rest[0] === 'distribution')
    sections.push(distributionSection(prepared, pool, planSlippage, result));
  else if (kind === 'add' && rest[0] === 'bins' && typeof rest[1] === 'number') {
    const item = asRecord((rawOp.bins as unknown[] | undefined)?.[rest[1]]);
    sections.push(addItemSection(prepared, rest[1], item, pool, planSlippage, result));
  } else if (kind === 'withdraw' && rest[0] === 'bins' && typeof rest[1] === 'number') {
    const id = (rawOp.bins as unknown[] | undefined)?.[rest[1]];
    sections.push(binSection(pool, toNumber(id), 'Bin', result.live));
    sections.push(withdrawItemLine(prepared, toNumber(id), pool));
  } else if (kind === 'move' && rest[0] === 'moves' && typeof rest[1] === 'number') {
    const item = asRecord((rawOp.moves as unknown[] | undefined)?.[rest[1]]);
    sections.push(moveItemSection(prepared, rest[1], item, pool, rest[2], planSlippage, result));
  } else if (kind === 'swap')
    sections.push(
      swapSection(live, index, rawOp, planSlippage, result.settings.slippageTolerance, result.live),
    );
  else if (kind === 'withdraw') sections.push(withdrawSection(prepared, pool, result.live));
  else if (pool || typeof rawOp.pool === 'string')
    sections.push(poolSection(pool, rawOp.pool, live, result.live));
  // What the operation's transactions do when executed on the state read (the check's own execution).
  if (rest[0] !== 'pool') {
    const list = kind === 'move' ? 'moves' : 'bins';
    const itemAt = rest[0] === list && typeof rest[1] === 'number' ? rest[1] : undefined;
    let select: (row: TxEffects['rows'][number], tx: ExecutedTx) => boolean = () => true;
    if (itemAt !== undefined && kind === 'withdraw') {
      const bin = toNumber((rawOp.bins as unknown[] | undefined)?.[itemAt]);
      select = (row) => row.bin === bin;
    } else if (itemAt !== undefined && (kind === 'add' || kind === 'move'))
      select = (row, tx) => tx.itemIndexes?.[row.element] === itemAt;
    sections.push(executionSection(a.execution?.transactions, index, itemAt !== undefined, select));
  }
  const text = sections.filter((s) => s.length > 0).join('\n\n---\n\n');
  if (!text) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value: text },
    ...(loc.scalar ? { range: rangeOf(doc, loc.scalar.offset, loc.scalar.length) } : {}),
  };
}

function opAt(value: unknown, index: number): Op | undefined {
  const ops = (value as { operations?: unknown } | undefined)?.operations;
  return Array.isArray(ops) ? asRecord(ops[index]) : undefined;
}

function noLive(isLive: boolean, what: string): string {
  return isLive
    ? `_${what}: not available from the engine._`
    : `_${what}: live data not read (offline, or still loading)._`;
}

/** Signed/unsigned ids, price (raw and human), reserves, shares, the user's liquidity, distance from active. */
function binSection(
  pool: LivePool | undefined,
  id: number | undefined,
  title: string,
  isLive: boolean,
): string {
  if (id === undefined) return '';
  const lines: string[] = [];
  if (isSignedBinId(id)) lines.push(`**${title} ${id}** · unsigned id ${id + BIN_ID_OFFSET}`);
  else if (isUnsignedBinId(id))
    lines.push(
      `**${title} ${id}** · outside the signed domain: as an unsigned id it is signed **${toSignedBinId(id)}**`,
    );
  else return `**${title} ${id}** · outside both bin domains (signed -500..500, unsigned 0..1000)`;
  if (!pool || !isSignedBinId(id)) return [...lines, noLive(isLive, 'bin data')].join('\n\n');
  const active = pool.activeBinId;
  if (active !== undefined) {
    const d = id - active;
    lines.push(
      d === 0
        ? 'the **active bin**'
        : `${Math.abs(d)} bin${Math.abs(d) === 1 ? '' : 's'} ${d > 0 ? 'above' : 'below'} the active bin (${active})`,
    );
  }
  const bin = pool.binById.get(id);
  const tx = pool.tokenX;
  const ty = pool.tokenY;
  if (bin) {
    const human =
      tx && ty
        ? `${binPriceHuman(bin.price, tx.decimals, ty.decimals)} ${ty.symbol} per ${tx.symbol} · `
        : '';
    lines.push(`price: ${human}raw ${bin.price}`);
    lines.push(`reserves: ${formatAmount(bin.reserve_x, tx)} · ${formatAmount(bin.reserve_y, ty)}`);
  } else if (pool.bins) {
    lines.push("not in the pool's bin list (no reserves)");
  }
  const position = pool.positionById.get(id);
  // The one rule for trusted shares (knownShares): never the v2 list's liquidity, even when it is filled.
  const shares = knownShares(pool, id);
  lines.push(
    `bin shares: ${shares === undefined ? 'unknown (no trusted source read; the v2 list liquidity is never shares)' : shares.toString()}`,
  );
  if (pool.positions) {
    const source =
      pool.positionsSource === 'inventory'
        ? 'inventory at the applied tip'
        : pool.positionsSource === 'current-bins'
          ? 'app v2 current-bins, pinned to a block'
          : 'app v2 positions (display data, may lag)';
    lines.push(`your liquidity: ${position ? `${position.user_liquidity} shares` : 'none'} (${source})`);
  }
  return lines.join('\n\n');
}

/** The target bin of an item as written (before prepare knows it): the one rule, core/plan/schema.ts itemTarget. */
function writtenTarget(
  raw: Op | undefined,
  absolute: 'bin_id' | 'to_bin_id',
  pool: LivePool | undefined,
): number | undefined {
  const id = toNumber(raw?.[absolute]);
  const written = { [absolute]: id, active_bin_offset: toNumber(raw?.active_bin_offset) };
  return itemTarget(id !== undefined ? 'strict' : 'simple', written, pool?.activeBinId);
}

function slippagePpmOf(
  planSlippage: number | undefined,
  settingsSlippage: number | undefined,
): { ppm: bigint; percent: number } {
  return effectiveSlippage(planSlippage, settingsSlippage);
}

function addItemSection(
  prepared: PreparedOperation | undefined,
  itemIndex: number,
  raw: Op | undefined,
  pool: LivePool | undefined,
  planSlippage: number | undefined,
  result: AnalysisResult,
): string {
  const item =
    prepared?.op === 'add'
      ? prepared.items.find((i) => i.index === itemIndex && !i.from_distribution)
      : undefined;
  const target = item?.bin_id ?? writtenTarget(raw, 'bin_id', pool);
  const head = binSection(pool, target, 'Target bin', result.live);
  if (!item || prepared?.op !== 'add') return head;
  const tx = pool?.tokenX;
  const ty = pool?.tokenY;
  const { ppm, percent } = slippagePpmOf(planSlippage, result.settings.slippageTolerance);
  // One source of truth for what is known about the bin: the same knownShares the bin section above shows.
  const shares = pool ? knownShares(pool, item.bin_id) : item.bin_shares_known;
  const b =
    (prepared.mode === 'simple' ? simpleItemBounds(result, prepared, item, ppm) : undefined) ??
    itemBounds(prepared, item, shares, ppm);
  const lines = [`**Add** ${formatAmount(item.x_amount, tx)} + ${formatAmount(item.y_amount, ty)}`];
  if (item.active_bin_offset !== undefined)
    lines.push(`active bin offset ${item.active_bin_offset} (${prepared.mode})`);
  if (b.revert) lines.push(`⚠ at today's state the add would revert: ${b.revert}`);
  lines.push(
    `expected minted shares: ${
      b.expectedDlp !== undefined
        ? b.expectedDlp.toString()
        : shares === undefined
          ? 'not computable (bin shares unknown)'
          : 'none: the add reverts at the state read (above)'
    }`,
  );
  if (b.expectedDlp !== undefined)
    lines.push(`liquidity fee: ${formatAmount(b.expectedFeeX, tx)} · ${formatAmount(b.expectedFeeY, ty)}`);
  lines.push(...boundLines(b, percent, tx, ty));
  return [head, lines.join('\n\n')].filter(Boolean).join('\n\n---\n\n');
}

/** The min-dlp and fee-cap lines of a position's bounds, each with its basis. */
function boundLines(
  b: ReturnType<typeof addBounds>,
  percent: number,
  tx: Token | undefined,
  ty: Token | undefined,
): string[] {
  return [
    `min-dlp at ${percent}% slippage: ${b.minDlp}${b.weak !== undefined ? ' ⚠ unprotected' : ''} — ${b.basisDlp}`,
    `max liquidity fee: ${formatAmount(b.maxFeeX, tx)} · ${formatAmount(b.maxFeeY, ty)} — ${b.basisFee}`,
  ];
}

/**
 * A simple-mode position's bounds over the active-bin window, on the state read (core/tx's, the figures the
 * export writes when no operation before this one changes the pool); undefined without live data.
 */
function simpleItemBounds(
  result: AnalysisResult,
  op: Extract<PreparedOperation, { op: 'add' | 'move' }>,
  item: object,
  ppm: bigint,
): ReturnType<typeof addBounds> | undefined {
  const a = result.analysis;
  const k = (op.items as object[]).indexOf(item);
  if (!a.live || k < 0) return undefined;
  const tolerance = a.plan?.policy.active_bin_tolerance ?? 1;
  return simpleBoundsRead(a.live, op, a.plan?.sender, ppm, tolerance)?.[k];
}

/** An add item's bounds at the state read with `shares` for its bin: core/tx's, the numbers the export writes. */
function itemBounds(
  op: Extract<PreparedOperation, { op: 'add' }>,
  item: PreparedAddItem,
  shares: bigint | undefined,
  slippagePpm: bigint,
): ReturnType<typeof addBounds> {
  return addBounds({
    bin: { price: item.bin_price, reserve_x: item.reserve_x, reserve_y: item.reserve_y, shares },
    x: item.x_amount,
    y: item.y_amount,
    binId: item.bin_id,
    activeBinId: op.pool.active_bin_id,
    fees: poolFees(op.pool.pool),
    slippagePpm,
    mode: op.mode,
  });
}

function moveItemSection(
  prepared: PreparedOperation | undefined,
  itemIndex: number,
  raw: Op | undefined,
  pool: LivePool | undefined,
  field: string | number | undefined,
  planSlippage: number | undefined,
  result: AnalysisResult,
): string {
  const isLive = result.live;
  const item = prepared?.op === 'move' ? prepared.items.find((i) => i.index === itemIndex) : undefined;
  const from = item?.from_bin_id ?? toNumber(raw?.from_bin_id);
  const to = item?.to_bin_id ?? writtenTarget(raw, 'to_bin_id', pool);
  const sections: string[] = [];
  if (field === 'from_bin_id') sections.push(binSection(pool, from, 'From bin', isLive));
  else if (field === 'to_bin_id' || field === 'active_bin_offset')
    sections.push(binSection(pool, to, 'To bin', isLive));
  if (item) {
    const lines = [
      `**Move** ${item.amount} shares from bin ${item.from_bin_id} to bin ${item.to_bin_id}`,
      `computed: ${formatAmount(item.x_amount, pool?.tokenX)} · ${formatAmount(item.y_amount, pool?.tokenY)} (floor(amount × reserve / bin shares) of the from bin)`,
    ];
    if (prepared?.op === 'move' && prepared.mode === 'simple') {
      const { ppm, percent } = slippagePpmOf(planSlippage, result.settings.slippageTolerance);
      const b = simpleItemBounds(result, prepared, item, ppm);
      if (b) lines.push(...boundLines(b, percent, pool?.tokenX, pool?.tokenY));
    }
    sections.push(lines.join('\n\n'));
  } else if (field !== 'from_bin_id' && field !== 'to_bin_id') {
    sections.push(binSection(pool, from, 'From bin', isLive), noLive(isLive, 'computed move amounts'));
  }
  return sections.filter(Boolean).join('\n\n---\n\n');
}

function withdrawItemLine(
  prepared: PreparedOperation | undefined,
  id: number | undefined,
  pool: LivePool | undefined,
): string {
  if (prepared?.op !== 'withdraw' || id === undefined) return '';
  const item = prepared.items.find((i) => i.bin_id === id);
  if (!item) return '';
  return `**Withdraw** ${item.amount} of ${item.user_liquidity} shares (${item.withdrawal_percentage}%) → ${formatAmount(item.x_amount, pool?.tokenX)} · ${formatAmount(item.y_amount, pool?.tokenY)}`;
}

function withdrawSection(
  prepared: PreparedOperation | undefined,
  pool: LivePool | undefined,
  isLive: boolean,
): string {
  if (prepared?.op !== 'withdraw') return noLive(isLive, 'withdrawal preview');
  if (prepared.items.length === 0) return '**Withdraw**: no selected bin holds your liquidity';
  const rows = prepared.items.map(
    (i) =>
      `| ${i.bin_id} | ${i.amount} / ${i.user_liquidity} | ${formatAmount(i.x_amount, pool?.tokenX, false)} | ${formatAmount(i.y_amount, pool?.tokenY, false)} |`,
  );
  return ['**Withdraw** (expected)', '', '| bin | shares | x | y |', '|---:|---:|---:|---:|', ...rows].join(
    '\n',
  );
}

/** Tokens, bin step, fees, flags of a pool. */
function poolSection(
  pool: LivePool | undefined,
  written: unknown,
  live: LiveData | undefined,
  isLive: boolean,
): string {
  const p: Pool | undefined =
    pool?.pool ?? live?.pools?.find((x) => x.pool_id === written || x.pool_alias === written);
  if (!p)
    return `**Pool** \`${String(written)}\`\n\n${pool?.poolError ? `_${pool.poolError.message}_` : noLive(isLive, 'pool data')}`;
  const tok = (t: Token | undefined, contract: string) =>
    t ? `${t.symbol} (\`${contract}\`, ${t.decimals} decimals)` : `\`${contract}\``;
  const tx = pool?.tokenX ?? live?.tokens?.find((t) => t.contract_address === p.token_x);
  const ty = pool?.tokenY ?? live?.tokens?.find((t) => t.contract_address === p.token_y);
  const fx = p.x_protocol_fee + p.x_provider_fee + p.x_variable_fee;
  const fy = p.y_protocol_fee + p.y_provider_fee + p.y_variable_fee;
  const alias = pool?.alias ?? p.pool_alias;
  const principal = pool?.principal ?? p.pool_id;
  return [
    `**Pool** \`${principal}\`${alias ? ` (alias \`${alias}\`)` : ''}`,
    `token x: ${tok(tx, p.token_x)}  \ntoken y: ${tok(ty, p.token_y)}`,
    `bin step: ${p.bin_step} bps · active bin: ${pool?.activeBinId ?? p.active_bin}`,
    `fees (bps): x ${p.x_protocol_fee} protocol + ${p.x_provider_fee} provider + ${p.x_variable_fee} variable = ${fx} · y ${p.y_protocol_fee} + ${p.y_provider_fee} + ${p.y_variable_fee} = ${fy}`,
    `active: ${p.active} · quotable: ${p.quotable}${p.pool_status !== undefined && p.pool_status !== null ? ` · status: ${String(p.pool_status)}` : ''}`,
  ].join('\n\n');
}

function swapSection(
  live: LiveData | undefined,
  index: number,
  raw: Op,
  planSlippage: number | undefined,
  settingsSlippage: number | undefined,
  isLive: boolean,
): string {
  const sw = live?.swaps.get(index);
  const tokens = live?.tokens ?? [];
  const amountIn = toBig(raw.amount_in);
  const inTok = tokens.find((t) => t.contract_address === raw.input_token);
  const head = `**Swap** ${amountIn !== undefined ? formatAmount(amountIn, inTok) : '?'} of \`${String(raw.input_token)}\` for \`${String(raw.output_token)}\``;
  if (!sw) return [head, noLive(isLive, 'quote')].join('\n\n');
  if (sw.error || !sw.route)
    return [head, `no quote: ${sw.error?.message ?? 'the engine returned no route'}`].join('\n\n');
  const route = sw.route;
  const d = describeRoute(route, tokens, sw.check);
  const opSlippage = typeof raw.slippage_tolerance === 'number' ? raw.slippage_tolerance : undefined;
  const { percent: slippage, ppm } = effectiveSlippage(opSlippage, planSlippage, settingsSlippage);
  const outKnown = tokens.find((t) => t.contract_address === raw.output_token);
  const outDecimals = route.output_token_decimals ?? outKnown?.decimals;
  const outTok =
    outDecimals === undefined ? undefined : { symbol: outKnown?.symbol ?? '', decimals: outDecimals };
  const min = quoteMinReceived(sw.check, route, ppm);
  return [
    head,
    `quote: ${d.label}`,
    d.detail,
    ...d.lines,
    `min received at ${slippage}%: ${formatAmount(min, outTok)}${sw.check && !sw.check.complete ? ' (for the used part only)' : ''}`,
  ].join('\n\n');
}

/** Rows shown in a distribution's hover; the rest is summarized (a Markdown table of 350 rows is unreadable). */
const DISTRIBUTION_ROWS = 41;

/** The expanded distribution: one row per bin (bin, price, x, y, expected shares) and the totals. */
function distributionSection(
  prepared: PreparedOperation | undefined,
  pool: LivePool | undefined,
  planSlippage: number | undefined,
  result: AnalysisResult,
): string {
  if (prepared?.op !== 'add' || !prepared.distribution)
    return `**Distribution**\n\n${noLive(result.live, 'expansion (needs the active bin and bin prices)')}`;
  const d = prepared.distribution;
  if (!d.ok)
    return `**Distribution** ${d.lo !== undefined ? `bins ${d.lo}..${d.hi}` : ''}: not expanded (see the finding on it)`;
  const tx = pool?.tokenX ?? prepared.pool.token_x;
  const ty = pool?.tokenY ?? prepared.pool.token_y;
  const items = prepared.items.filter((i) => i.from_distribution);
  const { ppm } = slippagePpmOf(planSlippage, result.settings.slippageTolerance);
  const active = prepared.pool.active_bin_id;
  const price = (p: bigint): string => (tx && ty ? binPriceHuman(p, tx.decimals, ty.decimals) : p.toString());
  const amount = (v: bigint, t: Token | undefined): string =>
    v === 0n ? '0' : t ? formatAmount(v, t, false) : v.toString();
  const rows: string[] = [];
  let shown = items;
  if (items.length > DISTRIBUTION_ROWS) {
    // Keep the rows nearest the active bin.
    shown = [...items]
      .sort((a, b) => Math.abs(a.bin_id - active) - Math.abs(b.bin_id - active))
      .slice(0, DISTRIBUTION_ROWS)
      .sort((a, b) => a.bin_id - b.bin_id);
  }
  for (const it of shown) {
    const b = itemBounds(prepared, it, it.bin_shares_known, ppm);
    const shares = b.revert ? `⚠ ${b.revert.split(':')[0]}` : (b.expectedDlp?.toString() ?? 'unknown');
    const mark = it.bin_id === active ? ' (active)' : '';
    rows.push(
      `| ${it.bin_id}${mark} | ${price(it.bin_price)} | ${amount(it.x_amount, tx)} | ${amount(it.y_amount, ty)} | ${shares} |`,
    );
  }
  const sumX = items.reduce((s, i) => s + i.x_amount, 0n);
  const sumY = items.reduce((s, i) => s + i.y_amount, 0n);
  const head = [
    `**Distribution** bins ${d.lo}..${d.hi} · ${items.length} bins with liquidity${d.dropped.length ? `, ${d.dropped.length} rounded to nothing (dropped)` : ''}`,
    `total ${formatAmount(sumX, tx)} + ${formatAmount(sumY, ty)} · active bin ${active}`,
  ];
  const priceHead = tx && ty ? `price (${ty.symbol}/${tx.symbol})` : 'price (raw)';
  const table = [
    `| bin | ${priceHead} | x${tx ? ` (${tx.symbol})` : ''} | y${ty ? ` (${ty.symbol})` : ''} | expected shares |`,
    '|---:|---:|---:|---:|---:|',
    ...rows,
  ];
  const more =
    shown.length < items.length
      ? `\n\n${items.length - shown.length} more bins farther from the active bin are not shown.`
      : '';
  return `${head.join('\n\n')}\n\n${table.join('\n')}${more}`;
}

/** What hover reads of an executed transaction (the editor keeps no arguments: planService.ts). */
type ExecutedTx = Pick<
  ExecutedTransaction,
  'opIndex' | 'part' | 'parts' | 'functionName' | 'execution' | 'effects' | 'itemIndexes' | 'blockCost'
>;

/** Executed list elements shown in one hover. */
const EXECUTION_ROWS = 20;

/**
 * The check's execution of an operation's transactions on the state read: per list element the shares
 * minted or burned and the tokens in and out, and the sender's totals; or the revert / why it could not run.
 * `item`: the hover is on one plan item (only its rows, no totals).
 */
function executionSection(
  txs: readonly ExecutedTx[] | undefined,
  index: number,
  item: boolean,
  select: (row: TxEffects['rows'][number], tx: ExecutedTx) => boolean,
): string {
  const mine = (txs ?? []).filter((t) => t.opIndex === index);
  if (mine.length === 0) return '';
  const lines: string[] = [];
  for (const tx of mine) {
    const part = tx.parts > 1 ? ` (transaction ${tx.part} of ${tx.parts})` : '';
    // Its share of a block's execution budget (core/tx/cost.ts), on the operation's hover.
    if (!item && tx.blockCost) lines.push(`\`${tx.functionName}\`${part} ${blockCostDetail(tx.blockCost)}`);
    const r = tx.execution;
    if (!r) continue;
    if (r.status === 'reverted') {
      lines.push(`\`${tx.functionName}\`${part} reverts: ${revertWords(r)}`);
      continue;
    }
    if (r.status === 'unknown') {
      lines.push(`\`${tx.functionName}\`${part} not executed (so unknown): ${r.detail}`);
      continue;
    }
    const rows = tx.effects?.rows.filter((row) => select(row, tx)) ?? [];
    // A hover is not a report: the first rows, then how many more (the export summary lists them all).
    for (const row of rows.slice(0, EXECUTION_ROWS))
      lines.push(`${row.label}: ${row.amounts.map((a) => `${a.label} ${amountText(a)}`).join(', ')}`);
    if (rows.length > EXECUTION_ROWS)
      lines.push(
        `… and ${rows.length - EXECUTION_ROWS} more list elements (the export summary lists every one)`,
      );
    if (!item && tx.effects) {
      const list = (as: Amount[]) => (as.length === 0 ? 'nothing' : as.map(amountText).join(', '));
      lines.push(`you send: ${list(tx.effects.sent)} · you receive: ${list(tx.effects.received)}${part}`);
      const held = tx.effects.balances ?? [];
      if (held.length > 0)
        lines.push(
          `your balance: ${held
            .map((b) => {
              const at = (amount: bigint) =>
                amountText({ label: '', amount, ...(b.token ? { token: b.token } : {}) });
              return b.exact
                ? `${at(b.before)} → ${at(b.after)}`
                : `${b.token?.symbol ?? b.key} not read (at least ${at(b.before)} → ${at(b.after)} from this plan)`;
            })
            .join(' · ')}`,
        );
    }
  }
  if (lines.length === 0) return '';
  return [
    '**Executed on the state read** (what it does if nothing changes before it is mined)',
    ...lines,
  ].join('\n\n');
}
