/**
 * "Expand into bins": the text edit that replaces an add operation's `distribution` with the explicit items
 * it expanded to at the last analysis (simple: active_bin_offset, strict: bin_id). Edits are computed in core
 * (faces only map them); the layout follows the file: block YAML, flow YAML or JSON.
 */
import type { QuickFix, TextEdit } from '../plan/diagnostics';
import type { ParsedPlan } from '../plan/parse';
import type { PreparedOperation } from './prepared';

/** One explicit add item as flow-map text. */
function itemText(
  mode: 'strict' | 'simple',
  it: { bin_id: number; active_bin_offset?: number; x_amount: bigint; y_amount: bigint },
  json: boolean,
): string {
  const id = mode === 'strict' ? it.bin_id : (it.active_bin_offset ?? 0);
  const k = (s: string): string => (json ? JSON.stringify(s) : s);
  const field = mode === 'strict' ? 'bin_id' : 'active_bin_offset';
  return `{ ${k(field)}: ${id}, ${k('x_amount')}: ${it.x_amount}, ${k('y_amount')}: ${it.y_amount} }`;
}

/** The fix replacing operation `opIndex`'s distribution by its expanded items; undefined when it cannot. */
export function expandIntoBinsFix(
  parsed: ParsedPlan,
  prepared: PreparedOperation | undefined,
): QuickFix | undefined {
  if (prepared?.op !== 'add' || !prepared.distribution?.ok) return undefined;
  const i = prepared.index;
  const items = prepared.items.filter((it) => it.from_distribution);
  if (items.length === 0) return undefined;
  const keyR = parsed.keyRangeOf(['operations', i, 'distribution']);
  const valR = parsed.rangeOf(['operations', i, 'distribution']);
  if (!keyR || !valR) return undefined;
  const text = parsed.text;
  const json = parsed.format === 'json';
  const lines = items.map((it) => itemText(prepared.mode, it, json));
  const title = `Expand into bins (${items.length} items at the active bin ${prepared.pool.active_bin_id})`;
  const hasBins = parsed.rangeOf(['operations', i, 'bins']) !== undefined;
  const keyStart = keyR.offset;
  const valueEnd = valR.offset + valR.length;

  if (hasBins) {
    // Append to the explicit list (block lists only), then remove the distribution pair.
    const binsR = parsed.rangeOf(['operations', i, 'bins']) as { offset: number; length: number };
    const last = parsed.rangeOf([
      'operations',
      i,
      'bins',
      prepared.items.filter((x) => !x.from_distribution).length - 1,
    ]);
    if (json || parsed.isFlowMap(['operations', i]) || !last || text[binsR.offset] === '[') return undefined;
    const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
    const dash = /^(\s*-\s*)/.exec(text.slice(lineStart, last.offset))?.[1];
    if (dash === undefined) return undefined;
    const insert: TextEdit = {
      offset: last.offset + last.length,
      length: 0,
      newText: lines.map((l) => `\n${dash}${l}`).join(''),
    };
    return { title, edits: [insert, removePair(text, keyStart, valueEnd)] };
  }

  if (json || parsed.isFlowMap(['operations', i])) {
    const key = json ? '"bins"' : 'bins';
    return {
      title,
      edits: [{ offset: keyStart, length: valueEnd - keyStart, newText: `${key}: [${lines.join(', ')}]` }],
    };
  }
  const lineStart = text.lastIndexOf('\n', keyStart - 1) + 1;
  const column = keyStart - lineStart;
  const pad = ' '.repeat(column + 2);
  return {
    title,
    edits: [
      {
        offset: keyStart,
        length: valueEnd - keyStart,
        newText: `bins:${lines.map((l) => `\n${pad}- ${l}`).join('')}`,
      },
    ],
  };
}

/** Deletes a block-style `key: value` pair with its line(s). */
function removePair(text: string, keyStart: number, valueEnd: number): TextEdit {
  const lineStart = text.lastIndexOf('\n', keyStart - 1) + 1;
  const eol = text.indexOf('\n', valueEnd);
  const end = eol < 0 ? text.length : eol + 1;
  return { offset: lineStart, length: end - lineStart, newText: '' };
}
