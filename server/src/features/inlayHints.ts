/**
 * Inlay hints: human amounts next to base-unit amounts (token decimals from the live token list) and the
 * other id domain next to bin ids (signed -> unsigned, or unsigned-looking -> signed).
 */
import { InlayHintKind, type InlayHint, type Range } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Token } from '../../../core/api/types';
import {
  BIN_ID_OFFSET,
  formatUnits,
  isSignedBinId,
  isUnsignedBinId,
  toSignedBinId,
} from '../../../core/dlmm/bins';
import type { PlanPath } from '../../../core/plan/parse';
import type { AnalysisResult } from '../planService';
import { asRecord, toBig, toNumber } from './planValues';

/** Hints within `range`. */
export function inlayHints(doc: TextDocument, result: AnalysisResult, range: Range): InlayHint[] {
  const a = result.analysis;
  const ops = (a.parsed.value as { operations?: unknown } | undefined)?.operations;
  if (!Array.isArray(ops)) return [];
  const from = doc.offsetAt(range.start);
  const to = doc.offsetAt(range.end);
  const hints: InlayHint[] = [];
  const at = (path: PlanPath, label: string, tooltip?: string): void => {
    const r = a.parsed.rangeOf(path);
    if (!r || r.offset + r.length < from || r.offset > to) return;
    hints.push({
      position: doc.positionAt(r.offset + r.length),
      label: ` ${label}`,
      kind: InlayHintKind.Type,
      paddingLeft: true,
      ...(tooltip ? { tooltip } : {}),
    });
  };
  const binHint = (path: PlanPath, v: unknown): void => {
    const id = toNumber(v);
    if (id === undefined) return;
    if (isSignedBinId(id))
      at(path, `u${id + BIN_ID_OFFSET}`, `unsigned bin id ${id + BIN_ID_OFFSET} (signed ${id} + 500)`);
    else if (isUnsignedBinId(id))
      at(
        path,
        `= signed ${toSignedBinId(id)}?`,
        `${id} is outside -500..500; as an unsigned id it is signed ${toSignedBinId(id)}`,
      );
  };
  const amountHint = (path: PlanPath, v: unknown, token: Token | undefined): void => {
    const n = toBig(v);
    if (n === undefined || !token || n === 0n) return;
    at(path, `≈ ${formatUnits(n, token.decimals)} ${token.symbol}`);
  };
  const tokens = a.live?.tokens ?? [];
  ops.forEach((raw, i) => {
    const op = asRecord(raw);
    if (!op) return;
    const lp = typeof op.pool === 'string' ? a.live?.byPool.get(op.pool) : undefined;
    const base: PlanPath = ['operations', i];
    if (op.op === 'add' && Array.isArray(op.bins)) {
      op.bins.forEach((it, j) => {
        const item = asRecord(it);
        if (!item) return;
        binHint([...base, 'bins', j, 'bin_id'], item.bin_id);
        amountHint([...base, 'bins', j, 'x_amount'], item.x_amount, lp?.tokenX);
        amountHint([...base, 'bins', j, 'y_amount'], item.y_amount, lp?.tokenY);
      });
    } else if (op.op === 'withdraw' && Array.isArray(op.bins)) {
      op.bins.forEach((id, j) => binHint([...base, 'bins', j], id));
    } else if (op.op === 'move' && Array.isArray(op.moves)) {
      op.moves.forEach((it, j) => {
        const item = asRecord(it);
        if (!item) return;
        binHint([...base, 'moves', j, 'from_bin_id'], item.from_bin_id);
        binHint([...base, 'moves', j, 'to_bin_id'], item.to_bin_id);
      });
    } else if (op.op === 'swap') {
      amountHint(
        [...base, 'amount_in'],
        op.amount_in,
        tokens.find((t) => t.contract_address === op.input_token),
      );
    }
  });
  return hints;
}
