/**
 * Every principal of a plan is a Stacks address as the chain reads it (c32check), of the plan's network:
 * refused offline as a `schema` error that names the field and says why.
 */
import assert from 'node:assert/strict';
import { addressNetwork, addressProblem } from '../../../core/plan/address';
import { analyzeOffline } from '../../../core/check/analyze';
import { assertFindings, plan, POOL1, SBTC, SENDER, USDCX, type Expect } from './helpers';

/** The example sender with its last character changed: the shape is right, the checksum is not. */
const BAD_LAST = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBX';

describe('Stacks addresses (c32check)', () => {
  const table: Array<[string, RegExp | undefined]> = [
    [SENDER, undefined],
    ['SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4', undefined],
    [BAD_LAST, /checksum does not match/],
    ['SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6C', /checksum does not match/],
    ['SX15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR', /starts with SP or SM/],
  ];
  for (const [address, problem] of table)
    it(`${address}: ${problem ? String(problem) : 'valid'}`, () => {
      const got = addressProblem(address);
      if (problem) assert.match(got ?? '', problem);
      else assert.equal(got, undefined);
    });

  it('answers the same when asked again, also after many other addresses (kept answers)', () => {
    const first = addressProblem(BAD_LAST);
    assert.match(first ?? '', /checksum does not match/);
    // More addresses than are kept: each still gets its own answer, and the first ones theirs again.
    for (let i = 0; i < 300; i++) {
      const other = `SP${String(i).padStart(4, '0')}VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR`;
      assert.notEqual(addressProblem(other), undefined, other);
    }
    assert.equal(addressProblem(BAD_LAST), first);
    assert.equal(addressProblem(SENDER), undefined);
    assert.equal(addressProblem(SENDER), undefined);
  });

  it('knows the network of each version', () => {
    assert.equal(addressNetwork(SENDER), 'mainnet');
    assert.equal(addressNetwork('SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4'), 'mainnet');
    assert.equal(addressNetwork('ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM'), 'testnet');
    assert.equal(addressProblem('ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM'), undefined);
  });
});

describe('plan principals are checked offline', () => {
  const swap = (input: string, output = USDCX, extra = '') =>
    `  - { op: swap, input_token: ${input}, output_token: ${output}, amount_in: 1000${extra} }\n`;
  const withdraw = (pool: string) =>
    `  - { op: withdraw, pool: ${pool}, mode: simple, withdrawal_percentage: 50 }\n`;
  const cases: Array<{ name: string; text: string; expect: Expect[]; message?: RegExp }> = [
    {
      name: 'a sender whose last character is wrong',
      text: plan(swap(SBTC), `sender: ${BAD_LAST}\n`),
      expect: [['schema', 'error', BAD_LAST]],
      message: /SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBX is not a valid Stacks address: its checksum/,
    },
    {
      name: 'a token whose address is wrong',
      text: plan(swap(SBTC.replace('Q4.', 'Q5.'))),
      expect: [['schema', 'error', SBTC.replace('Q4.', 'Q5.')]],
    },
    {
      name: 'a pool whose address is wrong',
      text: plan(withdraw(POOL1.replace('XKD.', 'XKE.'))),
      expect: [['schema', 'error', POOL1.replace('XKD.', 'XKE.')]],
    },
    {
      name: 'a provider whose address is wrong',
      text: plan(swap(SBTC, USDCX, `, provider: ${BAD_LAST}`)),
      expect: [['schema', 'error', BAD_LAST]],
    },
    {
      name: 'a testnet sender in a mainnet plan',
      text: plan(swap(SBTC), 'sender: ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM\n'),
      expect: [['schema', 'error', 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM']],
      message:
        /sender: ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM is a testnet address, and this plan's network is mainnet/,
    },
    {
      name: 'mainnet tokens in a testnet plan',
      text: plan(swap(SBTC), `network: testnet\nsender: ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM\n`),
      expect: [
        ['schema', 'error', SBTC],
        ['schema', 'error', USDCX],
      ],
    },
    { name: 'valid mainnet principals', text: plan(swap(SBTC) + withdraw(POOL1)), expect: [] },
    { name: 'an alias is not an address', text: plan(withdraw('dlmm_1')), expect: [] },
  ];
  for (const c of cases)
    it(c.name, () => {
      const a = analyzeOffline(c.text);
      assertFindings(a, c.expect, ['schema', 'syntax']);
      if (c.message) assert.match(a.findings.map((f) => f.message).join('\n'), c.message);
    });
});
