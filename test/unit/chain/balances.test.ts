/**
 * The chain model's token balances (core/chain/balances.ts through executeCall): the sender's spends are
 * taken from what it holds, in the order the transactions move tokens; a transfer of more than is held
 * fails with the token's (err u1) and the whole call reverts (balances and pools put back); what a withdraw
 * or a swap sends the sender is credited and can fund a later add. Balances that were not read are floors:
 * a spend beyond the floor is reported as unverified, never as a failure or a success.
 */
import assert from 'node:assert/strict';
import { Cl, type ClarityValue } from '@stacks/transactions';
import {
  ChainBalances,
  executeCall,
  MemoryChainState,
  STX_KEY,
  type ChainCall,
  type ExecResult,
} from '../../../core/chain/index';
import { CowBins } from '../../../core/chain/index';
import type { RouterConfig } from '../../../core/chain/deployments';
import { bin, testPool } from './pools';

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

function world(balances: ChainBalances, shares = 0n): MemoryChainState {
  const bins = new Map([
    [-2, bin(-2, 0n, 50_000n)],
    [-1, bin(-1, 0n, 50_000n)],
    [0, bin(0, 50_000n, 50_000n)],
    [1, bin(1, 50_000n, 0n)],
  ]);
  const positions = new Map<string, Map<number, bigint>>();
  if (shares > 0n) positions.set(SENDER, new Map([[-1, shares]]));
  const pool = testPool(FEES, new CowBins(bins), 0, { positions });
  return new MemoryChainState(
    [pool],
    new Map([
      [pool.tokenX, 'x'],
      [pool.tokenY, 'y'],
    ]),
    undefined,
    balances,
  );
}

const poolOf = (s: MemoryChainState) => [...s.pools.values()][0]!;

function traits(s: MemoryChainState): Record<string, ClarityValue> {
  const p = poolOf(s);
  return {
    'pool-trait': Cl.contractPrincipal(...split(p.id)),
    'x-token-trait': Cl.contractPrincipal(...split(p.tokenX)),
    'y-token-trait': Cl.contractPrincipal(...split(p.tokenY)),
  };
}
const split = (id: string): [string, string] => id.split('.') as [string, string];

function addCall(s: MemoryChainState, items: { bin: number; x: bigint; y: bigint }[]): ChainCall {
  return call(ROUTERS.liquidityRouter, 'add-liquidity-multi', [
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
  ]);
}

function withdrawCall(s: MemoryChainState, binId: number, amount: bigint): ChainCall {
  return call(ROUTERS.liquidityRouter, 'withdraw-liquidity-multi', [
    Cl.list([
      Cl.tuple({
        ...traits(s),
        'bin-id': Cl.int(binId),
        amount: Cl.uint(amount),
        'min-x-amount': Cl.uint(0),
        'min-y-amount': Cl.uint(1),
      }),
    ]),
  ]);
}

function swapCall(s: MemoryChainState, xIn: bigint): ChainCall {
  const t = traits(s);
  return call(ROUTERS.swapRouter, 'swap-x-for-y-simple-multi', [
    t['pool-trait']!,
    t['x-token-trait']!,
    t['y-token-trait']!,
    Cl.uint(xIn),
    Cl.uint(0),
  ]);
}

const call = (contract: string, functionName: string, args: ClarityValue[]): ChainCall => ({
  contract,
  functionName,
  args,
  postConditions: [],
  deny: false,
  sender: SENDER,
});

const run = (s: MemoryChainState, c: ChainCall): ExecResult => executeCall(s, c, { routers: ROUTERS });

function held(x: bigint, y: bigint, exact = true): ChainBalances {
  const b = new ChainBalances(exact ? 'zero' : 'unknown');
  const tokenX = 'SP000000000000000000002Q6VF78.x';
  const tokenY = 'SP000000000000000000002Q6VF78.y';
  if (exact || x > 0n) b.set(SENDER, tokenX, { amount: x, exact });
  if (exact || y > 0n) b.set(SENDER, tokenY, { amount: y, exact });
  return b;
}

describe('chain model: the sender spends only what it holds', () => {
  it('an add within the balance takes x and y from it', () => {
    const s = world(held(10_000n, 10_000n));
    const r = run(s, addCall(s, [{ bin: 0, x: 4_000n, y: 3_000n }]));
    assert.equal(r.status, 'ok');
    assert.deepEqual(s.balances!.get(SENDER, poolOf(s).tokenX), { amount: 6_000n, exact: true });
    assert.deepEqual(s.balances!.get(SENDER, poolOf(s).tokenY), { amount: 7_000n, exact: true });
  });

  it("the last element overspending fails with the token's (err u1) and puts everything back", () => {
    const s = world(held(10_000n, 0n));
    const before = poolOf(s).bins.get(1);
    const r = run(
      s,
      addCall(s, [
        { bin: 1, x: 6_000n, y: 0n },
        { bin: 1, x: 5_000n, y: 0n },
      ]),
    );
    assert.equal(r.status, 'reverted');
    if (r.status !== 'reverted') return;
    assert.equal(r.error, 'ERR_INSUFFICIENT_BALANCE');
    assert.equal(r.code, 1);
    assert.equal(r.item, 1);
    assert.deepEqual(r.shortfall, { token: poolOf(s).tokenX, needed: 5_000n, held: 4_000n });
    // All or nothing: the first element's spend and mint are undone too.
    assert.deepEqual(s.balances!.get(SENDER, poolOf(s).tokenX), { amount: 10_000n, exact: true });
    assert.deepEqual(poolOf(s).bins.get(1), before);
  });

  it('an element other than the last overspending is reported as ERR_NO_RESULT_DATA u5001 over the cause', () => {
    const s = world(held(10_000n, 0n));
    const r = run(
      s,
      addCall(s, [
        { bin: 1, x: 11_000n, y: 0n },
        { bin: 1, x: 1n, y: 0n },
      ]),
    );
    assert.equal(r.status, 'reverted');
    if (r.status !== 'reverted') return;
    assert.equal(r.error, 'ERR_NO_RESULT_DATA');
    assert.equal(r.code, 5001);
    assert.equal(r.cause, 'ERR_INSUFFICIENT_BALANCE');
    assert.equal(r.causeCode, 1);
    assert.equal(r.item, 0);
  });

  it('what a withdraw returns funds a later add; one unit more fails', () => {
    const s = world(held(0n, 0n), 20_000n);
    const w = run(s, withdrawCall(s, -1, 20_000n));
    assert.equal(w.status, 'ok');
    const got = s.balances!.get(SENDER, poolOf(s).tokenY).amount;
    assert.ok(got > 0n);
    const more = s.clone();
    assert.equal(run(more, addCall(more, [{ bin: -2, x: 0n, y: got + 1n }])).status, 'reverted');
    const r = run(s, addCall(s, [{ bin: -2, x: 0n, y: got }]));
    assert.equal(r.status, 'ok');
    assert.equal(s.balances!.get(SENDER, poolOf(s).tokenY).amount, 0n);
  });

  it('a swap by a sender holding nothing reverts (the simple swap folds: ERR_NO_RESULT_DATA u2001 over u1)', () => {
    const s = world(held(0n, 0n));
    const r = run(s, swapCall(s, 1_000n));
    assert.equal(r.status, 'reverted');
    if (r.status !== 'reverted') return;
    assert.equal(r.error, 'ERR_NO_RESULT_DATA');
    assert.equal(r.code, 2001);
    assert.equal(r.cause, 'ERR_INSUFFICIENT_BALANCE');
    assert.equal(r.causeCode, 1);
    assert.equal(r.shortfall?.held, 0n);
  });

  it('a swap spends the input and credits the output', () => {
    const s = world(held(1_000n, 0n));
    const r = run(s, swapCall(s, 1_000n));
    assert.equal(r.status, 'ok');
    if (r.status !== 'ok') return;
    const out = r.effects.reduce((a, e) => a + (e.kind === 'swap' ? e.out : 0n), 0n);
    assert.ok(out > 0n);
    assert.equal(s.balances!.get(SENDER, poolOf(s).tokenX).amount, 0n);
    assert.equal(s.balances!.get(SENDER, poolOf(s).tokenY).amount, out);
  });

  it('a balance not read is a floor: spends beyond it are unverified, within what the plan received they are not', () => {
    const s = world(held(0n, 0n, false), 20_000n);
    const first = run(s, addCall(s, [{ bin: 1, x: 500n, y: 0n }]));
    assert.equal(first.status, 'ok');
    if (first.status !== 'ok') return;
    assert.deepEqual(first.unverified, [{ token: poolOf(s).tokenX, needed: 500n, atLeast: 0n }]);
    assert.equal(run(s, withdrawCall(s, -1, 20_000n)).status, 'ok');
    const got = s.balances!.get(SENDER, poolOf(s).tokenY);
    assert.equal(got.exact, false);
    const funded = run(s, addCall(s, [{ bin: -2, x: 0n, y: got.amount }]));
    assert.equal(funded.status, 'ok');
    if (funded.status === 'ok') assert.equal(funded.unverified, undefined);
  });

  it('native STX is keyed by its wrapper', () => {
    const b = new ChainBalances('zero');
    b.set(SENDER, STX_KEY, { amount: 5n, exact: true });
    assert.deepEqual(b.debit(SENDER, STX_KEY, 6n), { ok: false, held: 5n });
    assert.deepEqual(b.debit(SENDER, STX_KEY, 5n), { ok: true });
  });
});
