/**
 * Fast Clarity value serialization (SIP-005 wire format) for the shapes the routers take: int, uint, bool,
 * principals, optional, list and tuple. Why not only `cvToHex`: stacks.js re-decodes every c32 principal
 * (checksum included) and a 350-position list repeats the same three principals 1050 times, which
 * dominated export time. Principals are decoded once here; any other type falls back to `cvToHex`. Tests
 * compare this output with `cvToHex` for every transaction they build.
 */
import { createAddress, cvToHex, type ClarityValue } from '@stacks/transactions';

const principalCache = new Map<string, string>();

function hex8(n: number): string {
  return n.toString(16).padStart(2, '0');
}

function u32(n: number): string {
  return n.toString(16).padStart(8, '0');
}

function int128(v: bigint, signed: boolean): string {
  const n = signed && v < 0n ? (1n << 128n) + v : v;
  return n.toString(16).padStart(32, '0');
}

function asciiHex(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += hex8(s.charCodeAt(i));
  return out;
}

/** version byte + hash160 of a c32 address, decoded once. */
function addressHex(c32: string): string {
  let h = principalCache.get(c32);
  if (h === undefined) {
    const a = createAddress(c32);
    h = hex8(a.version) + a.hash160;
    principalCache.set(c32, h);
  }
  return h;
}

/** Serialized hex (no 0x) of a Clarity value. */
export function clarityHex(cv: ClarityValue): string {
  switch (cv.type) {
    case 'int':
      return '00' + int128(BigInt(cv.value), true);
    case 'uint':
      return '01' + int128(BigInt(cv.value), false);
    case 'true':
      return '03';
    case 'false':
      return '04';
    case 'address':
      return '05' + addressHex(cv.value);
    case 'contract': {
      const dot = cv.value.indexOf('.');
      const name = cv.value.slice(dot + 1);
      if (!/^[\x20-\x7e]*$/.test(name)) return cvToHex(cv).slice(2);
      return '06' + addressHex(cv.value.slice(0, dot)) + hex8(name.length) + asciiHex(name);
    }
    case 'none':
      return '09';
    case 'some':
      return '0a' + clarityHex(cv.value);
    case 'list':
      return '0b' + u32(cv.value.length) + cv.value.map(clarityHex).join('');
    case 'tuple': {
      const keys = Object.keys(cv.value).sort();
      let out = '0c' + u32(keys.length);
      for (const k of keys) out += hex8(k.length) + asciiHex(k) + clarityHex(cv.value[k]!);
      return out;
    }
    default:
      return cvToHex(cv).slice(2);
  }
}
