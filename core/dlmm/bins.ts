/** Bin id domains and price helpers (docs/contracts.md "Bins and prices"). Pure; no I/O. */

export const MIN_BIN_ID = -500;
export const MAX_BIN_ID = 500;
/** Unsigned id = signed id + BIN_ID_OFFSET (single-bin reads, inventory, SIP-013 token ids). */
export const BIN_ID_OFFSET = 500;
export const NUM_BINS = 1001;
export const PRICE_SCALE = 100_000_000n;
export const FEE_SCALE = 10_000n;
export const MAX_UINT128 = (1n << 128n) - 1n;
/** Router list limit: positions per call. */
export const MAX_POSITIONS_PER_CALL = 350;

/** True when `id` is an integer in the signed domain -500..500. */
export function isSignedBinId(id: number): boolean {
  return Number.isInteger(id) && id >= MIN_BIN_ID && id <= MAX_BIN_ID;
}

/** True when `id` is an integer in the unsigned domain 0..1000. */
export function isUnsignedBinId(id: number): boolean {
  return Number.isInteger(id) && id >= 0 && id <= MAX_BIN_ID + BIN_ID_OFFSET;
}

/** The active bins a relative call may run at: `expected ± tolerance`, within the signed domain. */
export interface ActiveWindow {
  expected: number;
  lo: number;
  hi: number;
}

/** The window of `tolerance` bins either side of `expected`, clipped to -500..500. */
export function activeWindow(expected: number, tolerance: number): ActiveWindow {
  return {
    expected,
    lo: Math.max(MIN_BIN_ID, expected - tolerance),
    hi: Math.min(MAX_BIN_ID, expected + tolerance),
  };
}

/**
 * Bins some item of `offsets` may land on over `window` among `candidates` (e.g. the bins whose shares the
 * state lacks): a bin b is one when b - offset is in the window for some offset.
 */
export function windowBinsAmong(
  candidates: Iterable<number>,
  offsets: readonly number[],
  window: ActiveWindow,
): number[] {
  const sorted = [...new Set(offsets)].sort((a, b) => a - b);
  const out: number[] = [];
  for (const b of candidates) {
    // Is there an offset in [b - hi, b - lo]? The first offset >= b - hi, by binary search.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < b - window.hi) lo = mid + 1;
      else hi = mid;
    }
    if (lo < sorted.length && (sorted[lo] as number) <= b - window.lo) out.push(b);
  }
  return out;
}

/** Signed (-500..500) to unsigned (0..1000); throws RangeError outside the domain. */
export function toUnsignedBinId(signed: number): number {
  if (!isSignedBinId(signed))
    throw new RangeError(`signed bin id ${signed} is outside ${MIN_BIN_ID}..${MAX_BIN_ID}`);
  return signed + BIN_ID_OFFSET;
}

/** Unsigned (0..1000) to signed (-500..500); throws RangeError outside the domain. */
export function toSignedBinId(unsigned: number): number {
  if (!isUnsignedBinId(unsigned)) throw new RangeError(`unsigned bin id ${unsigned} is outside 0..1000`);
  return unsigned - BIN_ID_OFFSET;
}

/** Formats `num / den` as a decimal string with at most `maxFraction` digits, rounded toward zero. */
export function formatRatio(num: bigint, den: bigint, maxFraction = 8): string {
  if (den === 0n) throw new RangeError('division by zero');
  const negative = num < 0n !== den < 0n && num !== 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const whole = n / d;
  let rem = n % d;
  let frac = '';
  for (let i = 0; i < maxFraction && rem !== 0n; i++) {
    rem *= 10n;
    frac += (rem / d).toString();
    rem %= d;
  }
  frac = frac.replace(/0+$/, '');
  return (negative ? '-' : '') + whole.toString() + (frac ? '.' + frac : '');
}

/** Base units to a human decimal string (e.g. 150000 sats, 8 decimals -> "0.0015"). Exact. */
export function formatUnits(amount: bigint, decimals: number, maxFraction = decimals): string {
  return formatRatio(amount, 10n ** BigInt(decimals), maxFraction);
}

/**
 * Human decimal string to base units, exactly. Returns undefined when the text is not a plain decimal
 * or has more fraction digits than the token has decimals.
 */
export function parseUnits(human: string, decimals: number): bigint | undefined {
  const m = /^\s*(\d*)(?:\.(\d*))?\s*$/.exec(human);
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
  const whole = m[1] || '0';
  const frac = m[2] ?? '';
  if (frac.length > decimals) {
    if (/[1-9]/.test(frac.slice(decimals))) return undefined;
  }
  const fracPadded = (frac + '0'.repeat(decimals)).slice(0, decimals);
  return BigInt(whole) * 10n ** BigInt(decimals) + (fracPadded ? BigInt(fracPadded) : 0n);
}

/**
 * Human price of a bin: price / 1e8 * 10^(decimalsX - decimalsY), i.e. token Y per token X.
 * Example: 76060388561 with 8/6 decimals -> "76060.388561".
 */
export function binPriceHuman(price: bigint, decimalsX: number, decimalsY: number, maxFraction = 8): string {
  const shift = decimalsX - decimalsY;
  const num = shift >= 0 ? price * 10n ** BigInt(shift) : price;
  const den = shift >= 0 ? PRICE_SCALE : PRICE_SCALE * 10n ** BigInt(-shift);
  return formatRatio(num, den, maxFraction);
}
