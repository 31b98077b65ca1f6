/**
 * The Clarity side of node bin reads: the `uint` argument of a bin id (unsigned on the wire) and the
 * decoding of `get-bin-balances` answers. Kept apart from live.ts so an offline analysis never loads the
 * Clarity library.
 */
import { Cl, deserializeCV, serializeCV } from '@stacks/transactions';
import { toUnsignedBinId } from '../dlmm/bins';
import { clarityHex } from '../chain/clarityHex';

/**
 * `f`, a pure function of its argument, with its answers kept by argument (at most `max`: all are dropped
 * when full). An argument `f` throws for is not kept: it throws each time.
 */
function kept<K, V>(max: number, f: (k: K) => V): (k: K) => V {
  const answers = new Map<K, V>();
  return (k) => {
    if (answers.has(k)) return answers.get(k) as V;
    const v = f(k);
    if (answers.size >= max) answers.clear();
    answers.set(k, v);
    return v;
  };
}

/**
 * The serialized `uint` argument of a signed bin id (unsigned on the wire), computed once per id, by the
 * exporter's writer (the library's serializeCV, cold in a new process, cost ~5 ms over a 350-bin export).
 */
export const binIdArg = kept(1001, (signedBinId: number) =>
  clarityHex(Cl.uint(toUnsignedBinId(signedBinId))),
);

/**
 * Decoded answers are kept by their hex text (decoding is a pure function of it): the editor analyses many
 * plans over the same bins at the same height, and each analysis would otherwise decode the same answers
 * again.
 */
const MAX_DECODED = 4096;

/** A tuple field's name on the wire, as hex: its length byte, then its bytes. */
const nameHex = (name: string) => Buffer.from([name.length, ...Buffer.from(name, 'latin1')]).toString('hex');
/**
 * The pool's own answer, `(ok {bin-shares: uint, x-balance: uint, y-balance: uint})`, as the node writes it
 * (lower-case hex, the fields in Clarity's order), matched whole: its shares are the 16 bytes after
 * `bin-shares`, as deserializeCV reads them. Any other text goes to deserializeCV. In a new process (every
 * `dlmm` command) the library's decoder is not compiled yet: a 350-bin export's answers cost ~30 ms through it,
 * ~2 ms matched.
 */
const POOL_ANSWER = new RegExp(
  `^(?:0x)?070c00000003${nameHex('bin-shares')}01([0-9a-f]{32})` +
    `${nameHex('x-balance')}01[0-9a-f]{32}${nameHex('y-balance')}01[0-9a-f]{32}$`,
);
/** `(ok uint)` as the node writes it, matched whole: the uint is its last 16 bytes. */
const OK_UINT = /^(?:0x)?0701([0-9a-f]{32})$/;

/** `(ok {bin-shares: uint, ...})` (or the tuple alone) -> bin-shares through deserializeCV, for any text. */
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

/** `(ok uint)` -> the uint through deserializeCV, for any text. */
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

const decodedShares = kept(MAX_DECODED, (hex: string): bigint | undefined => {
  const pool = POOL_ANSWER.exec(hex);
  return pool ? BigInt(`0x${pool[1] as string}`) : libraryShares(hex);
});

/** `(ok {bin-shares: uint, ...})` hex -> bin-shares; undefined when the answer has another shape. */
export function decodeBinShares(hex: string | undefined): bigint | undefined {
  return hex ? decodedShares(hex) : undefined;
}

/**
 * The serialized principal argument of a SIP-010 `get-balance (who principal)` read, kept by principal (a
 * pure function of it): checking the address's c32 checksum twice (encoding, then serializing) cost about
 * as much as the rest of a fresh session's balance reads together, and an editor asks for the same
 * sender's on every live session. A principal that does not encode throws, and is not kept.
 */
export const principalArg = kept(256, (principal: string) => serializeCV(Cl.principal(principal)));

// Pure in its text, like decodeBinShares: each live session reads the same balances again.
const decodedUints = kept(MAX_DECODED, (hex: string): bigint | undefined => {
  const ok = OK_UINT.exec(hex);
  return ok ? BigInt(`0x${ok[1] as string}`) : libraryUint(hex);
});

/**
 * `(ok uint)` hex -> the uint (a SIP-010 `get-balance` answer); undefined for any other shape (the caller
 * reports that as an unexpected response, never as a balance).
 */
export function decodeOkUint(hex: string | undefined): bigint | undefined {
  return hex ? decodedUints(hex) : undefined;
}
