/**
 * Post-conditions for the DLMM routers (docs/contracts.md "Assets and protection forms"), built with
 * @stacks/transactions' `Pc` builder, and each one in words for the summary.
 *
 * What moves, per core function (read from dlmm-core-v-1-1 and the pool contract):
 * - add: the sender transfers x and y to the pool; shares are minted (mints need no condition); the pool's
 *   `tag-pool-token-id` burns and re-mints the sender's position NFT when one exists, i.e. in every bin the
 *   sender has ever added to (the interface's has_ever_added_to_bin) -> "maybe sends" that NFT.
 * - withdraw: the pool transfers x and y to the sender; the sender's `pool-token` shares are burned (a burn
 *   is a send) and the position NFT re-tagged.
 * - move: no token leaves the pool; the from-bin shares are burned, the to-bin shares minted, both NFTs
 *   re-tagged (the to-bin one only when it exists).
 * - swap: the sender transfers the input, the pool transfers the output.
 */
import { Cl, ClarityType, Pc, type ClarityValue, type PostCondition } from '@stacks/transactions';
import { formatUnits, toUnsignedBinId } from '../dlmm/bins';

/** A token as the exporter needs it: contract, post-condition asset name (null = native STX), decimals. */
export interface TokenInfo {
  contract: string;
  symbol: string;
  decimals: number;
  /** `define-fungible-token` name; null when the token moves native STX (ustx conditions). */
  assetName: string | null;
}

/** Post-condition amounts are u64 on the wire; plan amounts may be up to uint128. */
const POST_CONDITION_MAX = (1n << 64n) - 1n;

/** A deny-mode condition cannot state an amount above u64: the export refuses instead of guessing. */
export class PostConditionRangeError extends Error {
  constructor(readonly amount: bigint) {
    super(
      `amount ${amount} is above ${POST_CONDITION_MAX}, the largest amount a Stacks post-condition can state (u64); ` +
        'deny-mode post-conditions cannot cover it: split the amount over several operations',
    );
    this.name = 'PostConditionRangeError';
  }
}

function checkAmount(amount: bigint): bigint {
  if (amount < 0n || amount > POST_CONDITION_MAX) throw new PostConditionRangeError(amount);
  return amount;
}

/** Fungible asset of the pool's shares. */
const POOL_SHARES_ASSET = 'pool-token';
/** Non-fungible asset keyed by {token-id: unsigned bin id, owner}. */
const POSITION_NFT_ASSET = 'pool-token-id';

/**
 * (principal, asset) pairs whose condition `Pc` has built and checked (c32 decoding with a sha256 checksum
 * of the principal and of the token contract, each time): later conditions on them are written as the same
 * literal `Pc` returns, so a check or an export does not decode the same two addresses again and again.
 */
const checkedFungible = new Set<string>();
const MAX_CHECKED_FUNGIBLE = 1024;

function rememberChecked(key: string): void {
  if (checkedFungible.size >= MAX_CHECKED_FUNGIBLE) checkedFungible.clear();
  checkedFungible.add(key);
}

/** A fungible outflow condition on `principal` for `token` (STX wrapper -> ustx). */
export function fungibleCondition(
  principal: string,
  comparator: 'lte' | 'eq' | 'gte',
  amount: bigint,
  token: TokenInfo,
): PostCondition {
  checkAmount(amount);
  const key = `${principal}|${token.assetName === null ? 'ustx' : `${token.contract}::${token.assetName}`}`;
  if (checkedFungible.has(key)) {
    if (token.assetName === null)
      return {
        type: 'stx-postcondition',
        address: principal,
        condition: comparator,
        amount: amount.toString(),
      };
    return {
      type: 'ft-postcondition',
      address: principal,
      condition: comparator,
      amount: amount.toString(),
      asset: `${token.contract as `${string}.${string}`}::${token.assetName}`,
    };
  }
  const p = Pc.principal(principal);
  const partial =
    comparator === 'lte'
      ? p.willSendLte(amount)
      : comparator === 'eq'
        ? p.willSendEq(amount)
        : p.willSendGte(amount);
  const pc =
    token.assetName === null
      ? partial.ustx()
      : partial.ft(token.contract as `${string}.${string}`, token.assetName);
  rememberChecked(key);
  return pc;
}

/** The sender burns (sends) pool shares: exactly on strict withdraw/move, at most on simple ones. */
export function sharesCondition(
  sender: string,
  comparator: 'lte' | 'eq',
  amount: bigint,
  pool: string,
): PostCondition {
  // The pool's shares are its fungible token `pool-token`: the same condition as any token's outflow.
  const shares = { contract: pool, symbol: POOL_SHARES_ASSET, decimals: 0, assetName: POOL_SHARES_ASSET };
  return fungibleCondition(sender, comparator, amount, shares);
}

/**
 * Per (sender, pool): the first position-NFT condition built and checked by `Pc` (principal and contract
 * validation: c32 decoding with a sha256 checksum each time), and the owner's principal value. A strict
 * 350-bin operation writes one condition per bin; the later ones reuse the validated parts and differ only
 * in the token id. Clarity values are immutable, so sharing the owner value is safe.
 */
type NftCondition = Extract<PostCondition, { type: 'nft-postcondition' }>;
const nftTemplates = new Map<string, { pc: NftCondition; owner: ClarityValue }>();
const MAX_NFT_TEMPLATES = 64;

function nftTemplate(sender: string, pool: string): { pc: NftCondition; owner: ClarityValue } {
  const key = `${sender}|${pool}`;
  let t = nftTemplates.get(key);
  if (!t) {
    const owner = Cl.principal(sender);
    const pc = Pc.principal(sender)
      .willMaybeSendAsset()
      .nft(
        `${pool as `${string}.${string}`}::${POSITION_NFT_ASSET}`,
        Cl.tuple({ 'token-id': Cl.uint(0), owner }),
      ) as NftCondition;
    t = { pc, owner };
    if (nftTemplates.size >= MAX_NFT_TEMPLATES) nftTemplates.clear();
    nftTemplates.set(key, t);
  }
  return t;
}

/** The sender may send (burn and re-mint) the position NFT of `signedBinId`. */
export function positionNftCondition(sender: string, pool: string, signedBinId: number): PostCondition {
  const { pc, owner } = nftTemplate(sender, pool);
  // A literal with the template's fields (an object spread per condition is slow on 350-bin operations).
  return {
    type: pc.type,
    address: pc.address,
    condition: pc.condition,
    asset: pc.asset,
    assetId: nftIdTuple(signedBinId, owner),
  };
}

/** The NFT id tuple {token-id: unsigned bin id, owner}, the owner's principal value already built. */
function nftIdTuple(signedBinId: number, owner: ClarityValue): ClarityValue {
  return {
    type: ClarityType.Tuple,
    value: { 'token-id': Cl.uint(toUnsignedBinId(signedBinId)), owner },
  };
}

const COMPARATOR_WORDS: Record<string, string> = {
  lte: 'at most',
  lt: 'less than',
  eq: 'exactly',
  gte: 'at least',
  gt: 'more than',
};

/** Short form of a principal for sentences: SP15VM…6CBR, contract names kept. */
function shortPrincipal(p: string): string {
  const [addr, name] = p.split('.') as [string, string | undefined];
  const a = addr.length > 12 ? `${addr.slice(0, 6)}…${addr.slice(-4)}` : addr;
  return name ? `${a}.${name}` : a;
}

/** A human amount: "0.0015 sBTC (150000 base units)"; shares stay integers. */
function humanAmount(amount: bigint, token: TokenInfo | undefined, unit = 'shares'): string {
  if (!token) return `${amount} ${unit}`;
  return `${formatUnits(amount, token.decimals)} ${token.symbol} (${amount} base units)`;
}

/**
 * One post-condition in words, e.g. "SP15VM…6CBR sends at most 0.0015 sBTC (150000 base units)".
 * `tokens` maps asset strings (contract::name, or "ustx") to their token for human units.
 */
export function describePostCondition(pc: PostCondition, tokens: ReadonlyMap<string, TokenInfo>): string {
  switch (pc.type) {
    case 'stx-postcondition':
      return `${shortPrincipal(pc.address)} sends ${COMPARATOR_WORDS[pc.condition] ?? pc.condition} ${humanAmount(BigInt(pc.amount), tokens.get('ustx') ?? STX_INFO)}`;
    case 'ft-postcondition': {
      const token = tokens.get(pc.asset);
      const amount = BigInt(pc.amount);
      const what = pc.asset.endsWith(`::${POOL_SHARES_ASSET}`)
        ? `${amount} pool shares (${POOL_SHARES_ASSET})`
        : humanAmount(amount, token, pc.asset);
      return `${shortPrincipal(pc.address)} sends ${COMPARATOR_WORDS[pc.condition] ?? pc.condition} ${what}`;
    }
    case 'nft-postcondition': {
      const id = pc.assetId.type === 'tuple' ? pc.assetId.value['token-id'] : undefined;
      const unsigned = id && id.type === 'uint' ? Number(id.value) : undefined;
      const bin =
        unsigned === undefined ? Cl.prettyPrint(pc.assetId) : `bin ${unsigned - 500} (token-id u${unsigned})`;
      const verb =
        pc.condition === 'maybe-sent' ? 'may send' : pc.condition === 'sent' ? 'sends' : 'does not send';
      return `${shortPrincipal(pc.address)} ${verb} its position NFT ${POSITION_NFT_ASSET} for ${bin}`;
    }
    default:
      return JSON.stringify(pc);
  }
}

/** Native STX for words when no token record was given. */
export const STX_INFO: TokenInfo = { contract: 'ustx', symbol: 'STX', decimals: 6, assetName: null };
