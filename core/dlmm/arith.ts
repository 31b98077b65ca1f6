/** Clarity-faithful u128 integer helpers: floor division, checked range, integer square root. */
import { MAX_UINT128 as MAX_UINT128_BINDING, PRICE_SCALE as PRICE_SCALE_BINDING } from './bins';

// Module-level copies of the constants read on every u128 check (several per add): where the module is
// loaded as CommonJS (tsx, the tests and the bench) every read of an import binding is an accessor call.
const MAX_UINT128 = MAX_UINT128_BINDING;
const PRICE_SCALE = PRICE_SCALE_BINDING;

/** Thrown when an intermediate leaves the u128 range, where Clarity aborts the transaction. */
export class U128RangeError extends RangeError {
  constructor(
    readonly kind: 'RUNTIME_OVERFLOW' | 'RUNTIME_UNDERFLOW',
    what: string,
  ) {
    super(
      `${what} ${kind === 'RUNTIME_OVERFLOW' ? 'exceeds u128' : 'is below zero'}: the contract would abort`,
    );
    this.name = 'U128RangeError';
  }
}

/** Returns `v` when it is a u128, else throws U128RangeError naming `what`. */
export function u128(v: bigint, what: string): bigint {
  if (v > MAX_UINT128) throw new U128RangeError('RUNTIME_OVERFLOW', what);
  if (v < 0n) throw new U128RangeError('RUNTIME_UNDERFLOW', what);
  return v;
}

/** liquidity value of (x, y) at `price`: price * x + y * 1e8 (Y units times 1e8). */
export function liquidityValue(x: bigint, y: bigint, price: bigint): bigint {
  return price * x + y * PRICE_SCALE;
}

/** Same as liquidityValue but every intermediate checked against u128, as Clarity evaluates it. */
export function checkedLiquidityValue(x: bigint, y: bigint, price: bigint, what: string): bigint {
  // The messages are built only when a check fails (this runs several times per add).
  const yScaled = y * PRICE_SCALE;
  if (yScaled > MAX_UINT128 || yScaled < 0n) u128(yScaled, `${what}: y * 1e8`);
  const px = price * x;
  if (px > MAX_UINT128 || px < 0n) u128(px, `${what}: price * x`);
  return u128(px + yScaled, what);
}

/** floor(sqrt(n)) for n >= 0 (Clarity `sqrti`); throws RangeError for negative n. */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError(`isqrt of negative value ${n}`);
  if (n < 2n) return n;
  // Newton's iteration from a power-of-two start above the root; decreases monotonically to the floor.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const next = (x + n / x) >> 1n;
    if (next >= x) return x;
    x = next;
  }
}

/**
 * Bisection over integers: given `ok(lo)` true (or lo the floor) and `ok(hi)` false, with `ok` true up to a
 * point and false beyond it, the last n in [lo, hi) for which it holds.
 */
export function lastTrue(lo: bigint, hi: bigint, ok: (n: bigint) => boolean): bigint {
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
