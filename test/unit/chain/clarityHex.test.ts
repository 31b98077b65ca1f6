/** The fast Clarity serializer (core/tx/clarityHex.ts) writes exactly what stacks.js `cvToHex` writes. */
import * as assert from 'node:assert/strict';
import {
  Cl,
  cvToHex,
  Pc,
  postConditionToHex,
  type ClarityValue,
  type PostCondition,
} from '@stacks/transactions';
import fc from 'fast-check';
import { clarityHex, postConditionHex } from '../../../core/chain/clarityHex';

const ADDR = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const MAX_U128 = (1n << 128n) - 1n;

const same = (cv: ClarityValue) => assert.equal(clarityHex(cv), cvToHex(cv).slice(2), Cl.prettyPrint(cv));

describe('clarityHex', () => {
  it('matches cvToHex on the router shapes, edge integers and fallbacks', () => {
    const [a, n] = POOL.split('.') as [string, string];
    for (const cv of [
      Cl.int(0),
      Cl.int(-1),
      Cl.int(-(1n << 127n)),
      Cl.int((1n << 127n) - 1n),
      Cl.uint(0),
      Cl.uint(MAX_U128),
      Cl.bool(true),
      Cl.bool(false),
      Cl.none(),
      Cl.some(Cl.uint(7)),
      Cl.standardPrincipal(ADDR),
      Cl.contractPrincipal(a, n),
      Cl.list([]),
      Cl.list([Cl.tuple({ z: Cl.int(1), a: Cl.uint(2), 'm-k': Cl.contractPrincipal(a, n) })]),
      Cl.tuple({ b: Cl.some(Cl.tuple({ y: Cl.none(), x: Cl.bool(true) })), a: Cl.list([Cl.int(-5)]) }),
      Cl.stringAscii('not a fast-path type'),
      Cl.bufferFromHex('00ff'),
    ])
      same(cv);
  });

  it('matches cvToHex on random tuples of ints, uints and principals', () => {
    const [a, n] = POOL.split('.') as [string, string];
    const value = fc.oneof(
      fc.bigInt({ min: -(1n << 127n), max: (1n << 127n) - 1n }).map((v) => Cl.int(v)),
      fc.bigInt({ min: 0n, max: MAX_U128 }).map((v) => Cl.uint(v)),
      fc.constant(Cl.contractPrincipal(a, n)),
      fc.constant(Cl.standardPrincipal(ADDR)),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), value, { minKeys: 1, maxKeys: 9 }),
        (d) => same(Cl.list([Cl.tuple(d), Cl.tuple(d)])),
      ),
      { numRuns: 200 },
    );
  });

  it('postConditionHex matches postConditionToHex on every condition kind, comparator and principal', () => {
    const [a] = POOL.split('.') as [string, string];
    const asset = `${POOL}::pool-token` as const;
    const conds: PostCondition[] = [];
    for (const who of [ADDR, POOL, 'origin']) {
      const p = who === 'origin' ? Pc.origin() : Pc.principal(who);
      for (const amount of [0n, 1n, 150_000n, (1n << 64n) - 1n]) {
        conds.push(p.willSendEq(amount).ustx(), p.willSendLte(amount).ustx(), p.willSendGte(amount).ustx());
        conds.push(p.willSendGt(amount).ft(POOL, 'pool-token'), p.willSendLt(amount).ft(POOL, 'pool-token'));
      }
      const id = Cl.tuple({ 'token-id': Cl.uint(639), owner: Cl.principal(ADDR) });
      conds.push(p.willMaybeSendAsset().nft(asset, id), p.willSendAsset().nft(asset, Cl.uint(3)));
      conds.push(p.willNotSendAsset().nft(asset, Cl.stringAscii('x')));
    }
    // Amounts written as strings, and a contract principal whose address is the standard one's.
    conds.push({ type: 'stx-postcondition', address: ADDR, condition: 'lte', amount: '123456' });
    conds.push({ type: 'ft-postcondition', address: `${a}.other-name`, condition: 'eq', amount: 5n, asset });
    for (const pc of conds) assert.equal(postConditionHex(pc), postConditionToHex(pc).replace(/^0x/, ''));
  });

  it('postConditionHex refuses what stacks.js refuses (an amount above u64)', () => {
    const pc: PostCondition = {
      type: 'stx-postcondition',
      address: ADDR,
      condition: 'eq',
      amount: 1n << 64n,
    };
    assert.throws(() => postConditionToHex(pc));
    assert.throws(() => postConditionHex(pc));
  });

  it('names beyond 128 characters go to stacks.js (which refuses them), never a wrong length byte', () => {
    const long = 'c'.repeat(129);
    const pcs: PostCondition[] = [
      { type: 'stx-postcondition', address: `${ADDR}.${long}`, condition: 'eq', amount: 1n },
      { type: 'ft-postcondition', address: ADDR, condition: 'eq', amount: 1n, asset: `${ADDR}.${long}::t` },
    ];
    for (const pc of pcs) {
      assert.throws(() => postConditionToHex(pc));
      assert.throws(() => postConditionHex(pc));
    }
  });
});
