/**
 * No flicker while typing: when a changed document's offline analysis is shown before its live analysis
 * arrives, the live findings of the last live analysis are kept for every operation whose text did not
 * change (moved to where that operation now is), and for file-level live findings while the text before
 * the first operation is unchanged. The new live analysis replaces all of them when it arrives.
 */
import type { Analysis } from '../../core/check/analyze';
import type { Finding } from '../../core/plan/diagnostics';

/**
 * What is kept of the last live analysis of a document: its text, its live-only findings and where its
 * operations were (the analysis itself is not held: with 200 open plans it would be held twice while edited).
 */
export interface LastLive {
  text: string;
  /** Findings of the live analysis that its offline analysis did not have. */
  liveOnly: Finding[];
  /** Source span [start, end) of each operation of the live analysis's text. */
  spans: Array<[number, number]>;
}

function findingKey(f: Finding): string {
  return `${f.code}|${f.offset}|${f.length}|${f.message}`;
}

export function lastLive(live: Analysis, offline: Analysis): LastLive {
  const offlineKeys = new Set(offline.findings.map(findingKey));
  return {
    text: live.text,
    liveOnly: live.findings.filter((f) => !offlineKeys.has(findingKey(f))),
    spans: operationSpans(live),
  };
}

/** Source span [start, end) of each operation of a parsed document. */
function operationSpans(a: Analysis): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < a.parsed.operationCount; i++) {
    const r = a.parsed.rangeOf(['operations', i]);
    if (r) spans.push([r.offset, r.offset + r.length]);
  }
  return spans;
}

function moved(f: Finding, by: number): Finding {
  if (by === 0) return f;
  const out: Finding = { ...f, offset: f.offset + by };
  if (f.fixes)
    out.fixes = f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, offset: e.offset + by })) }));
  return out;
}

/**
 * The live findings of `last` that still apply to `next`'s text, moved to their place in it. An operation
 * counts as untouched when its exact text appears as an operation of `next` (the first such one not yet
 * taken); file-level findings are kept while the text before the first operation is the same.
 */
export function carriedLiveFindings(last: LastLive | undefined, next: Analysis): Finding[] {
  if (!last || last.text === next.text) return [];
  const liveOnly = last.liveOnly;
  if (liveOnly.length === 0) return [];
  const oldSpans = last.spans;
  const newSpans = operationSpans(next);
  const newTexts = newSpans.map(([s, e]) => next.text.slice(s, e));
  const taken = new Set<number>();
  // Old operation index -> shift to its place in the new text (undefined when it changed).
  const shift = oldSpans.map(([s, e]) => {
    const text = last.text.slice(s, e);
    const j = newTexts.findIndex((t, k) => !taken.has(k) && t === text);
    if (j < 0) return undefined;
    taken.add(j);
    return (newSpans[j] as [number, number])[0] - s;
  });
  const headEnd = (spans: Array<[number, number]>, text: string) => spans[0]?.[0] ?? text.length;
  const sameHead =
    last.text.slice(0, headEnd(oldSpans, last.text)) === next.text.slice(0, headEnd(newSpans, next.text));
  const out: Finding[] = [];
  for (const f of liveOnly) {
    const op = oldSpans.findIndex(([s, e]) => f.offset >= s && f.offset < e);
    if (op < 0) {
      if (sameHead && f.offset + f.length <= headEnd(oldSpans, last.text)) out.push(f);
      continue;
    }
    const by = shift[op];
    if (by !== undefined) out.push(moved(f, by));
  }
  return out;
}
