/**
 * `strict-drift-risk`, by execution: for every pool a strict add, move or withdraw runs on, the plan's
 * exact transactions (as the export builds them on the state read) are executed again after the pool's
 * active bin moved one bin up and one bin down by a trade (core/check/drift.ts, the same execution as
 * `check`'s and the dashboard's what-if). A strict transaction that executes on the state read but reverts
 * after such a shift gets this finding, on the list element that fails, with the chain's error. Fix: simple
 * mode (offsets from the active bin).
 */
import { revertWords, type Revert } from '../../chain/index';
import type { BuiltTransaction } from '../../tx/types';
import type { Finding, QuickFix, TextEdit } from '../../plan/diagnostics';
import { executeAfterShift, type DriftInput, type DriftShift } from '../drift';
import type { AddOp, MoveOp } from '../../plan/schema';
import { finding, insertSibling, preparedAt, renameKey, replaceScalar, type RuleContext } from './rule';

/** The shifts the rule tries: one bin each way. */
const SHIFTS = [1, -1] as const;

/** Findings for strict operations that a 1-bin shift of their pool's active bin makes revert. */
export function strictDriftFindings(
  ctx: RuleContext,
  input: DriftInput,
  /** Operation ids that already have an error finding (not reported again). */
  redOps: ReadonlySet<string | undefined>,
): Finding[] {
  const txs = input.transactions;
  const strict = (tx: BuiltTransaction) =>
    tx.mode === 'strict' && tx.op !== 'swap' && tx.execution?.status === 'ok' && !redOps.has(tx.opId);
  // Per pool, how many transactions to execute after its shift: up to its last strict one (no later result
  // is read below).
  const pools = new Map<string, number>();
  txs.forEach((tx, i) => {
    if (!strict(tx)) return;
    const op = preparedAt(ctx, tx.opIndex);
    if (op && op.op !== 'swap') pools.set(op.pool.pool_id, i + 1);
  });
  // Per (operation, path): the shifts that revert it.
  const hits = new Map<
    string,
    { tx: BuiltTransaction; path: (string | number)[]; key: boolean; why: string[] }
  >();
  for (const [pool, count] of pools) {
    for (const k of SHIFTS) {
      const run = executeAfterShift(input, pool, k, count);
      if (!run.shift.reached) continue;
      run.results.forEach((r, i) => {
        const tx = txs[i] as BuiltTransaction;
        if (r.status !== 'reverted' || !strict(tx)) return;
        const op = preparedAt(ctx, tx.opIndex);
        if (!op || op.op === 'swap' || op.pool.pool_id !== pool) return;
        const { path, key } = where(ctx, tx, r);
        const id = `${tx.opIndex}|${path.join('.')}`;
        const hit = hits.get(id) ?? { tx, path, key, why: [] };
        hit.why.push(shiftWords(run.shift, tx, r));
        hits.set(id, hit);
      });
    }
  }
  const out: Finding[] = [];
  const fixes = new Map<number, QuickFix | undefined>();
  for (const { tx, path, key, why } of hits.values()) {
    const op = ctx.plan.operations[tx.opIndex];
    let fix: QuickFix | undefined;
    if (op && (op.op === 'add' || op.op === 'move')) {
      if (!fixes.has(tx.opIndex)) {
        const active = ctx.live?.byPool.get(op.pool)?.activeBinId;
        fixes.set(tx.opIndex, active === undefined ? undefined : toSimpleFix(ctx, op, tx.opIndex, active));
      }
      fix = fixes.get(tx.opIndex);
    }
    out.push(
      finding(
        ctx,
        'strict-drift-risk',
        { op: tx.opIndex, path, key, ...(fix ? { fixes: [fix] } : {}) },
        `a 1-bin shift of the active bin before this strict ${tx.op} runs reverts it: ${why.join('; ')}. ${tx.op === 'withdraw' ? 'Withdraw from bins away from the active bin, or accept the risk' : 'Simple mode (offsets from the active bin, within policy.active_bin_tolerance) follows the active bin instead'}`,
      ),
    );
  }
  return out;
}

function shiftWords(shift: DriftShift, tx: BuiltTransaction, r: Revert): string {
  const part = tx.parts > 1 ? ` (transaction ${tx.part} of ${tx.parts})` : '';
  const trade = shift.k > 0 ? `buying X with ${shift.amountIn} Y` : `selling ${shift.amountIn} X`;
  return `${shift.k > 0 ? 'up' : 'down'} ${shift.from} -> ${shift.to} (as ${trade} leaves the pool), ${tx.functionName}${part} reverts with ${revertWords(r)}`;
}

/** The plan text a failing list element comes from (the item's bin, the distribution, or the operation). */
function where(
  ctx: RuleContext,
  tx: BuiltTransaction,
  r: Revert,
): { path: (string | number)[]; key: boolean } {
  const i = tx.opIndex;
  const op = ctx.plan.operations[i];
  const planItem = r.item !== undefined ? tx.itemIndexes?.[r.item] : undefined;
  if (op?.op === 'add') {
    const prepared = preparedAt(ctx, i);
    const item =
      prepared?.op === 'add' && planItem !== undefined
        ? prepared.items.find(
            (it) => it.index === planItem && (op.distribution ? it.from_distribution : !it.from_distribution),
          )
        : undefined;
    if (op.distribution && (item?.from_distribution || planItem === undefined))
      return { path: ['operations', i, 'distribution'], key: true };
    if (planItem !== undefined) {
      const field = op.bins[planItem]?.bin_id !== undefined ? 'bin_id' : 'active_bin_offset';
      return { path: ['operations', i, 'bins', planItem, field], key: false };
    }
  }
  if (op?.op === 'move' && planItem !== undefined) {
    const field = op.moves[planItem]?.to_bin_id !== undefined ? 'to_bin_id' : 'active_bin_offset';
    return { path: ['operations', i, 'moves', planItem, field], key: false };
  }
  return { path: ['operations', i, 'op'], key: false };
}

/** Edits converting one strict op to simple: mode, and every absolute target to an offset from `active`. */
function toSimpleFix(ctx: RuleContext, op: AddOp | MoveOp, i: number, active: number): QuickFix | undefined {
  const modePath = ['operations', i, 'mode'];
  const mode = ctx.parsed.rangeOf(modePath)
    ? replaceScalar(ctx.parsed, modePath, 'simple')
    : insertSibling(ctx.parsed, ['operations', i, 'op'], 'mode', 'simple');
  if (!mode) return undefined;
  const edits: TextEdit[] = [mode];
  const list = op.op === 'add' ? 'bins' : 'moves';
  const field = op.op === 'add' ? 'bin_id' : 'to_bin_id';
  const items: Array<{ bin_id?: number; to_bin_id?: number }> = op.op === 'add' ? op.bins : op.moves;
  for (const [j, item] of items.entries()) {
    const target = op.op === 'add' ? item.bin_id : item.to_bin_id;
    if (target === undefined) continue;
    const path = ['operations', i, list, j, field];
    const k = renameKey(ctx.parsed, path, 'active_bin_offset');
    const v = replaceScalar(ctx.parsed, path, target - active);
    if (!k || !v) return undefined;
    edits.push(k, v);
  }
  return { title: `Convert this ${op.op} to simple mode (offsets from the active bin ${active})`, edits };
}
