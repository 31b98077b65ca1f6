/** Contract tests of the simulator's quote engine v2 over real HTTP: shapes parse with core/api/schemas. */
import assert from 'node:assert/strict';
import {
  BinListSchema,
  MultiQuoteResponseSchema,
  PairSchema,
  PoolSchema,
  QuoteResponseSchema,
  RouteSchema,
  SingleBinSchema,
  StatusSchema,
  SwapParamsSchema,
  TokenSchema,
} from '../../../core/api/schemas';
import { BIN_ID_OFFSET } from '../../../core/dlmm/bins';
import { routeWalk, swapWalk } from '../../../core/dlmm/math';
import { minAfterSlippage, percentToPpm } from '../../../core/dlmm/percent';
import { DEFAULT_USER, POOL_SBTC_USDCX, SBTC, STX_WRAPPER, USDCX } from '../../../core/sim/defaultWorld';
import { call, useSimulator } from './helpers';

describe('simulator quote v2', () => {
  const sim = useSimulator();
  const q = (p: string) => `${sim().url}/quotes/v2${p}`;

  it('answers ready and a status snapshot that parses', async () => {
    assert.equal((await call(q('/ready'))).status, 200);
    const s = StatusSchema.parse((await call(q('/status'))).json);
    assert.equal(s.ready, true);
    assert.equal(s.tip_lag, 0);
    assert.equal(s.chain_tip, s.state_height);
    assert.equal(s.pool_count, sim().engine.pools().length);
  });

  it('lists tokens under {tokens}, the STX wrapper without an asset name', async () => {
    const a = await call(q('/tokens'));
    const tokens = (a.json.tokens as unknown[]).map((t) => TokenSchema.parse(t));
    const stx = tokens.find((t) => t.contract_address === STX_WRAPPER);
    assert.ok(stx);
    assert.equal(stx.asset_name, null);
    assert.equal(tokens.find((t) => t.contract_address === USDCX)?.asset_name, 'usdcx-token');
  });

  it('lists pools with contract ids, bin steps 1, 10 and 20', async () => {
    const pools = ((await call(q('/pools'))).json.pools as unknown[]).map((p) => PoolSchema.parse(p));
    assert.deepEqual(new Set(pools.map((p) => p.bin_step)), new Set([1, 10, 20]));
    const p1 = pools.find((p) => p.pool_id === POOL_SBTC_USDCX);
    assert.equal(p1?.active_bin, 139);
    assert.equal(p1?.x_total_fee_bps, 50);
  });

  it('reads one pool by alias and by contract id alike; unknown ids get 404', async () => {
    const byAlias = PoolSchema.parse((await call(q('/pools/dlmm_1'))).json);
    const byId = PoolSchema.parse((await call(q(`/pools/${POOL_SBTC_USDCX}`))).json);
    assert.deepEqual(byAlias, byId);
    const missing = await call(q('/pools/dlmm_99'));
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error, 'Pool not found');
  });

  it('lists pairs under {pairs}', async () => {
    const pairs = ((await call(q('/pairs'))).json.pairs as unknown[]).map((p) => PairSchema.parse(p));
    assert.ok(
      pairs.some((p) => p.token_x === SBTC && p.token_y === USDCX && p.pools?.includes(POOL_SBTC_USDCX)),
    );
  });

  it('serves the bin ladder with signed ids, liquidity null and only bins with reserves', async () => {
    for (const id of ['dlmm_1', POOL_SBTC_USDCX]) {
      const list = BinListSchema.parse((await call(q(`/bins/${id}`))).json);
      assert.equal(list.active_bin_id, 139);
      assert.ok(list.bins.length >= 20);
      const pool = sim().engine.pool(id)!;
      for (const b of list.bins) {
        assert.equal(b.liquidity, null);
        assert.ok(b.reserve_x > 0n || b.reserve_y > 0n);
        if (b.bin_id < 139) assert.equal(b.reserve_x, 0n);
        if (b.bin_id > 139) assert.equal(b.reserve_y, 0n);
        assert.equal(b.price, pool.prices[b.bin_id + BIN_ID_OFFSET]);
      }
      const ids = list.bins.map((b) => b.bin_id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      const active = list.bins.find((b) => b.bin_id === 139)!;
      assert.equal(active.price, 76060388561n);
      assert.ok(active.reserve_x > 0n && active.reserve_y > 0n);
    }
  });

  it('reads a single bin by unsigned id, also an empty one, and rejects ids outside 0..1000', async () => {
    const one = SingleBinSchema.parse((await call(q('/bins/dlmm_1/639'))).json);
    assert.equal(one.bin_id, 639);
    assert.equal(one.price, 76060388561n);
    const empty = SingleBinSchema.parse((await call(q('/bins/dlmm_1/1000'))).json);
    assert.equal(empty.reserve_x, 0n);
    assert.ok(empty.price > one.price);
    for (const bad of ['1001', '-1', 'abc']) assert.equal((await call(q(`/bins/dlmm_1/${bad}`))).status, 400);
  });

  it('quotes with the exact swap math, min_amount_out at the slippage, decimals echoed', async () => {
    const amount = 12_345_678n;
    const a = await call(q('/quote'), {
      body: `{"input_token":"${SBTC}","output_token":"${USDCX}","amount_in":${amount},"slippage_tolerance":0.5}`,
    });
    assert.equal(a.status, 200, a.text);
    QuoteResponseSchema.parse(a.json);
    const route = RouteSchema.parse(a.json);
    const pool = sim().engine.pool('dlmm_1')!;
    const walk = swapWalk((id) => pool.bins.get(id), pool.activeBinId, true, amount, pool.fees);
    assert.equal(route.execution_path.length, 1);
    assert.equal(route.amount_out, walk.amount_out);
    assert.equal(route.min_amount_out, minAfterSlippage(walk.amount_out, percentToPpm(0.5)!));
    assert.equal(route.input_token_decimals, 8);
    assert.equal(route.output_token_decimals, 6);
    assert.equal(route.slippage_tolerance, 0.5);
    const hop = route.execution_path[0]!;
    assert.equal(hop.pool_id, POOL_SBTC_USDCX);
    assert.deepEqual(
      hop.bins?.map((b) => [b.bin_id, b.amount_in, b.amount_out]),
      walk.steps.filter((s) => s.amount_in > 0n).map((s) => [s.bin_id, s.amount_in, s.amount_out]),
    );
    assert.ok((hop.bins?.length ?? 0) >= 2, 'this amount crosses bins');
    assert.ok(typeof route.price_impact_bps === 'number' && route.price_impact_bps > 0);
    // Impact measures the price moved, not the pool fee: a small swap inside the active bin has none.
    const small = await call(q('/quote'), {
      body: `{"input_token":"${SBTC}","output_token":"${USDCX}","amount_in":1000}`,
    });
    assert.equal(small.status, 200, small.text);
    assert.equal(RouteSchema.parse(small.json).price_impact_bps, 0);
  });

  it('quote/multi lists the direct and one-hop routes, each matching routeWalk, best first', async () => {
    const amount = 3_000_000_000n; // 3,000 STX
    const a = await call(q('/quote/multi'), {
      body: { input_token: STX_WRAPPER, output_token: SBTC, amount_in: String(amount) },
    });
    assert.equal(a.status, 200, a.text);
    const parsed = MultiQuoteResponseSchema.parse(a.json);
    const routes = Array.isArray(parsed) ? parsed : parsed.routes;
    assert.ok(routes.some((r) => r.execution_path.length === 1));
    assert.ok(routes.some((r) => r.execution_path.length === 2));
    for (const r of routes) {
      const hops = r.execution_path.map((h) => {
        const pool = sim().engine.pool(h.pool_id)!;
        return {
          getBin: (id: number) => pool.bins.get(id),
          activeBinId: pool.activeBinId,
          xForY: h.x_for_y,
          fees: pool.fees,
        };
      });
      assert.equal(r.amount_out, routeWalk(hops, amount).amount_out);
      assert.equal(r.slippage_tolerance, 1, 'default slippage is 1%');
    }
    const outs = routes.map((r) => r.amount_out);
    assert.equal(
      outs[0],
      outs.reduce((m, v) => (v > m ? v : m)),
    );
  });

  it('reads amounts beyond 2^53 exactly and answers swap parameters naming the router', async () => {
    const big = await call(q('/quote'), {
      body: `{"input_token":"${USDCX}","output_token":"${SBTC}","amount_in":90071992547409930}`,
    });
    assert.equal(big.status, 200, big.text);
    assert.equal(big.json.amount_in, '90071992547409930');
    assert.equal(big.json.complete, false, 'more than the pools hold');

    const quote = (
      await call(q('/quote'), { body: { input_token: SBTC, output_token: USDCX, amount_in: '1000000' } })
    ).json;
    const swap = await call(q('/swap'), {
      body: {
        execution_path: quote.execution_path,
        amount_in: quote.amount_in,
        amount_out: quote.amount_out,
        input_token: SBTC,
        output_token: USDCX,
        input_token_decimals: quote.input_token_decimals,
        output_token_decimals: quote.output_token_decimals,
        slippage_tolerance: 2,
        provider: DEFAULT_USER,
      },
    });
    assert.equal(swap.status, 200, swap.text);
    const params = SwapParamsSchema.parse(swap.json);
    assert.match(params.contract, /dlmm-swap-router/);
    assert.equal(params.function_name, 'swap-x-for-y-simple-multi');
    assert.equal(params.provider, DEFAULT_USER);
    assert.equal(params.min_amount_out, minAfterSlippage(BigInt(quote.amount_out), 20_000n));

    const agg = await call(q('/agg/swap'), {
      body: { input_token: STX_WRAPPER, output_token: USDCX, amount_in: '5000000', provider: DEFAULT_USER },
    });
    assert.equal(agg.status, 200, agg.text);
    assert.equal(SwapParamsSchema.parse(agg.json).provider, DEFAULT_USER);
  });

  it('answers bad requests with 400 and a JSON error, never a crash', async () => {
    const cases: [string, string][] = [
      ['/quote', '{"input_token":'],
      ['/quote', JSON.stringify({ input_token: SBTC, output_token: USDCX, amount_in: -5 })],
      ['/quote', JSON.stringify({ input_token: SBTC, output_token: USDCX, amount_in: 1.5 })],
      // One above uint128: the contracts cannot take it, so the engine does not quote it.
      [
        '/quote',
        `{"input_token":"${SBTC}","output_token":"${USDCX}","amount_in":340282366920938463463374607431768211456}`,
      ],
      ['/quote', JSON.stringify({ input_token: SBTC, output_token: SBTC, amount_in: 10 })],
      [
        '/quote',
        JSON.stringify({ input_token: SBTC, output_token: USDCX, amount_in: 10, slippage_tolerance: 150 }),
      ],
      ['/swap', JSON.stringify({ execution_path: [] })],
      ['/quote', ''],
    ];
    for (const [path, body] of cases) {
      const a = await call(q(path), { method: 'POST', body });
      assert.equal(a.status, 400, `${path} ${body} -> ${a.status} ${a.text}`);
      assert.equal(typeof a.json.error, 'string');
    }
    assert.equal((await call(q('/nothing-here'))).status, 404);
    assert.equal((await call(q('/tokens'), { method: 'POST', body: '{}' })).status, 405);
    assert.equal((await call(q('/status'))).status, 200, 'still serving');
  });
});
