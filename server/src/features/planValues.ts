/**
 * The plan's values as the parser read them, schema or not: a half-typed plan still gets hovers, hints and
 * completions, so the features read the raw tree and take a value only when it has the type they need.
 */

/** An object value (not an array), or undefined. */
export function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** An integer (a bin id, an offset) as a number, or undefined. */
export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  return undefined;
}

/** An amount in base units (an integer, or a string of digits) as a bigint, or undefined. */
export function toBig(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  return undefined;
}
