/**
 * Router contracts per network (docs/contracts.md "Router functions"). Contract ids and the router version are
 * configuration, not code: v-1-2 routers take one trailing `(optional uint)` deadline more than v-1-1.
 */

export type Network = 'mainnet' | 'testnet';
export type RouterVersion = 'v-1-1' | 'v-1-2';

export interface RouterConfig {
  /** Liquidity router contract id, ADDR.name. */
  liquidityRouter: string;
  /** Swap router contract id, ADDR.name. */
  swapRouter: string;
  /** v-1-2 appends the `(optional uint)` deadline argument to every public function. */
  version: RouterVersion;
  /** The SIP-010 wrapper that moves native STX: its post-conditions are STX (ustx) conditions. */
  stxWrapper: string;
}

/** Partial router settings per network, merged over DEFAULT_ROUTERS (see routerConfig.ts for the schema). */
export type RouterOverrides = Partial<Record<Network, Partial<RouterConfig>>>;

/** Mainnet defaults: the published deployments. Testnet has no published deployment: callers must configure it. */
export const DEFAULT_ROUTERS: Readonly<Record<Network, RouterConfig | undefined>> = {
  mainnet: {
    liquidityRouter: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-liquidity-router-v-1-2',
    swapRouter: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-swap-router-v-1-2',
    version: 'v-1-2',
    stxWrapper: 'SM1793C4R5PZ4NS4VQ4WMP7SKKYVH8JZEWSZ9HCCR.token-stx-v-1-2',
  },
  testnet: undefined,
};

/**
 * The DLMM core contract per network, which the routers call and whose read-only functions give the core's
 * settings (`get-minimum-bin-shares`, `get-minimum-burnt-shares`). Mainnet: dlmm-core-v-1-1 under its own
 * deployer (not the routers'), as the deployed routers name it. Testnet has no published deployment.
 */
export const CORE_CONTRACTS: Readonly<Record<Network, string | undefined>> = {
  mainnet: 'SP1PFR4V08H1RAZXREBGFFQ59WB739XM8VVGTFSEA.dlmm-core-v-1-1',
  testnet: undefined,
};

/** Splits `ADDR.name` into its parts; undefined when it is not a contract id. */
export function splitContractId(id: string): { address: string; name: string } | undefined {
  const dot = id.indexOf('.');
  if (dot <= 0 || dot === id.length - 1) return undefined;
  return { address: id.slice(0, dot), name: id.slice(dot + 1) };
}

/** The router configuration for a network: overrides first, then the defaults; undefined if none. */
export function routerConfigFor(network: Network, overrides?: RouterOverrides): RouterConfig | undefined {
  const base = DEFAULT_ROUTERS[network];
  const o = overrides?.[network];
  if (!base && !o) return undefined;
  const merged = { ...base, ...o } as Partial<RouterConfig>;
  if (!merged.liquidityRouter || !merged.swapRouter || !merged.version || !merged.stxWrapper)
    return undefined;
  return merged as RouterConfig;
}

/** The network a sender principal belongs to (SP/SM mainnet, ST/SN testnet). */
export function networkOfPrincipal(p: string): Network {
  return /^S[TN]/.test(p) ? 'testnet' : 'mainnet';
}
