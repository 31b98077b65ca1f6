/**
 * A world with one wide sBTC/USDCx pool of bin step 1 (issue 41's "wide pools"): 841 bins of liquidity around
 * active bin 0, the sender holding half of the 350 bins below it and enough of every token for a 340-bin
 * add or a swap across ~300 bins. The default world's tokens; no other pool, so every route goes through it.
 */
import { DEFAULT_WORLD_INPUT, SBTC, USDCX } from '../../../core/sim/defaultWorld';
import { parseWorld, type World } from '../../../core/sim/world';

export const WIDE = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-1';

/** The default world's tokens and sender, with one wide sBTC/USDCx pool of bin step 1 at active bin 0. */
export function wideWorld(sender: string): World {
  const input = structuredClone(DEFAULT_WORLD_INPUT);
  input.pools = [
    {
      id: WIDE,
      alias: 'dlmm_1',
      token_x: SBTC,
      token_y: USDCX,
      bin_step: 1,
      fees: { x_protocol: 25, x_provider: 25, x_variable: 0, y_protocol: 25, y_provider: 25, y_variable: 0 },
      active_bin: 0,
      active_price: '76060388561',
      liquidity: {
        bins_below: 420,
        bins_above: 420,
        x_per_bin: '1300000',
        y_per_bin: '1000000000',
        shape: 'flat',
      },
    },
  ];
  const held = Array.from({ length: 350 }, (_, i) => ({ bin_id: -350 + i, share_percent: 50 }));
  input.users = [
    {
      address: sender,
      balances: {
        [SBTC]: '10000000000',
        [USDCX]: '1000000000000',
        [DEFAULT_WORLD_INPUT.tokens[2]!.contract]: '10000000000000',
      },
      positions: [{ pool: 'dlmm_1', bins: held }],
    },
  ];
  return parseWorld(input, 'wide-pool');
}
