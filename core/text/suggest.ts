/**
 * "Did you mean": the one candidate a mistyped word most likely stands for (a plan's keys, finding codes,
 * constant names, token symbols). Case, `-` against `_` and one or two slips of the keyboard are forgiven;
 * a word that is near two candidates alike gets no suggestion, since a wrong guess is worse than none.
 */

/** Edit distance with adjacent transpositions (optimal string alignment), stopping early beyond `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

const normal = (s: string): string => s.toLowerCase().replace(/-/g, '_');

/**
 * The candidate `word` most likely stands for: equal but for case and `-`/`_`, or within an edit distance of
 * 1 (words up to 4 characters), 2 (up to 12) or 3, and nearer than any other candidate; undefined otherwise.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const w = normal(word);
  if (w.length === 0 || w.length > 200) return undefined;
  const max = w.length <= 4 ? 1 : w.length <= 12 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = max + 1;
  let tie = false;
  for (const c of candidates) {
    const d = editDistance(w, normal(c), max);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance && best !== undefined && normal(best) !== normal(c)) tie = true;
  }
  return best !== undefined && bestDistance <= max && !tie ? best : undefined;
}
