/**
 * The Clarity side of node bin reads: the `uint` argument of a bin id (unsigned on the wire) and the
 * decoding of `get-bin-balances` answers. Kept apart from live.ts so an offline analysis never loads the
 * Clarity library.
 */
import { Cl, deserializeCV, serializeCV } from '@stacks/transactions';
import { toUnsignedBinId } from '../dlmm/bins';

/** The serialized `uint` argument of a signed bin id (unsigned on the wire), computed once per id. */
const binIdArgs = new Map<number, string>();
export function binIdArg(signedBinId: number): string {
  let arg = binIdArgs.get(signedBinId);
  if (arg === undefined) {
    arg = serializeCV(Cl.uint(toUnsignedBinId(signedBinId)));
    binIdArgs.set(signedBinId, arg);
  }
  return arg;
}

/**
 * Decoded answers by their hex text (decoding is a pure function of it): the editor analyses many plans
 * over the same bins at the same height, and each analysis would otherwise decode the same answers again.
 */
const decoded = new Map<string, bigint | undefined>();
const MAX_DECODED = 4096;

/** `(ok {bin-shares: uint, ...})` hex -> bin-shares; undefined when the answer has another shape. */
export function decodeBinShares(hex: string | undefined): bigint | undefined {
  if (!hex) return undefined;
  if (decoded.has(hex)) return decoded.get(hex);
  const value = decodeBinSharesOnce(hex);
  if (decoded.size >= MAX_DECODED) decoded.clear();
  decoded.set(hex, value);
  return value;
}

function decodeBinSharesOnce(hex: string): bigint | undefined {
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

/**
 * Serialized principal arguments by principal (a pure function of it): checking the address's c32
 * checksum twice (encoding, then serializing) cost about as much as the rest of a fresh session's balance
 * reads together, and an editor asks for the same sender's on every live session.
 */
const principalArgs = new Map<string, string>();
const MAX_PRINCIPAL_ARGS = 256;

/** The serialized principal argument of a SIP-010 `get-balance (who principal)` read. */
export function principalArg(principal: string): string {
  let arg = principalArgs.get(principal);
  if (arg === undefined) {
    // A principal that does not encode throws here, as before, and is not kept.
    arg = serializeCV(Cl.principal(principal));
    if (principalArgs.size >= MAX_PRINCIPAL_ARGS) principalArgs.clear();
    principalArgs.set(principal, arg);
  }
  return arg;
}

/**
 * `(ok uint)` hex -> the uint (a SIP-010 `get-balance` answer); undefined for any other shape (the caller
 * reports that as an unexpected response, never as a balance).
 */
export function decodeOkUint(hex: string | undefined): bigint | undefined {
  if (!hex) return undefined;
  // Pure in its text, like decodeBinShares: each live session reads the same balances again.
  if (decodedUints.has(hex)) return decodedUints.get(hex);
  const value = decodeOkUintOnce(hex);
  if (decodedUints.size >= MAX_DECODED) decodedUints.clear();
  decodedUints.set(hex, value);
  return value;
}

const decodedUints = new Map<string, bigint | undefined>();

function decodeOkUintOnce(hex: string): bigint | undefined {
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
