import assert from 'node:assert/strict';
import { Cl, type ClarityValue } from '@stacks/transactions';
import { CowBins, executeCall, MemoryChainState, type ChainCall } from '../../../core/chain/index';
import type { RouterConfig } from '../../../core/chain/deployments';
import { bin, testPool } from './pools';
import {
  BLOCK_LIMIT,
  FUNCTION_COSTS,
  V12_MARGIN,
  blockShare,
  callCost,
  maxUnitsWithin,
} from '../../../core/chain/costs';

describe('costs: the block budget of router calls', () => {
  it('a position into a bin with no shares adds perNewBin', () => {
    const f = FUNCTION_COSTS['add-liquidity-multi']!;
    const plain = callCost('add-liquidity-multi', 10, 'v-1-1')!;
    const fresh = callCost('add-liquidity-multi', 10, 'v-1-1', { newBins: 4 })!;
    assert.equal(fresh.readCount - plain.readCount, 4 * f.perNewBin!.readCount);
    assert.equal(plain.readCount, f.base.readCount + 10 * f.per.readCount);
  });

  it('v-1-2 adds V12_MARGIN once per call', () => {
    const a = callCost('swap-multi', 5, 'v-1-1')!;
    const b = callCost('swap-multi', 5, 'v-1-2')!;
    assert.equal(b.readCount - a.readCount, V12_MARGIN.readCount);
  });

  it('maxUnitsWithin is the last count within the share, fewer when every bin is new', () => {
    for (const newBins of [false, true]) {
      const n = maxUnitsWithin('add-liquidity-multi', 1, 'v-1-1', { newBins })!;
      const cost = (k: number) => callCost('add-liquidity-multi', k, 'v-1-1', { newBins: newBins ? k : 0 })!;
      assert.ok(blockShare(cost(n)).share <= 1);
      assert.ok(blockShare(cost(n + 1)).share > 1);
    }
    assert.equal(maxUnitsWithin('add-liquidity-multi', 1, 'v-1-1', { newBins: true }), 241);
    assert.equal(maxUnitsWithin('swap-x-for-y-simple-multi', 1, 'v-1-1'), 283);
    assert.equal(maxUnitsWithin('withdraw-liquidity-multi', 1, 'v-1-1', { newBins: true }), 340);
  });

  it('read count is the binding dimension', () => {
    const c = callCost('move-liquidity-multi', 200, 'v-1-1')!;
    assert.deepEqual(blockShare(c), { share: c.readCount / BLOCK_LIMIT.readCount, dimension: 'readCount' });
  });

  it('a function outside the table has no cost', () => {
    assert.equal(callCost('withdraw-liquidity-same-multi', 3, 'v-1-1'), undefined);
    assert.equal(maxUnitsWithin('withdraw-liquidity-same-multi', 1, 'v-1-1'), undefined);
  });
});

describe('costs: what an executed call counts', () => {
  const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
  const ROUTERS: RouterConfig = {
    liquidityRouter: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-liquidity-router-v-1-1',
    swapRouter: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-swap-router-v-1-1',
    version: 'v-1-1',
    stxWrapper: 'SM1793C4R5PZ4NS4VQ4WMP7SKKYVH8JZEWSZ9HCCR.token-stx-v-1-2',
  };
  const FEES = {
    x_protocol: 0n,
    x_provider: 0n,
    x_variable: 0n,
    y_protocol: 0n,
    y_provider: 0n,
    y_variable: 0n,
  };
  const state = (): MemoryChainState => {
    const bins = new Map([
      [-1, bin(-1, 0n, 50_000n)],
      [0, bin(0, 50_000n, 50_000n)],
    ]);
    const pool = testPool(FEES, new CowBins(bins), 0, {
      positions: new Map([[SENDER, new Map([[0, 10_000n]])]]),
    });
    return new MemoryChainState(
      [pool],
      new Map([
        [pool.tokenX, 'x'],
        [pool.tokenY, 'y'],
      ]),
    );
  };
  const principal = (id: string) => Cl.contractPrincipal(...(id.split('.') as [string, string]));
  const traits = (s: MemoryChainState): Record<string, ClarityValue> => {
    const p = [...s.pools.values()][0]!;
    return {
      'pool-trait': principal(p.id),
      'x-token-trait': principal(p.tokenX),
      'y-token-trait': principal(p.tokenY),
    };
  };
  const call = (contract: string, functionName: string, args: ClarityValue[]): ChainCall => ({
    contract,
    functionName,
    args,
    postConditions: [],
    deny: false,
    sender: SENDER,
  });

  it('an add counts the bins it creates and the positions moving both tokens', () => {
    const s = state();
    const items = [
      { bin: -1, x: 0n, y: 1_000n },
      { bin: 0, x: 1_000n, y: 1_000n },
      { bin: -5, x: 0n, y: 100_000n },
    ];
    const r = executeCall(
      s,
      call(ROUTERS.liquidityRouter, 'add-liquidity-multi', [
        Cl.list(
          items.map((i) =>
            Cl.tuple({
              ...traits(s),
              'bin-id': Cl.int(i.bin),
              'x-amount': Cl.uint(i.x),
              'y-amount': Cl.uint(i.y),
              'min-dlp': Cl.uint(1),
              'max-x-liquidity-fee': Cl.uint(10n ** 30n),
              'max-y-liquidity-fee': Cl.uint(10n ** 30n),
            }),
          ),
        ),
      ]),
      { routers: ROUTERS },
    );
    assert.equal(r.status, 'ok');
    if (r.status !== 'ok') return;
    assert.deepEqual([r.units, r.newBins, r.bothTokens], [3, 1, 1]);
    assert.deepEqual(r.cost, callCost('add-liquidity-multi', 3, 'v-1-1', { newBins: 1, bothTokens: 1 }));
  });

  it('a withdraw from the active bin receives both tokens', () => {
    const s = state();
    const r = executeCall(
      s,
      call(ROUTERS.liquidityRouter, 'withdraw-liquidity-multi', [
        Cl.list([
          Cl.tuple({
            ...traits(s),
            'bin-id': Cl.int(0),
            amount: Cl.uint(10_000n),
            'min-x-amount': Cl.uint(0),
            'min-y-amount': Cl.uint(1),
          }),
        ]),
      ]),
      { routers: ROUTERS },
    );
    assert.equal(r.status, 'ok');
    if (r.status !== 'ok') return;
    assert.deepEqual([r.units, r.newBins, r.bothTokens], [1, 0, 1]);
    assert.deepEqual(r.cost, callCost('withdraw-liquidity-multi', 1, 'v-1-1', { bothTokens: 1 }));
  });
});
