/**
 * Testnet twins of mainnet principals for tests of testnet plans: the same account hash under the testnet
 * version (SP → ST, SM → SN), with its own valid c32check checksum. A testnet plan must name testnet
 * contracts (core/plan/address.ts), so the simulator serves them a world whose principals are these.
 */
import { c32address, c32addressDecode } from 'c32check';

const TESTNET_VERSION: Record<number, number> = { 22: 26, 20: 21 };
const PRINCIPAL = /^S[PM][0-9A-HJKMNP-TV-Z]{20,50}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/;

/** `principal` (ADDR or ADDR.name) with its address moved to testnet; testnet ones are returned as they are. */
export function testnetPrincipal(principal: string): string {
  const dot = principal.indexOf('.');
  const address = dot < 0 ? principal : principal.slice(0, dot);
  const [version, hash] = c32addressDecode(address);
  const to = TESTNET_VERSION[version];
  if (to === undefined) return principal;
  return c32address(to, hash) + (dot < 0 ? '' : principal.slice(dot));
}

/** A deep copy of `value` with every mainnet principal string replaced by its testnet twin. */
export function onTestnet<T>(value: T): T {
  if (typeof value === 'string') return (PRINCIPAL.test(value) ? testnetPrincipal(value) : value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => onTestnet(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[PRINCIPAL.test(k) ? testnetPrincipal(k) : k] = onTestnet(v);
    return out as T;
  }
  return value;
}
