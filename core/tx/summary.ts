/**
 * The `summary` export: what a person checks before signing. Per transaction: contract, function, mode,
 * its share of a block's execution budget (cost.ts), one row per position with human amounts (token
 * decimals), every post-condition in words, totals, and each bound with its slippage basis.
 */
import { revertWords } from '../chain/router';
import { formatUnits } from '../dlmm/bins';
import { blockCostDetail } from './cost';
import type { Amount, Bound, BuiltTransaction } from './types';

/** "0.0015 sBTC (150000)" or "1234 shares". */
export function amountText(a: Amount): string {
  return a.token
    ? `${formatUnits(a.amount, a.token.decimals)} ${a.token.symbol} (${a.amount})`
    : `${a.amount}`;
}

function boundText(b: Bound): string {
  return `${b.label} ${amountText(b)} — ${b.basis}`;
}

/** Plain-text summary of every transaction, in signing order. */
export function summaryText(txs: BuiltTransaction[]): string {
  const out: string[] = [];
  out.push(
    `${txs.length} unsigned transaction(s) to sign in your wallet (nothing is broadcast by this tool)`,
  );
  txs.forEach((tx, i) => {
    out.push('');
    const part = tx.parts > 1 ? `, part ${tx.part}/${tx.parts}` : '';
    out.push(
      `#${i + 1} operation ${tx.opId} (${tx.op}${tx.mode === 'swap' ? '' : `, ${tx.mode}`}${part})${tx.nonce !== undefined ? ` nonce ${tx.nonce}` : ''}`,
    );
    out.push(`  contract:  ${tx.contract}`);
    out.push(`  function:  ${tx.functionName}`);
    out.push(
      `  mode:      post-condition mode ${tx.postConditionMode}${tx.postConditionMode === 'deny' ? ' (any asset movement not listed below reverts the transaction)' : ' (movements not listed below are allowed)'}`,
    );
    out.push(`  deadline:  ${tx.deadline === null ? 'none' : `${tx.deadline} (unix seconds)`}`);
    out.push(
      `  cost:      ${tx.blockCost ? blockCostDetail(tx.blockCost) : 'unknown (the call is not in the cost table, or its walk was not computed on the state read)'}`,
    );
    out.push(`  positions (${tx.rows.length}):`);
    for (const r of tx.rows) {
      out.push(`    ${r.label}: ${r.amounts.map((a) => `${a.label} ${amountText(a)}`).join(', ')}`);
      for (const b of r.bounds) out.push(`      bound ${boundText(b)}`);
    }
    out.push(`  post-conditions (${tx.postConditions.length}):`);
    if (tx.postConditionWords.length === 0) out.push('    none');
    for (const w of tx.postConditionWords) out.push(`    - ${w}`);
    out.push(`  totals: ${tx.totals.map((a) => `${a.label} ${amountText(a)}`).join('; ')}`);
    out.push(...executionLines(tx));
    for (const n of tx.notes) out.push(`  note: ${n}`);
  });
  return out.join('\n') + '\n';
}

const amountsText = (as: Amount[]): string => as.map((a) => `${a.label} ${amountText(a)}`).join(', ');

/** What the transaction does when executed on the state read (after the ones before it). */
function executionLines(tx: BuiltTransaction, indent = '  '): string[] {
  const r = tx.execution;
  if (!r) return [];
  if (r.status === 'unknown')
    return [`${indent}executed on the state read: not executed, so what it does is unknown: ${r.detail}`];
  if (r.status === 'reverted') return [`${indent}executed on the state read: reverts with ${revertWords(r)}`];
  const e = tx.effects;
  if (!e) return [];
  const out = [`${indent}executed on the state read (what it does if nothing changes before it is mined):`];
  for (const row of e.rows) out.push(`${indent}  ${row.label}: ${amountsText(row.amounts)}`);
  out.push(
    `${indent}  you send: ${e.sent.length === 0 ? 'nothing' : e.sent.map(amountText).join(', ')}; you receive: ${e.received.length === 0 ? 'nothing' : e.received.map(amountText).join(', ')}`,
  );
  return out;
}
