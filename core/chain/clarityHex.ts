/**
 * Fast Clarity value serialization (SIP-005 wire format) for the shapes the routers take: int, uint, bool,
 * principals, optional, list and tuple. Why not only `cvToHex`: stacks.js re-decodes every c32 principal
 * (checksum included) and a 350-position list repeats the same three principals 1050 times, which
 * dominated export time. Principals are decoded once here; any other type falls back to `cvToHex`. Tests
 * compare this output with `cvToHex` for every transaction they build.
 *
 * Post-conditions likewise (`postConditionHex`): stacks.js' `postConditionToHex` decodes the principal and
 * the asset's contract address of every condition (a 350-bin add states 350 position-NFT conditions on the
 * same two principals), and did so twice per export (wallet request and tx-hex). Tests compare the output
 * with `postConditionToHex` for every transaction they build.
 */
import {
  createAddress,
  cvToHex,
  postConditionToHex,
  type ClarityValue,
  type PostCondition,
} from '@stacks/transactions';

const principalCache = new Map<string, string>();
/** Serialized contract principals ('06' + address + name) and tuple keys (length + name), by text. */
const contractCache = new Map<string, string | null>();
const nameCache = new Map<string, string>();
/** Two hex digits per byte value (a lookup instead of toString + padStart in the inner loops). */
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const ZEROS = '0'.repeat(32);
const TWO_128 = 1n << 128n;

function hex8(n: number): string {
  return BYTE_HEX[n & 0xff] as string;
}

/** A u32 as 8 hex digits (big-endian), as SIP-005 counts lists. */
export function u32(n: number): string {
  return n.toString(16).padStart(8, '0');
}

function int128(v: bigint, signed: boolean): string {
  const h = (signed && v < 0n ? TWO_128 + v : v).toString(16);
  return h.length >= 32 ? h : ZEROS.slice(h.length) + h;
}

function asciiHex(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += hex8(s.charCodeAt(i));
  return out;
}

/** Length byte + ASCII of a Clarity name (tuple key, contract name), cached: the same keys repeat per tuple. */
function nameHex(name: string): string {
  let h = nameCache.get(name);
  if (h === undefined) {
    h = hex8(name.length) + asciiHex(name);
    if (nameCache.size < 10_000) nameCache.set(name, h);
  }
  return h;
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

/** '06' + address + name of a contract principal, or null when the name is not printable ASCII. */
function contractHex(id: string): string | null {
  let h = contractCache.get(id);
  if (h === undefined) {
    const dot = id.indexOf('.');
    const name = id.slice(dot + 1);
    h = /^[\x20-\x7e]{1,128}$/.test(name) ? '06' + addressHex(id.slice(0, dot)) + nameHex(name) : null;
    if (contractCache.size < 10_000) contractCache.set(id, h);
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
    case 'contract':
      return contractHex(cv.value) ?? cvToHex(cv).slice(2);
    case 'none':
      return '09';
    case 'some':
      return '0a' + clarityHex(cv.value);
    case 'list': {
      let out = '0b' + u32(cv.value.length);
      for (const item of cv.value) out += clarityHex(item);
      return out;
    }
    case 'tuple': {
      const keys = Object.keys(cv.value).sort();
      let out = '0c' + u32(keys.length);
      for (const k of keys) out += nameHex(k) + clarityHex(cv.value[k]!);
      return out;
    }
    default:
      return cvToHex(cv).slice(2);
  }
}

/** Wire codes of post-condition comparators (SIP-005): fungible 0x01..0x05, non-fungible 0x10..0x12. */
const CONDITION_CODES: Record<string, number> = {
  eq: 0x01,
  gt: 0x02,
  gte: 0x03,
  lt: 0x04,
  lte: 0x05,
  sent: 0x10,
  'not-sent': 0x11,
  'maybe-sent': 0x12,
};
const U64_MAX = (1n << 64n) - 1n;
/**
 * A name stacks.js reads the same way: printable ASCII without the '.' it splits principals on, at most 128
 * characters (longer ones go to stacks.js, which refuses them, instead of a wrong length byte).
 */
const PLAIN_NAME = /^[\x20-\x2d\x2f-\x7e]{1,128}$/;

/** Post-condition principal: '01' origin, '02' + address, '03' + address + name; null when not fast-pathed. */
function pcPrincipalHex(p: string): string | null {
  if (p === 'origin') return '01';
  const dot = p.indexOf('.');
  if (dot < 0) return '02' + addressHex(p);
  const name = p.slice(dot + 1);
  return PLAIN_NAME.test(name) ? '03' + addressHex(p.slice(0, dot)) + nameHex(name) : null;
}

/** Asset info 'ADDR.contract::asset' -> address + contract name + asset name; null when not fast-pathed. */
const assetCache = new Map<string, string | null>();
function assetHex(asset: string): string | null {
  let h = assetCache.get(asset);
  if (h === undefined) {
    const m =
      /^([^.:]+)\.([\x20-\x2d\x2f-\x39\x3b-\x7e]{1,128})::([\x20-\x2d\x2f-\x39\x3b-\x7e]{1,128})$/.exec(
        asset,
      );
    h = m ? addressHex(m[1]!) + nameHex(m[2]!) + nameHex(m[3]!) : null;
    if (assetCache.size < 10_000) assetCache.set(asset, h);
  }
  return h;
}

/** u64 amount as 16 hex digits; null unless a bigint or decimal digits within u64 (stacks.js then decides). */
function amountHex(amount: unknown): string | null {
  const v =
    typeof amount === 'bigint'
      ? amount
      : typeof amount === 'string' && /^\d{1,20}$/.test(amount)
        ? BigInt(amount)
        : undefined;
  if (v === undefined || v < 0n || v > U64_MAX) return null;
  const h = v.toString(16);
  return ZEROS.slice(h.length + 16) + h;
}

/**
 * Serialized hex (no 0x) of a post-condition, exactly what `postConditionToHex` writes: STX, fungible and
 * non-fungible conditions here; anything else (or anything unusual in them) through stacks.js.
 */
export function postConditionHex(pc: PostCondition): string {
  const code = CONDITION_CODES[pc.condition];
  const principal = pcPrincipalHex(pc.address);
  let out: string | null = null;
  if (code !== undefined && principal !== null) {
    switch (pc.type) {
      case 'stx-postcondition': {
        const amount = amountHex(pc.amount);
        if (amount !== null && code < 0x10) out = '00' + principal + hex8(code) + amount;
        break;
      }
      case 'ft-postcondition': {
        const asset = assetHex(pc.asset);
        const amount = amountHex(pc.amount);
        if (asset !== null && amount !== null && code < 0x10)
          out = '01' + principal + asset + hex8(code) + amount;
        break;
      }
      case 'nft-postcondition': {
        const asset = assetHex(pc.asset);
        if (asset !== null && code >= 0x10)
          out = '02' + principal + asset + clarityHex(pc.assetId) + hex8(code);
        break;
      }
    }
  }
  return out ?? strip0x(postConditionToHex(pc));
}

function strip0x(h: string): string {
  return h.startsWith('0x') ? h.slice(2) : h;
}
