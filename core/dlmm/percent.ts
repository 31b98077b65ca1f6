/**
 * Percentages (slippage, withdrawal) as exact integers: parts per million of the whole, so 1% = 10_000 ppm
 * and 100% = 1_000_000 ppm. The decimal text of the value is parsed; no float arithmetic touches an amount.
 */

export const PPM_SCALE = 1_000_000n;

/** Percent (number, bigint or decimal string, up to 4 fraction digits) to ppm; undefined if not exact. */
export function percentToPpm(value: number | bigint | string): bigint | undefined {
  if (typeof value === 'bigint') return value < 0n ? undefined : value * 10_000n;
  const text = typeof value === 'number' ? numberToPlainDecimal(value) : value.trim();
  if (text === undefined) return undefined;
  const m = /^(\d+)(?:\.(\d{1,4}))?$/.exec(text);
  if (!m) return undefined;
  const frac = ((m[2] ?? '') + '0000').slice(0, 4);
  return BigInt(m[1] as string) * 10_000n + BigInt(frac);
}

/** Shortest plain decimal text of a finite non-negative number ("1e-7" becomes "0.0000001"). */
function numberToPlainDecimal(n: number): string | undefined {
  if (!Number.isFinite(n) || n < 0) return undefined;
  const s = String(n);
  if (!/e/i.test(s)) return s;
  const [mant, expText] = s.toLowerCase().split('e') as [string, string];
  const exp = Number(expText);
  const [intPart, fracPart = ''] = mant.split('.') as [string, string?];
  const digits = intPart + fracPart;
  const point = intPart.length + exp;
  if (point <= 0) return '0.' + '0'.repeat(-point) + digits;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return digits.slice(0, point) + '.' + digits.slice(point);
}

/** floor(amount * ppm / 1e6): the share of `amount` a percentage selects. */
export function applyPpm(amount: bigint, ppm: bigint): bigint {
  return (amount * ppm) / PPM_SCALE;
}

/** floor(amount * (1e6 - ppm) / 1e6): the lower bound of `amount` after a slippage tolerance. */
export function minAfterSlippage(amount: bigint, slippagePpm: bigint): bigint {
  const keep = slippagePpm >= PPM_SCALE ? 0n : PPM_SCALE - slippagePpm;
  return (amount * keep) / PPM_SCALE;
}

/** ceil(amount * (1e6 + ppm) / 1e6): the upper bound of `amount` after a slippage tolerance. */
export function maxAfterSlippage(amount: bigint, slippagePpm: bigint): bigint {
  return (amount * (PPM_SCALE + slippagePpm) + PPM_SCALE - 1n) / PPM_SCALE;
}
