/**
 * The default world (a TS module so it is bundled with the CLI and the extension): mainnet-like tokens and
 * three pools with bin steps 10, 20 and 1, liquidity over tens of bins, a user with positions in several
 * bins of every pool and token balances (10 sBTC, 1,000,000 USDCx, 10,000,000 STX), and one API key with a
 * raised limit. The sBTC/USDCx pool sits at the mainnet id,
 * active bin 139, price 76060388561 (76060.388561 USDCx per sBTC), fees 25 + 25 + 0 bps per side.
 */
import { parseWorld, type World, type WorldInput } from './world';

export const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
export const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';
/** Moves native STX: post-conditions on it are STX conditions, so it has no asset name. */
export const STX_WRAPPER = 'SM1793C4R5PZ4NS4VQ4WMP7SKKYVH8JZEWSZ9HCCR.token-stx-v-1-2';
export const DEFAULT_USER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
/** Not a secret: the simulator's own test key, accepted only by the simulator (docs/world.md). */
export const DEFAULT_SIM_API_KEY = 'sim-local-key-0001';

const DEPLOYER = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD';
export const POOL_SBTC_USDCX = `${DEPLOYER}.dlmm-pool-sbtc-usdcx-v-1-bps-10`;
export const POOL_STX_USDCX = `${DEPLOYER}.dlmm-pool-stx-usdcx-v-1-bps-20`;
export const POOL_STX_SBTC = `${DEPLOYER}.dlmm-pool-stx-sbtc-v-1-bps-1`;

const FEES_25_25 = {
  x_protocol: 25,
  x_provider: 25,
  x_variable: 0,
  y_protocol: 25,
  y_provider: 25,
  y_variable: 0,
};

export const DEFAULT_WORLD_INPUT: WorldInput = {
  version: 1,
  name: 'default',
  seed: 20260901,
  status: { state_height: 1000, tip_lag: 0, ready: true, app_ready: true },
  tokens: [
    {
      contract: SBTC,
      symbol: 'sBTC',
      name: 'sBTC',
      decimals: 8,
      asset_name: 'sbtc-token',
      token_id: 'token-sbtc',
    },
    {
      contract: USDCX,
      symbol: 'USDCx',
      name: 'USDCx',
      decimals: 6,
      asset_name: 'usdcx-token',
      token_id: 'token-usdcx',
    },
    {
      contract: STX_WRAPPER,
      symbol: 'STX',
      name: 'Stacks',
      decimals: 6,
      asset_name: null,
      token_id: 'token-stx',
    },
  ],
  pools: [
    {
      id: POOL_SBTC_USDCX,
      alias: 'dlmm_1',
      token_x: SBTC,
      token_y: USDCX,
      bin_step: 10,
      fees: FEES_25_25,
      active_bin: 139,
      active_price: '76060388561',
      // 0.05 sBTC above, ~3,800 USDCx below per bin near the active bin, thinning out over 30 bins
      liquidity: {
        bins_below: 30,
        bins_above: 30,
        x_per_bin: '5000000',
        y_per_bin: '3800000000',
        shape: 'triangle',
      },
    },
    {
      id: POOL_STX_USDCX,
      alias: 'dlmm_2',
      token_x: STX_WRAPPER,
      token_y: USDCX,
      bin_step: 20,
      fees: { x_protocol: 15, x_provider: 15, x_variable: 0, y_protocol: 15, y_provider: 15, y_variable: 0 },
      active_bin: -37,
      active_price: '62000000', // 0.62 USDCx per STX
      // Outside the app v2 current-bins cohort (404 POOL_NOT_FOUND): its positions come from app v2
      // position bins, display data that may lag (positions-may-lag), as for a pool not yet enrolled.
      current_bins: false,
      liquidity: {
        bins_below: 25,
        bins_above: 25,
        x_per_bin: '20000000000',
        y_per_bin: '12400000000',
        shape: 'flat',
      },
    },
    {
      id: POOL_STX_SBTC,
      alias: 'dlmm_3',
      token_x: STX_WRAPPER,
      token_y: SBTC,
      bin_step: 1,
      fees: FEES_25_25,
      active_bin: 12,
      active_price: '81514', // ~815 sats per STX, close to the cross rate of the other two pools
      liquidity: {
        bins_below: 40,
        bins_above: 40,
        x_per_bin: '5000000000',
        y_per_bin: '4075000',
        shape: 'triangle',
      },
    },
  ],
  users: [
    {
      address: DEFAULT_USER,
      // Enough for every example, the demo and the walkthrough; 1,000,000 sBTC is far beyond it.
      balances: {
        [SBTC]: '1000000000', // 10 sBTC
        [USDCX]: '1000000000000', // 1,000,000 USDCx
        [STX_WRAPPER]: '10000000000000', // 10,000,000 STX (micro-STX)
      },
      positions: [
        {
          pool: 'dlmm_1',
          bins: [
            { bin_id: 136, share_percent: 20 },
            { bin_id: 137, share_percent: 20 },
            { bin_id: 138, share_percent: 25 },
            { bin_id: 139, share_percent: 30 },
            { bin_id: 140, share_percent: 25 },
            { bin_id: 141, share_percent: 12.5 },
          ],
        },
        {
          pool: 'dlmm_2',
          bins: [
            { bin_id: -40, share_percent: 10 },
            { bin_id: -38, share_percent: 15 },
            { bin_id: -37, share_percent: 15 },
            { bin_id: -36, share_percent: 5 },
          ],
        },
        {
          pool: 'dlmm_3',
          bins: [
            { bin_id: 10, share_percent: 50 },
            { bin_id: 12, share_percent: 40 },
            { bin_id: 15, share_percent: 33.3333 },
          ],
        },
      ],
    },
  ],
  api_keys: [{ key: DEFAULT_SIM_API_KEY, requests_per_second: 100_000, label: 'local tests and benchmarks' }],
  inventory_faults: [],
};

/** The world that ships with the product: three pools (bin steps 10, 20, 1), a user with positions, a key. */
export function defaultWorld(): World {
  return parseWorld(DEFAULT_WORLD_INPUT, 'default world');
}
