/** Document symbols: one per operation (with its items), ranges from the parser's nodes. */
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { EditorAnalysis } from '../planService';
import { rangeOf } from './diagnostics';
import { contractName } from '../../../protocol/format';

type Raw = Record<string, unknown>;

/** The plan's operations as an outline. */
export function documentSymbols(doc: TextDocument, a: EditorAnalysis): DocumentSymbol[] {
  const ops = (a.parsed.value as { operations?: unknown } | undefined)?.operations;
  if (!Array.isArray(ops)) return [];
  const out: DocumentSymbol[] = [];
  ops.forEach((raw, index) => {
    const r = a.parsed.rangeOf(['operations', index]);
    if (!r || typeof raw !== 'object' || raw === null) return;
    const op = raw as Raw;
    const range = rangeOf(doc, r.offset, r.length);
    const sel = a.parsed.rangeOf(['operations', index, 'op']) ?? r;
    const kind = typeof op.op === 'string' ? op.op : 'operation';
    const detail = kind === 'swap' ? `${tail(op.input_token)} → ${tail(op.output_token)}` : tail(op.pool);
    const children: DocumentSymbol[] = [];
    const list = kind === 'move' ? op.moves : op.bins;
    if (Array.isArray(list)) {
      list.forEach((it, j) => {
        const ir = a.parsed.rangeOf(['operations', index, kind === 'move' ? 'moves' : 'bins', j]);
        if (!ir) return;
        const irange = rangeOf(doc, ir.offset, ir.length);
        children.push({
          name: itemName(kind, it),
          kind: SymbolKind.Field,
          range: irange,
          selectionRange: irange,
        });
      });
    }
    out.push({
      name: `${kind} ${a.parsed.operationId(index)}`,
      detail,
      kind: SymbolKind.Event,
      range,
      selectionRange: rangeOf(doc, sel.offset, sel.length),
      children,
    });
  });
  return out;
}

function tail(v: unknown): string {
  return typeof v === 'string' ? contractName(v) : '';
}

function itemName(kind: string, it: unknown): string {
  if (typeof it !== 'object' || it === null) return `bin ${String(it)}`;
  const o = it as Raw;
  if (kind === 'move')
    return `${String(o.from_bin_id)} → ${String(o.to_bin_id ?? `active${signed(o.active_bin_offset)}`)}`;
  return o.bin_id !== undefined ? `bin ${String(o.bin_id)}` : `active${signed(o.active_bin_offset)}`;
}

function signed(v: unknown): string {
  const n = typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : 0;
  return n >= 0 ? `+${n}` : String(n);
}
