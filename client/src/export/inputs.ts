/**
 * Validation of what the editor export asks for before building tx-hex: the signer's public key (33-byte
 * compressed secp256k1, hex) and the nonce / fee (non-negative integers, parsed exactly as bigint, within
 * the transaction's u64 fields). Messages say what was found and what is expected. Pure: no vscode.
 */
import { getAddressFromPublicKey } from '@stacks/transactions';

/** Largest value of the transaction's u64 nonce and fee fields. */
export const U64_MAX = (1n << 64n) - 1n;

const COMPRESSED_KEY = /^0[23][0-9a-f]{64}$/;

/** Trims, drops an optional 0x and lower-cases: the form stored and passed to core/tx. */
export function normalizePublicKey(text: string): string {
  const t = text.trim();
  return (t.startsWith('0x') || t.startsWith('0X') ? t.slice(2) : t).toLowerCase();
}

/** Why `text` is not a compressed public key, or undefined when it is one. */
export function publicKeyProblem(text: string): string | undefined {
  const key = normalizePublicKey(text);
  if (key === '') return "Enter the public key of the plan's sender (66 hex digits, starting with 02 or 03).";
  if (!/^[0-9a-f]*$/.test(key)) return `'${text.trim()}' is not hex: expected 66 hex digits (0-9, a-f).`;
  if (key.length === 130 && key.startsWith('04'))
    return 'That is an uncompressed key (65 bytes); enter the compressed form (33 bytes, 66 hex digits, 02/03…).';
  if (key.length !== 66)
    return `Expected 66 hex digits (a 33-byte compressed public key), got ${key.length}.`;
  if (!COMPRESSED_KEY.test(key))
    return `A compressed public key starts with 02 or 03, got ${key.slice(0, 2)}.`;
  return undefined;
}

/**
 * Why the key does not sign for `sender`, or undefined when it does (or cannot be checked here: the
 * exporter checks again). Gives immediate feedback in the input box.
 */
export function publicKeySenderProblem(
  text: string,
  sender: string | undefined,
  network: 'mainnet' | 'testnet',
): string | undefined {
  const syntax = publicKeyProblem(text);
  if (syntax) return syntax;
  if (!sender) return undefined;
  let address: string;
  try {
    address = getAddressFromPublicKey(normalizePublicKey(text), network);
  } catch {
    return 'This could not be read as a secp256k1 public key; enter the 66 hex digits your wallet shows.';
  }
  return address === sender
    ? undefined
    : `This key belongs to ${address}, but the plan's sender is ${sender}; enter the sender's public key.`;
}

/** Why `text` is not a u64 integer (`what` names the field), or undefined. */
export function unsignedIntegerProblem(text: string, what: string): string | undefined {
  const t = text.trim();
  if (t === '') return `Enter the ${what} (a non-negative integer).`;
  if (!/^\d+$/.test(t)) return `The ${what} must be a non-negative integer in digits, got '${t}'.`;
  if (BigInt(t) > U64_MAX) return `The ${what} must be at most ${U64_MAX}, got ${t}.`;
  return undefined;
}

/** The exact value of a validated integer (throws RangeError on text that fails the check). */
export function parseUnsignedInteger(text: string, what: string): bigint {
  const problem = unsignedIntegerProblem(text, what);
  if (problem) throw new RangeError(problem);
  return BigInt(text.trim());
}
