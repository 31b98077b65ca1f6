/**
 * A client no one here wrote against the simulator: the published `@bitflowlabs/core-sdk` (a devDependency,
 * with `tslib` beside it) pointed at `dlmm sim`'s core swap API and node proxy over loopback HTTP.
 * getAvailableTokens, getAllPossibleTokenY, getAllPossibleTokenYRoutes, getQuoteForRoute and getSwapParams
 * must succeed, and its quotes must agree with ours (core/api/coreClient.ts, exact bigint) to its float rounding.
 *
 * What the library needs to run here:
 * - keys: its constructor insists on BITFLOW_API_KEY, KEEPER_API_KEY and KEEPER_API_HOST. The API key is the
 *   simulator's accepted key (an unknown key would be refused with 401); the keeper values are placeholders.
 * - its constructor starts loading the token list without awaiting it; if that load failed, the rejection
 *   would be unhandled and end the test process. A handler collects such rejections for the duration of the
 *   test and asserts there were none.
 * Not served (so not tested): the keeper API (keeper orders, getKeeper* operations) — the simulator has no
 * keeper service — and executeSwap, which needs a browser wallet (our export is the unsigned counterpart).
 */
import assert from 'node:assert/strict';
import { BitflowSDK } from '@bitflowlabs/core-sdk';
import { createCoreSwapClient, type CoreSwapClient } from '../../../core/api/coreClient';
import { DEFAULT_SIM_API_KEY } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

describe('@bitflowlabs/core-sdk against the simulator (real client)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let sdk: BitflowSDK;
  let ours: CoreSwapClient;
  const rejections: unknown[] = [];
  const onRejection = (e: unknown): void => void rejections.push(e);
  const quiet = { warn: console.warn, error: console.error, log: console.log };

  before(async () => {
    sim = await startSimulator({ port: 0 });
    process.on('unhandledRejection', onRejection);
    // The library logs every route it skips or quotes at warn/error level; keep the test output readable.
    console.warn = () => {};
    console.error = () => {};
    sdk = new BitflowSDK({
      BITFLOW_API_HOST: sim.coreUrl,
      BITFLOW_API_KEY: DEFAULT_SIM_API_KEY,
      READONLY_CALL_API_HOST: sim.nodeUrl,
      KEEPER_API_HOST: `${sim.coreUrl}/keeper-not-served`,
      KEEPER_API_KEY: 'placeholder-keeper-key',
    });
    ours = createCoreSwapClient({
      apiHost: sim.coreUrl,
      apiKey: DEFAULT_SIM_API_KEY,
      readOnlyHost: sim.nodeUrl,
    });
  });
  after(async () => {
    console.warn = quiet.warn;
    console.error = quiet.error;
    process.off('unhandledRejection', onRejection);
    await ours.close();
    await sim.close();
  });

  it('getAvailableTokens, getAllPossibleTokenY, getAllPossibleTokenYRoutes', async () => {
    const tokens = await sdk.getAvailableTokens();
    const mine = await ours.getAvailableTokens();
    assert.deepEqual(
      tokens.map((t) => [t.tokenId, t.symbol, t.tokenContract, t.tokenDecimals]).sort(),
      mine.map((t) => [t.tokenId, t.symbol, t.contract, t.decimals]).sort(),
    );
    const ys = await sdk.getAllPossibleTokenY('token-sbtc');
    assert.deepEqual([...ys].sort(), (await ours.getAllPossibleTokenY('token-sbtc')).sort());
    assert.ok(ys.includes('token-usdcx') && ys.includes('token-stx'));
    const routes = await sdk.getAllPossibleTokenYRoutes('token-sbtc', 'token-usdcx');
    assert.equal(routes.length, 1);
    assert.equal((await ours.getAllPossibleTokenYRoutes('token-sbtc', 'token-usdcx')).length, 1);
  });

  for (const [x, y, amount, decimalsIn] of [
    ['token-sbtc', 'token-usdcx', '0.1', 8],
    ['token-usdcx', 'token-sbtc', '2500', 6],
    ['token-stx', 'token-usdcx', '1234.5', 6],
  ] as const) {
    it(`getQuoteForRoute ${amount} ${x} -> ${y} agrees with our exact quote, and getSwapParams succeeds`, async () => {
      const q = await sdk.getQuoteForRoute(x, y, Number(amount));
      assert.ok(q.bestRoute, `a best route: ${JSON.stringify(q.allRoutes.map((r) => r.error ?? null))}`);
      const base = BigInt(Math.round(Number(amount) * 10 ** decimalsIn));
      const mine = await ours.getQuoteForRoute(x, y, base);
      assert.ok(mine.bestRoute);
      const outDecimals = mine.bestRoute.route.tokenYDecimals;
      const theirs = q.bestRoute.quote as number;
      const exact = Number(mine.bestRoute.amountOut) / 10 ** outDecimals;
      // The library divides a bigint by 10^decimals in floating point: agree to its rounding.
      assert.ok(Math.abs(theirs - exact) <= Math.abs(exact) * 1e-12, `library ${theirs} vs ours ${exact}`);

      const params = await sdk.getSwapParams(
        {
          route: q.bestRoute.route,
          amount: Number(amount),
          tokenXDecimals: q.bestRoute.tokenXDecimals,
          tokenYDecimals: q.bestRoute.tokenYDecimals,
        },
        SENDER,
        0.01,
      );
      assert.equal(
        `${params.contractAddress}.${params.contractName}`,
        mine.bestRoute.route.swapData.contract,
      );
      assert.equal(params.functionName, mine.bestRoute.route.swapData.function);
      assert.equal(params.functionArgs.length, 6, 'pool, x, y, amount, min out, deadline');
      assert.ok(params.postConditions.length >= 2);
      const ourParams = await ours.getSwapParams(mine.bestRoute, SENDER, '0.01');
      assert.equal(ourParams.functionName, params.functionName);
      // Same amount in; the minimum out at 1% agrees to the library's float rounding of the slippage factor.
      const theirArgs = params.functionArgs as Array<{ type: string; value?: unknown }>;
      assert.equal(BigInt(String(theirArgs[3]!.value)), ourParams.amountIn);
      const theirMin = BigInt(String(theirArgs[4]!.value));
      const diff = theirMin > ourParams.minOut ? theirMin - ourParams.minOut : ourParams.minOut - theirMin;
      assert.ok(diff <= 1n, `library min ${theirMin} vs ours ${ourParams.minOut}`);
    });
  }

  it('no unhandled rejection came from the library', () => {
    assert.deepEqual(rejections, []);
  });
});
