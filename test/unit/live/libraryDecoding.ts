/**
 * The decoding of node answers before the codec's own wire reader (core/live/binShareCodec.ts), as it was:
 * @stacks/transactions' deserializeCV, then the shape. Kept for tests and benches only, as the oracle the
 * reader is compared with (test/unit/live/binShareCodec.test.ts) and its peer (test/bench/nodeAnswers.bench.ts).
 */
import { deserializeCV } from '@stacks/transactions';

/** `(ok {bin-shares: uint, ...})` (or the tuple alone) -> bin-shares, through deserializeCV. */
export function libraryShares(hex: string): bigint | undefined {
  try {
    const cv = deserializeCV(hex.startsWith('0x') ? hex.slice(2) : hex) as unknown as {
      type: string;
      value: unknown;
    };
    const inner = (cv.type === 'ok' ? cv.value : cv) as {
      type: string;
      value: Record<string, { type: string; value: unknown }>;
    };
    const shares = inner.type === 'tuple' ? inner.value['bin-shares'] : undefined;
    return shares && shares.type === 'uint' ? BigInt(shares.value as string | bigint) : undefined;
  } catch {
    return undefined;
  }
}

/** `(ok uint)` -> the uint, through deserializeCV. */
export function libraryUint(hex: string): bigint | undefined {
  try {
    const cv = deserializeCV(hex.startsWith('0x') ? hex.slice(2) : hex) as unknown as {
      type: string;
      value: { type: string; value: unknown };
    };
    if (cv.type !== 'ok' || cv.value.type !== 'uint') return undefined;
    return BigInt(cv.value.value as string | bigint);
  } catch {
    return undefined;
  }
}
