/**
 * The core swap API (the client library's service) and the node calls its quotes use, served from the
 * simulated world with the exact math:
 *
 * - `GET /core/getAllTokensAndPools` → `{tokens: [...]}` in the library's token shape (`token-id`/`tokenId`,
 *   `tokenContract`, `tokenDecimals`, `tokenName` = the asset name; `token-stx` for the native STX wrapper).
 * - `GET /core/getAllRoutes?tokenX=ID&depth=N` → `{<tokenY id>: [route, ...]}`; each route names a read-only
 *   quote call (`quoteData`), the router call (`swapData`) and its post-conditions. Only direct routes (one
 *   pool) are offered: a route through two DLMM pools is a swap-multi with one step per bin, which depends
 *   on the amount and cannot be carried by the library's route parameters.
 * - `GET /node/v2/contracts/interface/{addr}/{name}` for the simulator's quote contract and the swap router.
 * - `POST /node/v2/contracts/call-read/{quote contract}/get-dy|get-dx`: the router's simple-multi walk over
 *   the current bins → `(ok {amount-in-used: uint, amount-out: uint})` (amount-out skewed by the admin's
 *   `quote_skew_bps`, as the quote engine's answers are), answered by the node proxy (routes/node.ts).
 *
 * The quote contract is the simulator's own (`SIM_QUOTE_CONTRACT`): the real service names its own quote
 * contract per route, and clients read whatever contract and function a route names. Keeper orders (the
 * library's keeper API) are not served.
 */
import type { SimEngine, SimPool } from '../engine';
import { badRequest, type Router } from '../http';
import { tokenId } from '../present';
import { SWAP_ROUTER } from './quoteV2';
import type { TokenSpec } from '../world';

/** The simulator's read-only quote contract (not a mainnet contract). */
export const SIM_QUOTE_CONTRACT = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-sim-quote-v-1';

const trait = (name: string) => ({ name, type: 'trait_reference' });
const uint = (name: string) => ({ name, type: 'uint128' });

/** Contract interfaces as a node answers GET /v2/contracts/interface (functions only matter here). */
function interfaceOf(contract: string): Record<string, unknown> | undefined {
  const iface = (functions: unknown[]) => ({
    functions,
    variables: [],
    maps: [],
    fungible_tokens: [],
    non_fungible_tokens: [],
    epoch: 'Epoch31',
    clarity_version: 'Clarity3',
  });
  const quoteOut = {
    type: {
      response: {
        ok: {
          tuple: [
            { name: 'amount-in-used', type: 'uint128' },
            { name: 'amount-out', type: 'uint128' },
          ],
        },
        error: 'uint128',
      },
    },
  };
  const traits = [trait('pool-trait'), trait('x-token-trait'), trait('y-token-trait')];
  const quoteFn = (name: string, amount: string) => ({
    name,
    access: 'read_only',
    args: [...traits, uint(amount)],
    outputs: quoteOut,
  });
  const swapFn = (name: string, amount: string, min: string) => ({
    name,
    access: 'public',
    args: [...traits, uint(amount), uint(min), { name: 'deadline', type: { optional: 'uint128' } }],
    outputs: { type: { response: { ok: 'uint128', error: 'uint128' } } },
  });
  if (contract === SIM_QUOTE_CONTRACT) return iface([quoteFn('get-dy', 'dx'), quoteFn('get-dx', 'dy')]);
  if (contract === SWAP_ROUTER)
    return iface([
      swapFn('swap-x-for-y-simple-multi', 'x-amount', 'min-dy'),
      swapFn('swap-y-for-x-simple-multi', 'y-amount', 'min-dx'),
    ]);
  return undefined;
}

/** The library's token record. */
function coreToken(t: TokenSpec): Record<string, unknown> {
  const id = tokenId(t);
  return {
    'token-id': id,
    tokenId: id,
    symbol: t.symbol,
    name: t.name ?? t.symbol,
    tokenContract: t.contract,
    tokenDecimals: t.decimals,
    // The asset name of its fungible token; the native STX wrapper moves STX ('token-stx' to the library).
    tokenName: t.asset_name ?? 'token-stx',
    status: 'active',
    base: t.symbol,
    type: 'sip-010',
    isKeeperToken: false,
    wrapTokens: null,
    bridge: 'FALSE',
    layerOneAsset: null,
    icon: '',
  };
}

/** One direct route from `from` through `pool` (the library's route shape). */
function coreRoute(
  engine: SimEngine,
  pool: SimPool,
  from: TokenSpec,
  to: TokenSpec,
): Record<string, unknown> {
  const xForY = pool.tokenX === from.contract;
  const side = (t: TokenSpec, who: string) => ({
    senderAddress: who,
    tokenContract: t.asset_name === null ? 'token-stx' : t.contract,
    tokenName: t.asset_name ?? 'token-stx',
    tokenDecimals: t.decimals,
    shareFeeContract: null,
    dikoStx: null,
  });
  const traits = { 'pool-trait': pool.id, 'x-token-trait': pool.tokenX, 'y-token-trait': pool.tokenY };
  return {
    route_id: `${tokenId(from)}>${pool.alias}>${tokenId(to)}`,
    token_path: [tokenId(from), tokenId(to)],
    dex_path: ['BITFLOW_DLMM'],
    pool_ids: [pool.id],
    tokenXDecimals: from.decimals,
    tokenYDecimals: to.decimals,
    quoteData: {
      contract: SIM_QUOTE_CONTRACT,
      function: xForY ? 'get-dy' : 'get-dx',
      parameters: { ...traits, [xForY ? 'dx' : 'dy']: null },
    },
    swapData: {
      contract: SWAP_ROUTER,
      function: xForY ? 'swap-x-for-y-simple-multi' : 'swap-y-for-x-simple-multi',
      parameters: { ...traits, [xForY ? 'x-amount' : 'y-amount']: null, [xForY ? 'min-dy' : 'min-dx']: null },
    },
    postConditions: {
      'tx-sender': side(from, 'tx-sender'),
      pool: side(to, pool.id),
    },
    state_height: engine.status.state_height,
  };
}

/** Registers the core swap API under /core and the contract interfaces under /node. */
export function registerCoreApi(router: Router, engine: SimEngine): void {
  router.add('GET', '/core/getAllTokensAndPools', () => ({
    body: {
      tokens: engine.tokens().map(coreToken),
      pools: engine.pools().map((p) => ({
        pool_id: p.id,
        pool_alias: p.alias,
        token_x: p.tokenX,
        token_y: p.tokenY,
        active: p.active,
      })),
    },
  }));
  router.add('GET', '/core/getAllRoutes', (c) => {
    const idX = c.query.get('tokenX');
    if (!idX) throw badRequest('tokenX is required (a token id of /getAllTokensAndPools, e.g. token-sbtc)');
    const depthText = c.query.get('depth') ?? '4';
    if (!/^\d{1,2}$/.test(depthText)) throw badRequest(`depth must be a small integer, got '${depthText}'`);
    const from = engine.tokens().find((t) => tokenId(t) === idX);
    if (!from)
      throw badRequest(`tokenX ${idX} is not a token id of /getAllTokensAndPools`, { code: 'UNKNOWN_TOKEN' });
    const out: Record<string, Record<string, unknown>[]> = {};
    if (Number(depthText) < 1) return { body: out };
    for (const pool of engine.pools()) {
      if (!pool.active || !pool.quotable) continue;
      if (pool.tokenX !== from.contract && pool.tokenY !== from.contract) continue;
      const to = engine.token(pool.tokenX === from.contract ? pool.tokenY : pool.tokenX);
      if (!to) continue;
      (out[tokenId(to)] ??= []).push(coreRoute(engine, pool, from, to));
    }
    return { body: out };
  });
  router.add('GET', '/node/v2/contracts/interface/:addr/:name', (c) => {
    const contract = `${c.params.addr}.${c.params.name}`;
    const iface = interfaceOf(contract);
    if (!iface) {
      const pool = engine.poolByPrincipal(contract);
      if (!pool) return { status: 404, body: { error: `contract ${contract} not found` } };
      return {
        body: { functions: [], variables: [], maps: [], fungible_tokens: [], non_fungible_tokens: [] },
      };
    }
    return { body: iface };
  });
}
