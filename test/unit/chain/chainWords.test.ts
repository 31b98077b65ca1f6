/**
 * The chain model reports the error the chain reports (issue 31): a runtime abort (u128 underflow or
 * overflow) inside a router's fold stops the whole call as that abort, never as the list's
 * ERR_NO_RESULT_DATA; and the core swap's let-bindings (its arithmetic) run before the body's
 * `amount > 0` assert, so a zero amount on a bin whose x balance times the price leaves u128 aborts with
 * RUNTIME_OVERFLOW, not ERR_INVALID_AMOUNT (dlmm-core-v-1-1 swap-y-for-x, read at BitflowFinance/bitflow-dlmm
 * commit c561b4b).
 */
import assert from 'node:assert/strict';
import { Cl, type ClarityValue } from '@stacks/transactions';
import {
  CowBins,
  executeCall,
  MemoryChainState,
  revertWords,
  type ChainCall,
  type ExecResult,
} from '../../../core/chain/index';
import { MAX_UINT128 } from '../../../core/dlmm/bins';
import { U128RangeError, swapYForXInBin, type BinBalances } from '../../../core/dlmm/math';
import type { RouterConfig } from '../../../core/chain/deployments';
import { bin, price, testPool } from './pools';

const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
const ROUTERS: RouterConfig = {
  liquidityRouter: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-liquidity-router-v-1-1',
  swapRouter: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-swap-router-v-1-1',
  version: 'v-1-1',
  stxWrapper: 'SM1793C4R5PZ4NS4VQ4WMP7SKKYVH8JZEWSZ9HCCR.token-stx-v-1-2',
};
const FEES = {
  x_protocol: 10n,
  x_provider: 20n,
  x_variable: 0n,
  y_protocol: 10n,
  y_provider: 20n,
  y_variable: 0n,
};

const split = (id: string): [string, string] => id.split('.') as [string, string];

function world(bins: Map<number, BinBalances>, active: number, positions = new Map<number, bigint>()) {
  const pool = testPool(FEES, new CowBins(bins), active, { positions: new Map([[SENDER, positions]]) });
  return new MemoryChainState(
    [pool],
    new Map([
      [pool.tokenX, 'x'],
      [pool.tokenY, 'y'],
    ]),
  );
}

function traits(s: MemoryChainState): Record<string, ClarityValue> {
  const p = [...s.pools.values()][0]!;
  return {
    'pool-trait': Cl.contractPrincipal(...split(p.id)),
    'x-token-trait': Cl.contractPrincipal(...split(p.tokenX)),
    'y-token-trait': Cl.contractPrincipal(...split(p.tokenY)),
  };
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

describe("chain model: the chain's words for a revert (issue 31)", () => {
  // Six positions on bins -3..2 planned while the active bin was 0; the sender holds every share of them.
  // Bins below the active bin hold y only, above it x only.
  const planned = new Map<number, BinBalances>([
    [-3, bin(-3, 0n, 10_000n)],
    [-2, bin(-2, 0n, 50_000n)],
    [-1, bin(-1, 0n, 20_000n)],
    [0, bin(0, 30_000n, 30_000n)],
    [1, bin(1, 40_000n, 0n)],
    [2, bin(2, 40_000n, 0n)],
    [3, bin(3, 40_000n, 0n)],
  ]);
  const held = new Map([...planned].filter(([id]) => id <= 2).map(([id, b]) => [id, b.shares]));

  /** withdraw-relative-liquidity-multi of every held share, offsets from the active bin 0 the plan read. */
  function sixWithdraws(s: MemoryChainState): ChainCall {
    return call(ROUTERS.liquidityRouter, 'withdraw-relative-liquidity-multi', [
      Cl.list(
        [...held].map(([id, shares]) =>
          Cl.tuple({
            ...traits(s),
            'active-bin-id-offset': Cl.int(id),
            amount: Cl.uint(shares),
            'min-x-amount': Cl.uint(id >= 0 ? 1 : 0),
            'min-y-amount': Cl.uint(id <= 0 ? 1 : 0),
          }),
        ),
      ),
    ]);
  }

  it('the six-position relative withdraw succeeds where it was planned (active bin 0)', () => {
    const s = world(new Map(planned), 0, new Map(held));
    const r = run(s, sixWithdraws(s));
    assert.equal(r.status, 'ok', r.status === 'reverted' ? revertWords(r) : r.status);
  });

  it('after the active bin moved one bin, the underflow in element 2 aborts the whole call as RUNTIME_UNDERFLOW, never ERR_NO_RESULT_DATA', () => {
    // Active bin now 1: element 1 (offset -3) withdraws 11,000 shares from bin -2 (51,000 shares: fine);
    // element 2 (offset -2) withdraws 51,000 shares from bin -1, which has 21,000: y = 51,000 * 20,000 /
    // 21,000 = 48,571 > 20,000, and the contract's (- y-balance y) underflows in its let-bindings.
    const s = world(new Map(planned), 1, new Map(held));
    const before = JSON.stringify([...s.pools.values()][0]!.bins.get(-2), (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
    const r = run(s, sixWithdraws(s));
    assert.equal(r.status, 'reverted');
    if (r.status !== 'reverted') return;
    assert.equal(r.error, 'RUNTIME_UNDERFLOW');
    assert.equal(r.cause, 'RUNTIME_UNDERFLOW');
    assert.equal(r.code, undefined, 'a runtime abort has no (err uNNNN) code');
    assert.equal(r.item, 1);
    assert.match(
      revertWords(r),
      /^RUNTIME_UNDERFLOW \(list element 2\): y balance after withdraw is below zero/,
    );
    assert.doesNotMatch(revertWords(r), /ERR_NO_RESULT_DATA|u5001/);
    // All or nothing: element 1's withdraw from bin -2 is rolled back.
    const after = JSON.stringify([...s.pools.values()][0]!.bins.get(-2), (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
    assert.equal(after, before);
  });

  it("an error value in a non-last element is still reported as the router's ERR_NO_RESULT_DATA u5001", () => {
    // Same drift, but element 2 asks only what bin -1 can pay and more than the sender holds there
    // (pool burn: ERR_INVALID_AMOUNT u3002, an error value the next fold step unwraps into u5001).
    const s = world(new Map(planned), 1, new Map(held));
    const c = call(ROUTERS.liquidityRouter, 'withdraw-relative-liquidity-multi', [
      Cl.list(
        [-3, -2, 0].map((offset) =>
          Cl.tuple({
            ...traits(s),
            'active-bin-id-offset': Cl.int(offset),
            amount: Cl.uint(offset === -2 ? 21_000n : 1_000n),
            'min-x-amount': Cl.uint(0),
            'min-y-amount': Cl.uint(1),
          }),
        ),
      ),
    ]);
    const positions = [...s.pools.values()][0]!.positions.get(SENDER)!;
    positions.set(-1, 20_000n);
    const r = run(s, c);
    assert.equal(r.status, 'reverted');
    if (r.status !== 'reverted') return;
    assert.equal(r.error, 'ERR_NO_RESULT_DATA');
    assert.equal(r.code, 5001);
    assert.equal(r.cause, 'ERR_INVALID_AMOUNT');
    assert.equal(r.causeCode, 3002);
    assert.equal(r.item, 1);
  });

  // A bin whose x balance times its price leaves u128: (* x-balance bin-price) in swap-y-for-x's let.
  const huge = (): Map<number, BinBalances> =>
    new Map([[0, { price: price(0), reserve_x: MAX_UINT128 / 2n, reserve_y: 5n, shares: 1_000n }]]);

  it('one-bin swap-y-for-x with amount 0 on a near-u128 x balance overflows before the amount assert', () => {
    const b = huge().get(0)!;
    assert.throws(
      () => swapYForXInBin(b, 0n, FEES),
      (e: unknown) => e instanceof U128RangeError && e.kind === 'RUNTIME_OVERFLOW',
    );
    // On an ordinary bin the same zero amount meets the assert.
    assert.throws(
      () => swapYForXInBin(bin(0, 1_000n, 1_000n), 0n, FEES),
      (e: unknown) => !(e instanceof U128RangeError) && /must be > 0/.test(String(e)),
    );
  });

  it('a swap-multi step of amount 0 there reverts with RUNTIME_OVERFLOW (not ERR_INVALID_AMOUNT), even as a non-last step', () => {
    const s = world(huge(), 0);
    const step = (amount: bigint) =>
      Cl.tuple({
        ...traits(s),
        'expected-bin-id': Cl.int(0),
        amount: Cl.uint(amount),
        'min-received': Cl.uint(0),
        'x-for-y': Cl.bool(false),
      });
    for (const steps of [[step(0n)], [step(0n), step(0n)]]) {
      const r = run(s, call(ROUTERS.swapRouter, 'swap-multi', [Cl.list(steps), Cl.uint(5)]));
      assert.equal(r.status, 'reverted');
      if (r.status !== 'reverted') return;
      assert.equal(r.error, 'RUNTIME_OVERFLOW', revertWords(r));
      assert.equal(r.code, undefined);
      assert.equal(r.item, 0);
    }
  });

  it('a simple-multi swap overflowing inside its 350-step fold reverts as RUNTIME_OVERFLOW (not u2001, not a thrown error)', () => {
    const s = world(huge(), 0);
    const t = traits(s);
    const r = run(
      s,
      call(ROUTERS.swapRouter, 'swap-y-for-x-simple-multi', [
        t['pool-trait']!,
        t['x-token-trait']!,
        t['y-token-trait']!,
        Cl.uint(1_000),
        Cl.uint(0),
      ]),
    );
    assert.equal(r.status, 'reverted');
    if (r.status !== 'reverted') return;
    assert.equal(r.error, 'RUNTIME_OVERFLOW', revertWords(r));
    assert.equal(r.code, undefined);
  });

  it('a swap-multi step of amount 0 on an ordinary bin is ERR_INVALID_AMOUNT u1002', () => {
    const s = world(new Map([[0, bin(0, 1_000n, 1_000n)]]), 0);
    const r = run(
      s,
      call(ROUTERS.swapRouter, 'swap-multi', [
        Cl.list([
          Cl.tuple({
            ...traits(s),
            'expected-bin-id': Cl.int(0),
            amount: Cl.uint(0),
            'min-received': Cl.uint(0),
            'x-for-y': Cl.bool(false),
          }),
        ]),
        Cl.uint(5),
      ]),
    );
    assert.equal(r.status, 'reverted');
    if (r.status !== 'reverted') return;
    assert.equal(r.error, 'ERR_INVALID_AMOUNT');
    assert.equal(r.code, 1002);
  });

  it("the v-1-2 routers: a passed deadline is u2012 ERR_DEADLINE_PASSED on the swap router; the liquidity router's has no published code", () => {
    const v12: RouterConfig = {
      ...ROUTERS,
      liquidityRouter: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-liquidity-router-v-1-2',
      swapRouter: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-swap-router-v-1-2',
      version: 'v-1-2',
    };
    const s = world(new Map([[0, bin(0, 1_000n, 1_000n)]]), 0);
    const now = () => 2_000_000_000_000; // ms; the deadline u1 (unix seconds) is long past
    const swap = executeCall(
      s,
      call(v12.swapRouter, 'swap-multi', [Cl.list([]), Cl.uint(5), Cl.some(Cl.uint(1))]),
      { routers: v12, now },
    );
    assert.equal(swap.status, 'reverted');
    if (swap.status !== 'reverted') return;
    assert.equal(swap.error, 'ERR_DEADLINE_PASSED');
    assert.equal(swap.code, 2012);
    const liq = executeCall(
      s,
      call(v12.liquidityRouter, 'withdraw-liquidity-multi', [Cl.list([]), Cl.some(Cl.uint(1))]),
      { routers: v12, now },
    );
    assert.equal(liq.status, 'reverted');
    if (liq.status !== 'reverted') return;
    assert.equal(liq.error, 'ERR_DEADLINE_PASSED');
    assert.equal(liq.code, undefined, 'no source gives the liquidity router v-1-2 deadline code');
    // Without a deadline the v-1-2 liquidity router's own errors carry its codes (u5005 here).
    const empty = executeCall(
      s,
      call(v12.liquidityRouter, 'withdraw-liquidity-multi', [Cl.list([]), Cl.none()]),
      { routers: v12, now },
    );
    assert.equal(empty.status, 'reverted');
    if (empty.status !== 'reverted') return;
    assert.equal(empty.error, 'ERR_EMPTY_POSITIONS_LIST');
    assert.equal(empty.code, 5005);
  });
});

/**
 * Every core function the model executes compares the token traits with the pool's tokens in its body,
 * after all its let-bindings (dlmm-core-v-1-1 at BitflowFinance/bitflow-dlmm commit c561b4b: swap-x-for-y,
 * swap-y-for-x, add-liquidity and move-liquidity assert the pool enabled, then x-token-trait
 * (ERR_INVALID_X_TOKEN u1018), then y-token-trait (ERR_INVALID_Y_TOKEN u1019); withdraw-liquidity asserts the
 * two traits only). So a wrong trait on a call whose arithmetic aborts is the abort, and the routers' own
 * checks before the core call (bin range) come first.
 */
describe('chain model: the token traits are checked where the core contract checks them (issue 31)', () => {
  const OTHER = Cl.contractPrincipal('SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4', 'other-token');
  /** The pool's traits with the x (or y) token trait replaced by another token's. */
  const wrong = (s: MemoryChainState, side: 'x' | 'y'): Record<string, ClarityValue> => ({
    ...traits(s),
    [`${side}-token-trait`]: OTHER,
  });
  const reverted = (r: ExecResult) => {
    assert.equal(r.status, 'reverted', r.status);
    if (r.status !== 'reverted') throw new Error('not reverted');
    return r;
  };
  const huge = (): Map<number, BinBalances> =>
    new Map([[0, { price: price(0), reserve_x: MAX_UINT128 / 2n, reserve_y: 5n, shares: 1_000n }]]);
  const ordinary = (): Map<number, BinBalances> => new Map([[0, bin(0, 1_000n, 1_000n)]]);

  const swapStep = (t: Record<string, ClarityValue>, amount: bigint) =>
    call(ROUTERS.swapRouter, 'swap-multi', [
      Cl.list([
        Cl.tuple({
          ...t,
          'expected-bin-id': Cl.int(0),
          amount: Cl.uint(amount),
          'min-received': Cl.uint(0),
          'x-for-y': Cl.bool(false),
        }),
      ]),
      Cl.uint(5),
    ]);

  it('swap-y-for-x: a wrong x trait on a bin whose arithmetic overflows is RUNTIME_OVERFLOW; on an ordinary bin it is ERR_INVALID_X_TOKEN u1018', () => {
    const over = world(huge(), 0);
    const r = reverted(run(over, swapStep(wrong(over, 'x'), 1_000n)));
    assert.equal(r.error, 'RUNTIME_OVERFLOW', revertWords(r));
    assert.equal(r.code, undefined);
    const s = world(ordinary(), 0);
    const x = reverted(run(s, swapStep(wrong(s, 'x'), 1_000n)));
    assert.equal(x.error, 'ERR_INVALID_X_TOKEN', revertWords(x));
    assert.equal(x.code, 1018);
    const y = reverted(run(s, swapStep(wrong(s, 'y'), 1_000n)));
    assert.equal(y.error, 'ERR_INVALID_Y_TOKEN', revertWords(y));
    assert.equal(y.code, 1019);
  });

  it('swap: the trait asserts come before the amount > 0 assert (amount 0, wrong y trait: u1019)', () => {
    const s = world(ordinary(), 0);
    const r = reverted(run(s, swapStep(wrong(s, 'y'), 0n)));
    assert.equal(r.error, 'ERR_INVALID_Y_TOKEN', revertWords(r));
  });

  it('swap-x-for-y: a wrong y trait on a bin whose y balance times 1e8 overflows is RUNTIME_OVERFLOW', () => {
    const bins = new Map([
      [0, { price: price(0), reserve_x: 5n, reserve_y: MAX_UINT128 / 2n, shares: 1_000n }],
    ]);
    const s = world(bins, 0);
    const step = call(ROUTERS.swapRouter, 'swap-multi', [
      Cl.list([
        Cl.tuple({
          ...wrong(s, 'y'),
          'expected-bin-id': Cl.int(0),
          amount: Cl.uint(1_000),
          'min-received': Cl.uint(0),
          'x-for-y': Cl.bool(true),
        }),
      ]),
      Cl.uint(5),
    ]);
    const r = reverted(run(s, step));
    assert.equal(r.error, 'RUNTIME_OVERFLOW', revertWords(r));
  });

  it('simple-multi: a wrong trait fails inside the 350-step fold (u2001 over u1018); amount 0 makes no core call and compares no trait', () => {
    const s = world(ordinary(), 0);
    const t = wrong(s, 'x');
    const simple = (amount: bigint, min: bigint) =>
      call(ROUTERS.swapRouter, 'swap-y-for-x-simple-multi', [
        t['pool-trait']!,
        t['x-token-trait']!,
        t['y-token-trait']!,
        Cl.uint(amount),
        Cl.uint(min),
      ]);
    const r = reverted(run(s, simple(1_000n, 0n)));
    assert.equal(r.error, 'ERR_NO_RESULT_DATA', revertWords(r));
    assert.equal(r.code, 2001);
    assert.equal(r.cause, 'ERR_INVALID_X_TOKEN');
    assert.equal(r.causeCode, 1018);
    assert.equal(run(s, simple(0n, 0n)).status, 'ok');
    const min = reverted(run(s, simple(0n, 1n)));
    assert.equal(min.error, 'ERR_MINIMUM_RECEIVED', revertWords(min));
  });

  const withdraw = (t: Record<string, ClarityValue>, binId: number, amount: bigint) =>
    call(ROUTERS.liquidityRouter, 'withdraw-liquidity-multi', [
      Cl.list([
        Cl.tuple({
          ...t,
          'bin-id': Cl.int(binId),
          amount: Cl.uint(amount),
          'min-x-amount': Cl.uint(0),
          'min-y-amount': Cl.uint(1),
        }),
      ]),
    ]);

  it('withdraw-liquidity: a wrong x trait with more shares than the bin has underflows first (RUNTIME_UNDERFLOW); a fitting amount is ERR_INVALID_X_TOKEN u1018', () => {
    const s = world(ordinary(), 0, new Map([[0, 3_000n]]));
    const under = reverted(run(s, withdraw(wrong(s, 'x'), 0, 30_000n)));
    assert.equal(under.error, 'RUNTIME_UNDERFLOW', revertWords(under));
    assert.equal(under.code, undefined);
    const r = reverted(run(s, withdraw(wrong(s, 'x'), 0, 1_000n)));
    assert.equal(r.error, 'ERR_INVALID_X_TOKEN', revertWords(r));
    assert.equal(r.code, 1018);
  });

  it("withdraw-liquidity: the let's own assert (no bin shares, u1048) comes before the traits; a disabled pool is no withdraw error", () => {
    const empty = world(new Map([[0, { ...bin(0, 0n, 0n), shares: 0n }]]), 0);
    const r = reverted(run(empty, withdraw(wrong(empty, 'y'), 0, 1n)));
    assert.equal(r.error, 'ERR_NO_BIN_SHARES', revertWords(r));
    assert.equal(r.code, 1048);
    const s = world(ordinary(), 0, new Map([[0, 3_000n]]));
    [...s.pools.values()][0]!.active = false;
    const y = reverted(run(s, withdraw(wrong(s, 'y'), 0, 1_000n)));
    assert.equal(y.error, 'ERR_INVALID_Y_TOKEN', revertWords(y));
    assert.equal(run(s, withdraw(traits(s), 0, 1_000n)).status, 'ok');
  });

  const add = (t: Record<string, ClarityValue>, binId: number, x: bigint, y: bigint) =>
    call(ROUTERS.liquidityRouter, 'add-liquidity-multi', [
      Cl.list([
        Cl.tuple({
          ...t,
          'bin-id': Cl.int(binId),
          'x-amount': Cl.uint(x),
          'y-amount': Cl.uint(y),
          'min-dlp': Cl.uint(1),
          'max-x-liquidity-fee': Cl.uint(MAX_UINT128),
          'max-y-liquidity-fee': Cl.uint(MAX_UINT128),
        }),
      ]),
    ]);

  it('add-liquidity: a wrong y trait with an x amount whose value overflows is RUNTIME_OVERFLOW; an ordinary add is ERR_INVALID_Y_TOKEN u1019', () => {
    const s = world(ordinary(), 0);
    const over = reverted(run(s, add(wrong(s, 'y'), 0, MAX_UINT128 / 2n, 0n)));
    assert.equal(over.error, 'RUNTIME_OVERFLOW', revertWords(over));
    const r = reverted(run(s, add(wrong(s, 'y'), 0, 1_000n, 1_000n)));
    assert.equal(r.error, 'ERR_INVALID_Y_TOKEN', revertWords(r));
    assert.equal(r.code, 1019);
  });

  it('add-liquidity: the pool-enabled assert comes after the arithmetic and before the traits', () => {
    const s = world(ordinary(), 0);
    [...s.pools.values()][0]!.active = false;
    const over = reverted(run(s, add(wrong(s, 'x'), 0, MAX_UINT128 / 2n, 0n)));
    assert.equal(over.error, 'RUNTIME_OVERFLOW', revertWords(over));
    const r = reverted(run(s, add(wrong(s, 'x'), 0, 1_000n, 1_000n)));
    assert.equal(r.error, 'ERR_POOL_DISABLED', revertWords(r));
    assert.equal(r.code, 1010);
  });

  it("the router's bin-range check runs before the core call: bin 600 with a wrong trait is ERR_INVALID_BIN_ID u5007", () => {
    const s = world(ordinary(), 0);
    const r = reverted(run(s, add(wrong(s, 'x'), 600, 1_000n, 0n)));
    assert.equal(r.error, 'ERR_INVALID_BIN_ID', revertWords(r));
    assert.equal(r.code, 5007);
  });

  const move = (t: Record<string, ClarityValue>, amount: bigint) =>
    call(ROUTERS.liquidityRouter, 'move-liquidity-multi', [
      Cl.list([
        Cl.tuple({
          ...t,
          'from-bin-id': Cl.int(1),
          'to-bin-id': Cl.int(2),
          amount: Cl.uint(amount),
          'min-dlp': Cl.uint(1),
          'max-x-liquidity-fee': Cl.uint(MAX_UINT128),
          'max-y-liquidity-fee': Cl.uint(MAX_UINT128),
        }),
      ]),
    ]);

  it('move-liquidity: a wrong x trait moving more shares than the from bin has underflows first; a fitting move is ERR_INVALID_X_TOKEN u1018', () => {
    const bins = new Map([
      [0, bin(0, 1_000n, 1_000n)],
      [1, bin(1, 40_000n, 0n)],
      [2, bin(2, 40_000n, 0n)],
    ]);
    const s = world(bins, 0, new Map([[1, 41_000n]]));
    const under = reverted(run(s, move(wrong(s, 'x'), 82_000n)));
    assert.equal(under.error, 'RUNTIME_UNDERFLOW', revertWords(under));
    const r = reverted(run(s, move(wrong(s, 'x'), 10_000n)));
    assert.equal(r.error, 'ERR_INVALID_X_TOKEN', revertWords(r));
    assert.equal(r.code, 1018);
    assert.equal(run(s, move(traits(s), 10_000n)).status, 'ok');
  });
});
