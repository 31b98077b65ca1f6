/**
 * The Clarity side of node bin reads: the `uint` argument of a bin id (unsigned on the wire) and the
 * decoding of `get-bin-balances` answers. Kept apart from live.ts so an offline analysis never loads the
 * Clarity library.
 */
import { Cl, serializeCV } from '@stacks/transactions';
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
 * The pool's own answer, `(ok {bin-shares: uint, x-balance: uint, y-balance: uint})` (the contract's
 * `get-bin-balances` type), matched whole: the text must be exactly that value's serialization, with or
 * without `0x`/`0X`, in either case (Clarity writes a tuple's fields in name order, each uint in 16 bytes).
 * Anything else — another type, another field, a byte missing or more, a digit that is not hex — is no
 * answer: never decoded leniently into one. Matching is also the fast path: the library's decoder, cold in a
 * new process, cost ~30 ms over a 350-bin export's answers, ~2 ms matched.
 */
const POOL_ANSWER = new RegExp(
  `^(?:0x)?070c00000003${nameHex('bin-shares')}01([0-9a-f]{32})` +
    `${nameHex('x-balance')}01([0-9a-f]{32})${nameHex('y-balance')}01([0-9a-f]{32})$`,
  'i',
);
/** `(ok uint)` (a SIP-010 `get-balance`), matched whole: the uint is its last 16 bytes. */
const OK_UINT = /^(?:0x)?0701([0-9a-f]{32})$/i;

const decodedShares = kept(MAX_DECODED, (hex: string): bigint | undefined => {
  const pool = POOL_ANSWER.exec(hex);
  return pool ? BigInt(`0x${pool[1] as string}`) : undefined;
});

/**
 * `(ok {bin-shares: uint, x-balance: uint, y-balance: uint})` hex -> bin-shares; undefined for any other
 * text (the caller reports it as an unexpected response, never as shares).
 */
export function decodeBinShares(hex: string | undefined): bigint | undefined {
  return hex ? decodedShares(hex) : undefined;
}

/**
 * `(ok {bin-shares: uint, x-balance: uint, y-balance: uint})` hex -> the three uints, matched whole like
 * decodeBinShares; undefined for any other text.
 */
export function decodeBinBalances(
  hex: string | undefined,
): { shares: bigint; reserve_x: bigint; reserve_y: bigint } | undefined {
  const pool = hex ? POOL_ANSWER.exec(hex) : null;
  if (!pool) return undefined;
  const [, shares, x, y] = pool as unknown as [string, string, string, string];
  return { shares: BigInt(`0x${shares}`), reserve_x: BigInt(`0x${x}`), reserve_y: BigInt(`0x${y}`) };
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
  return ok ? BigInt(`0x${ok[1] as string}`) : undefined;
});

/**
 * `(ok uint)` hex -> the uint (a SIP-010 `get-balance` answer), only when the text is exactly that value's
 * serialization; undefined for any other text — truncated, with bytes after it, a digit that is not hex,
 * another type (the caller reports that as an unexpected response, never as a balance).
 */
export function decodeOkUint(hex: string | undefined): bigint | undefined {
  return hex ? decodedUints(hex) : undefined;
}
