/**
 * Stacks addresses as the chain reads them (c32check: a version character, then the hash160 and a 4-byte
 * checksum in Crockford base32). A principal that only looks right (a wrong last character) is refused
 * offline with what is wrong, instead of failing later inside a transaction build.
 */
import { c32addressDecode } from 'c32check';

export type StacksNetwork = 'mainnet' | 'testnet';

/** Address versions by their second character: single-sig (P, T) and multi-sig (M, N). */
const VERSIONS: Record<string, { version: number; network: StacksNetwork }> = {
  P: { version: 22, network: 'mainnet' },
  M: { version: 20, network: 'mainnet' },
  T: { version: 26, network: 'testnet' },
  N: { version: 21, network: 'testnet' },
};

/**
 * Answers of addressProblem for the addresses seen lately: a plan's sender and principals recur in every
 * open plan and at every keystroke, and each check decodes the address and hashes it twice (SHA-256).
 */
const checked = new Map<string, string | undefined>();
const CHECKED_KEPT = 256;

/** Why `address` (a standard principal, no contract name) is not a valid Stacks address; undefined when it is. */
export function addressProblem(address: string): string | undefined {
  if (checked.has(address)) return checked.get(address);
  const problem = decodeProblem(address);
  if (checked.size >= CHECKED_KEPT) checked.delete(checked.keys().next().value as string);
  checked.set(address, problem);
  return problem;
}

function decodeProblem(address: string): string | undefined {
  const kind = VERSIONS[address[1] ?? ''];
  if (address[0] !== 'S' || !kind)
    return 'a Stacks address starts with SP or SM (mainnet), ST or SN (testnet)';
  let decoded: [number, string];
  try {
    decoded = c32addressDecode(address);
  } catch (e) {
    return /checksum/i.test(e instanceof Error ? e.message : '')
      ? 'its checksum does not match: a character is wrong or missing; copy the address again from your wallet'
      : 'it is not c32 (Crockford base32: digits and A-Z without I, L, O, U)';
  }
  const [version, hash] = decoded;
  if (version !== kind.version || hash.length !== 40)
    return 'it does not decode to a 20-byte account hash; copy the address again from your wallet';
  return undefined;
}

/** The network a valid address belongs to (its version character). */
export function addressNetwork(address: string): StacksNetwork | undefined {
  return VERSIONS[address[1] ?? '']?.network;
}

/** The address part of a principal (`ADDR` or `ADDR.contract-name`). */
export function principalAddress(principal: string): string {
  const dot = principal.indexOf('.');
  return dot < 0 ? principal : principal.slice(0, dot);
}
