/**
 * The memoized builders (position-NFT conditions per sender and pool, contract-principal values) give
 * exactly what stacks.js builds from scratch, and still refuse what stacks.js refuses.
 */
import * as assert from 'node:assert/strict';
import { Cl, Pc, postConditionToHex } from '@stacks/transactions';
import { contractCV } from '../../../core/tx/context';
import { fungibleCondition, positionNftCondition, sharesCondition } from '../../../core/chain/postConditions';
import type { TokenInfo } from '../../../core/chain/postConditions';

const SENDERS = ['SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR', 'SP3D6PV2ACBPEKYJTCMH7HEN02KP87QSP8KTEH335'];
const POOLS = [
  'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10',
  'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-stx-usdcx-v-1-bps-25',
];

/** The condition as stacks.js builds it with no memo. */
function fresh(sender: string, pool: string, bin: number) {
  return Pc.principal(sender)
    .willMaybeSendAsset()
    .nft(
      `${pool as `${string}.${string}`}::pool-token-id`,
      Cl.tuple({ 'token-id': Cl.uint(bin + 500), owner: Cl.principal(sender) }),
    );
}

describe('post-condition builders', () => {
  it('position-NFT conditions equal the ones stacks.js builds, for every sender, pool and bin', () => {
    for (let round = 0; round < 2; round++)
      for (const sender of SENDERS)
        for (const pool of POOLS)
          for (const bin of [-500, -175, -1, 0, 1, 139, 500]) {
            const got = positionNftCondition(sender, pool, bin);
            const want = fresh(sender, pool, bin);
            assert.deepEqual(got, want);
            assert.equal(postConditionToHex(got), postConditionToHex(want));
          }
  });

  it('still refuses a bad sender, pool or bin id', () => {
    assert.throws(() => positionNftCondition('SPNOTANADDRESS', POOLS[0] as string, 0));
    assert.throws(() => positionNftCondition(SENDERS[0] as string, 'not-a-contract', 0));
    assert.throws(() => positionNftCondition(SENDERS[0] as string, POOLS[0] as string, 501), RangeError);
  });

  it('contract-principal values equal the ones stacks.js builds; bad ids still throw', () => {
    for (let round = 0; round < 2; round++)
      for (const id of POOLS) {
        const [a, n] = id.split('.') as [string, string];
        assert.deepEqual(contractCV(id), Cl.contractPrincipal(a, n));
      }
    assert.throws(() => contractCV('SPNOTANADDRESS.pool'));
  });

  it('fungible and share conditions equal the ones stacks.js builds, the first time and the later ones', () => {
    const sbtc: TokenInfo = {
      contract: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token',
      symbol: 'sBTC',
      decimals: 8,
      assetName: 'sbtc-token',
    };
    const stx: TokenInfo = { contract: 'ustx', symbol: 'STX', decimals: 6, assetName: null };
    for (let round = 0; round < 2; round++)
      for (const sender of [...SENDERS, POOLS[0] as string])
        for (const amount of [0n, 7n, (1n << 64n) - 1n]) {
          const p = Pc.principal(sender);
          assert.deepEqual(
            fungibleCondition(sender, 'lte', amount, sbtc),
            p.willSendLte(amount).ft(sbtc.contract as `${string}.${string}`, 'sbtc-token'),
          );
          assert.deepEqual(
            fungibleCondition(sender, 'gte', amount, sbtc),
            p.willSendGte(amount).ft(sbtc.contract as `${string}.${string}`, 'sbtc-token'),
          );
          assert.deepEqual(fungibleCondition(sender, 'eq', amount, stx), p.willSendEq(amount).ustx());
          for (const pool of POOLS) {
            const shares = p.willSendEq(amount).ft(pool as `${string}.${string}`, 'pool-token');
            assert.deepEqual(sharesCondition(sender, 'eq', amount, pool), shares);
            assert.deepEqual(
              sharesCondition(sender, 'lte', amount, pool),
              p.willSendLte(amount).ft(pool as `${string}.${string}`, 'pool-token'),
            );
          }
        }
  });

  it('fungible conditions still refuse a bad principal or token contract, also after good ones', () => {
    const bad: TokenInfo = { contract: 'SPNOTANADDRESS.token', symbol: 'X', decimals: 0, assetName: 'x' };
    const sender = SENDERS[0] as string;
    assert.throws(() => fungibleCondition('SPNOTANADDRESS', 'eq', 1n, bad));
    assert.throws(() => fungibleCondition(sender, 'eq', 1n, bad));
    assert.throws(() => sharesCondition('SPNOTANADDRESS', 'eq', 1n, POOLS[0] as string));
    assert.throws(() => sharesCondition(sender, 'eq', 1n, 'not-a-contract'));
    assert.throws(() => fungibleCondition(sender, 'eq', 1n << 64n, bad), /u64/);
  });
});
