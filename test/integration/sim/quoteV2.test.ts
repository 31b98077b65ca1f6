/** Contract tests of the simulator's quote engine v2 over real HTTP: shapes parse with core/api/schemas. */
import assert from 'node:assert/strict';
import {
  BinListSchema,
  MultiQuoteResponseSchema,
  PairsResponseSchema,
  PoolSchema,
  QuoteResponseSchema,
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
import { z } from 'zod';

/** A FastAPI 422 body (published HTTPValidationError of ValidationError), which the client never reads. */
const HttpValidationErrorSchema = z.looseObject({
  detail: z.array(
    z.looseObject({
      loc: z.array(z.union([z.string(), z.number(), z.bigint()])),
      msg: z.string(),
      type: z.string(),
    }),
  ),
});

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

  it('answers pairs for one input token (the published PairsResponse); 422 without input_token', async () => {
    const a = await call(q(`/pairs?input_token=${SBTC}`));
    const body = PairsResponseSchema.parse(a.json);
    assert.equal(body.input_token, SBTC);
    assert.equal(body.input_token_decimals, 8);
    const usdcx = body.pairs.find((p) => p.output_token === USDCX);
    assert.ok(usdcx?.pools.includes(POOL_SBTC_USDCX));
    assert.equal(usdcx?.pools_id[usdcx.pools.indexOf(POOL_SBTC_USDCX)], 'dlmm_1');
    assert.deepEqual(usdcx?.amm_types, ['dlmm']);
    const only = PairsResponseSchema.parse(
      (await call(q(`/pairs?input_token=${SBTC}&output_token=${USDCX}`))).json,
    );
    assert.deepEqual(
      only.pairs.map((p) => p.output_token),
      [USDCX],
    );
    const missing = await call(q('/pairs'));
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json.detail, [
      { type: 'missing', loc: ['query', 'input_token'], msg: 'Field required', input: null },
    ]);
  });

  it('serves the bin ladder as mainnet: signed ids, liquidity the shares (null on dust), pool_id as asked, 1001 bins', async () => {
    for (const id of ['dlmm_1', POOL_SBTC_USDCX]) {
      const list = BinListSchema.parse((await call(q(`/bins/${id}`))).json);
      assert.equal(list.active_bin_id, 139);
      assert.equal(list.pool_id, id, 'pool_id echoes the id as asked');
      assert.equal(list.total_bins, 1001);
      assert.ok(list.bins.length >= 20);
      const pool = sim().engine.pool(id)!;
      for (const b of list.bins) {
        const shares = pool.bins.get(b.bin_id)?.shares ?? 0n;
        assert.equal(b.liquidity, shares > 1000n ? shares : null);
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
    assert.equal(one.is_active, true);
    assert.equal(one.price, 76060388561n);
    assert.deepEqual(SingleBinSchema.parse((await call(q('/bins/dlmm_1/active'))).json), one);
    const empty = SingleBinSchema.parse((await call(q('/bins/dlmm_1/1000'))).json);
    assert.equal(empty.reserve_x, 0n);
    assert.ok(empty.price > one.price);
    for (const bad of ['1001', '-1', 'abc']) assert.equal((await call(q(`/bins/dlmm_1/${bad}`))).status, 400);
  });

  it('quotes in the published flat shape, one step per bin, with the exact swap math', async () => {
    const amount = 12_345_678n;
    const a = await call(q('/quote'), {
      body: `{"input_token":"${SBTC}","output_token":"${USDCX}","amount_in":"${amount}","slippage_tolerance":0.5}`,
    });
    assert.equal(a.status, 200, a.text);
    const route = QuoteResponseSchema.parse(a.json);
    const pool = sim().engine.pool('dlmm_1')!;
    const walk = swapWalk((id) => pool.bins.get(id), pool.activeBinId, true, amount, pool.fees);
    assert.equal(route.hops.length, 1);
    assert.equal(route.execution_path.length, walk.steps.length, 'one step per bin crossed');
    assert.equal(route.amount_out, walk.amount_out);
    // The minimum keeps its fraction, as the engine's figures do; its integer part is the floor.
    assert.equal(route.min_amount_out, minAfterSlippage(walk.amount_out, percentToPpm(0.5)!));
    assert.match(String(a.json.min_amount_out), /^\d+(\.\d+)?$/);
    assert.equal(typeof a.json.fee, 'string');
    assert.equal(typeof a.json.price_impact_tokens, 'string');
    assert.deepEqual(a.json.route_path, [SBTC, USDCX]);
    assert.equal(route.input_token_decimals, 8);
    assert.equal(route.output_token_decimals, 6);
    assert.equal(route.slippage_tolerance, 0.5);
    assert.equal(route.execution_details?.amm_type, 'dlmm');
    assert.equal(route.execution_details?.bins_traversed, walk.steps.length);
    const step = route.execution_path[0]!;
    assert.equal(step.pool_trait, POOL_SBTC_USDCX);
    assert.equal(step.pool_id, 'dlmm_1');
    assert.equal(step.function_name, 'swap-x-for-y');
    const hop = route.hops[0]!;
    assert.equal(hop.pool_id, POOL_SBTC_USDCX);
    assert.deepEqual(
      hop.bins.map((b) => [b.bin_id, b.amount_in, b.amount_out]),
      walk.steps.map((s) => [s.bin_id, s.amount_in, s.amount_out]),
    );
    assert.ok(hop.bins.length >= 2, 'this amount crosses bins');
    assert.ok(typeof route.price_impact_bps === 'number' && route.price_impact_bps > 0);
    // Impact measures the price moved, not the pool fee: a small swap inside the active bin has none.
    const small = await call(q('/quote'), {
      body: `{"input_token":"${SBTC}","output_token":"${USDCX}","amount_in":"1000"}`,
    });
    assert.equal(small.status, 200, small.text);
    assert.equal(QuoteResponseSchema.parse(small.json).price_impact_bps, 0);
  });

  it('refuses a JSON-number amount_in with a FastAPI 422 naming the field', async () => {
    const a = await call(q('/quote'), {
      body: `{"input_token":"${SBTC}","output_token":"${USDCX}","amount_in":1000}`,
    });
    assert.equal(a.status, 422, a.text);
    const err = HttpValidationErrorSchema.parse(a.json);
    assert.deepEqual(err.detail[0]?.loc, ['body', 'amount_in']);
    assert.equal(err.detail[0]?.type, 'string_type');
    const missing = await call(q('/quote'), { body: { input_token: SBTC, amount_in: '5' } });
    assert.equal(missing.status, 422);
    const d = HttpValidationErrorSchema.parse(missing.json).detail[0]!;
    assert.deepEqual([d.loc, d.type, d.msg], [['body', 'output_token'], 'missing', 'Field required']);
  });

  it('quote/multi answers {success, routes, best_route_index}, each route matching routeWalk', async () => {
    const amount = 3_000_000_000n; // 3,000 STX
    const a = await call(q('/quote/multi'), {
      body: { input_token: STX_WRAPPER, output_token: SBTC, amount_in: String(amount), amm_strategy: 'pure' },
    });
    assert.equal(a.status, 200, a.text);
    const parsed = MultiQuoteResponseSchema.parse(a.json);
    assert.equal(parsed.success, true);
    assert.equal(parsed.best_route_index, 1);
    const routes = parsed.routes;
    assert.deepEqual(
      routes.map((r) => r.route_index),
      routes.map((_, i) => i + 1),
    );
    assert.ok(routes.some((r) => r.hops.length === 1 && r.total_hops === 1));
    assert.ok(routes.some((r) => r.hops.length === 2 && r.total_hops === 2));
    for (const r of routes) {
      const hops = r.hops.map((h) => {
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

  it('reads amounts beyond 2^53 exactly and answers swap parameters in the published shape', async () => {
    const big = await call(q('/quote'), {
      body: `{"input_token":"${USDCX}","output_token":"${SBTC}","amount_in":"90071992547409930"}`,
    });
    assert.equal(big.status, 200, big.text);
    const bigRoute = QuoteResponseSchema.parse(big.json);
    assert.ok(bigRoute.hops[0]!.amount_in < 90071992547409930n, 'more than the pools hold: a partial fill');

    const quote = (
      await call(q('/quote'), { body: { input_token: SBTC, output_token: USDCX, amount_in: '1000000' } })
    ).json;
    const request = (type: 'simple' | 'full') => ({
      execution_path: quote.execution_path,
      amount_in: '1000000',
      amount_out: String(quote.amount_out),
      input_token: SBTC,
      output_token: USDCX,
      input_token_decimals: quote.input_token_decimals,
      output_token_decimals: quote.output_token_decimals,
      slippage_tolerance: 2,
      swap_parameters_type: type,
      provider: DEFAULT_USER,
    });
    const swap = await call(q('/swap'), { body: request('simple') });
    assert.equal(swap.status, 200, swap.text);
    const params = SwapParamsSchema.parse(swap.json);
    assert.match(params.swap_contract, /dlmm-swap-router/);
    assert.equal(params.function_name, 'swap-simple-multi');
    assert.equal(params.total_hops, 1);
    assert.equal(params.swap_parameters.length, 1);
    assert.equal(params.swap_parameters_typed[0]?.type, 'tuple');
    const [spend, receive] = params.post_conditions;
    assert.equal(spend?.sender_address, 'tx-sender');
    assert.equal(spend?.condition_code, 'less_than_or_equal_to');
    assert.equal(spend?.amount, '1000000');
    assert.match(spend?.token_contract ?? '', /::/);
    assert.equal(receive?.sender_address, POOL_SBTC_USDCX);
    assert.equal(receive?.amount, String(minAfterSlippage(BigInt(String(quote.amount_out)), 20_000n)));
    const full = SwapParamsSchema.parse((await call(q('/swap'), { body: request('full') })).json);
    assert.equal(full.function_name, 'swap-multi');
    assert.equal(full.swap_parameters.length, (quote.execution_path as unknown[]).length);
    const numeric = await call(q('/swap'), { body: { ...request('simple'), amount_in: 1000000 } });
    assert.equal(numeric.status, 422, 'a JSON-number amount is refused as FastAPI refuses it');

    const agg = await call(q('/agg/swap'), {
      body: { input_token: STX_WRAPPER, output_token: USDCX, amount_in: '5000000', provider: DEFAULT_USER },
    });
    assert.equal(agg.status, 200, agg.text);
    assert.equal(SwapParamsSchema.parse(agg.json).success, true);
  });

  it('answers bad requests with 422 detail or 400 and a JSON error, never a crash', async () => {
    const cases: [string, string, number][] = [
      ['/quote', '{"input_token":', 400],
      ['/quote', JSON.stringify({ input_token: SBTC, output_token: USDCX, amount_in: '-5' }), 422],
      ['/quote', JSON.stringify({ input_token: SBTC, output_token: USDCX, amount_in: '1.5' }), 422],
      // One above uint128: the contracts cannot take it, so the engine does not quote it.
      [
        '/quote',
        `{"input_token":"${SBTC}","output_token":"${USDCX}","amount_in":"340282366920938463463374607431768211456"}`,
        422,
      ],
      ['/quote', JSON.stringify({ input_token: SBTC, output_token: SBTC, amount_in: '10' }), 400],
      [
        '/quote',
        JSON.stringify({ input_token: SBTC, output_token: USDCX, amount_in: '10', slippage_tolerance: 150 }),
        422,
      ],
      [
        '/quote',
        JSON.stringify({ input_token: SBTC, output_token: USDCX, amount_in: '10', amm_strategy: 'direct' }),
        422,
      ],
      ['/swap', JSON.stringify({ execution_path: [] }), 422],
      ['/quote', '', 400],
    ];
    for (const [path, body, status] of cases) {
      const a = await call(q(path), { method: 'POST', body });
      assert.equal(a.status, status, `${path} ${body} -> ${a.status} ${a.text}`);
      if (status === 422) assert.ok(HttpValidationErrorSchema.safeParse(a.json).success, a.text);
      else assert.equal(typeof a.json.error, 'string');
    }
    assert.equal((await call(q('/nothing-here'))).status, 404);
    assert.equal((await call(q('/tokens'), { method: 'POST', body: '{}' })).status, 405);
    assert.equal((await call(q('/status'))).status, 200, 'still serving');
  });
});
