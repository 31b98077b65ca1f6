/**
 * What the plan generators (`dlmm plan add`) decide about the operation they write, once for every face:
 * its readable id, and whether a strict range looks like offsets from the active bin.
 */

/** How far from 0 a strict range's ends may be and still look like offsets (the generators' usual widths). */
const OFFSET_LIKE = 50;

/** A bin number in an id: `m20` for -20, so an id reads `curve-m20-20`, never `curve--20__20`. */
const idPart = (n: number): string => (n < 0 ? `m${-n}` : String(n));

/** The id of a distribution add over `from..to`: `curve-m20-20`, `spot-100-120`. */
export function distributionOpId(shape: string, from: number, to: number): string {
  return `${shape}-${idPart(from)}-${idPart(to)}`;
}

/**
 * The range a strict `from..to` most likely meant as offsets from `active`, when it looks like offsets:
 * both ends within ±50 of 0 while the active bin lies more than 50 bins outside it (strict ranges are
 * absolute signed bin ids); undefined otherwise.
 */
export function strictRangeAsOffsets(
  from: number,
  to: number,
  active: number,
): { from: number; to: number } | undefined {
  if (Math.abs(from) > OFFSET_LIKE || Math.abs(to) > OFFSET_LIKE) return undefined;
  if (active >= from - OFFSET_LIKE && active <= to + OFFSET_LIKE) return undefined;
  return { from: active + from, to: active + to };
}
