/** The node read-only proxy: pool read-only functions with Clarity values in hex. */
import assert from 'node:assert/strict';
import { Cl, deserializeCV, serializeCV, type ClarityValue } from '@stacks/transactions';
import { ReadOnlyResultSchema } from '../../../core/api/schemas';
import { BIN_ID_OFFSET } from '../../../core/dlmm/bins';
import { DEFAULT_USER, POOL_SBTC_USDCX, SBTC, STX_WRAPPER } from '../../../core/sim/defaultWorld';
import { call, useSimulator } from './helpers';

describe('simulator node proxy', () => {
  const sim = useSimulator();
  const [addr, name] = POOL_SBTC_USDCX.split('.') as [string, string];
  const read = async (fn: string, args: ClarityValue[], contract = `${addr}/${name}`) => {
    const a = await call(`${sim().nodeUrl}/v2/contracts/call-read/${contract}/${fn}`, {
      body: { sender: DEFAULT_USER, arguments: args.map((v) => `0x${serializeCV(v)}`) },
    });
    assert.equal(a.status, 200, a.text);
    return ReadOnlyResultSchema.parse(a.json);
  };
  const value = (r: { result?: string }) => deserializeCV(r.result!.slice(2));

  it('answers get-bin-balances (unsigned id) with the contract tuple, matching the engine', async () => {
    const pool = sim().engine.pool('dlmm_1')!;
    const bin = pool.bins.get(139)!;
    const r = await read('get-bin-balances', [Cl.uint(139 + BIN_ID_OFFSET)]);
    assert.equal(r.okay, true);
    assert.deepEqual(
      value(r),
      Cl.ok(
        Cl.tuple({
          'x-balance': Cl.uint(bin.reserve_x),
          'y-balance': Cl.uint(bin.reserve_y),
          'bin-shares': Cl.uint(bin.shares),
        }),
      ),
    );
    const total = await read('get-total-supply', [Cl.uint(139 + BIN_ID_OFFSET)]);
    assert.deepEqual(value(total), Cl.ok(Cl.uint(bin.shares)));
    const empty = await read('get-bin-balances', [Cl.uint(1000)]);
    assert.deepEqual(
      value(empty),
      Cl.ok(Cl.tuple({ 'x-balance': Cl.uint(0), 'y-balance': Cl.uint(0), 'bin-shares': Cl.uint(0) })),
    );
  });

  it('answers get-active-bin-id (signed) and the user balance of a bin', async () => {
    assert.deepEqual(
      value(await read('get-active-bin-id', [])),
      Cl.ok(Cl.int(sim().engine.pool('dlmm_1')!.activeBinId)),
    );
    const shares = sim().engine.userShares(sim().engine.pool('dlmm_1')!, DEFAULT_USER, 139);
    assert.ok(shares > 0n);
    assert.deepEqual(
      value(await read('get-balance', [Cl.uint(639), Cl.standardPrincipal(DEFAULT_USER)])),
      Cl.ok(Cl.uint(shares)),
    );
  });

  it("answers a world token's SIP-010 get-balance from the world's balances (the STX wrapper: micro-STX)", async () => {
    const [tAddr, tName] = SBTC.split('.') as [string, string];
    const [sAddr, sName] = STX_WRAPPER.split('.') as [string, string];
    const who = Cl.standardPrincipal(DEFAULT_USER);
    assert.deepEqual(
      value(await read('get-balance', [who], `${tAddr}/${tName}`)),
      Cl.ok(Cl.uint(sim().engine.balanceOf(DEFAULT_USER, SBTC))),
    );
    assert.deepEqual(
      value(await read('get-balance', [who], `${sAddr}/${sName}`)),
      Cl.ok(Cl.uint(10_000_000_000_000n)),
    );
    const nobody = Cl.standardPrincipal('SP000000000000000000002Q6VF78');
    assert.deepEqual(value(await read('get-balance', [nobody], `${tAddr}/${tName}`)), Cl.ok(Cl.uint(0)));
    assert.equal((await read('get-balance', [], `${tAddr}/${tName}`)).okay, false);
    assert.equal((await read('get-decimals', [], `${tAddr}/${tName}`)).okay, false);
  });

  it('reports unknown functions, unknown contracts and wrong arguments as okay false', async () => {
    assert.equal((await read('get-nothing', [])).okay, false);
    assert.equal((await read('get-active-bin-id', [], `${addr}/not-a-pool`)).okay, false);
    assert.equal((await read('get-bin-balances', [Cl.int(5)])).okay, false);
    assert.equal((await read('get-bin-balances', [])).okay, false);
    const bad = await call(`${sim().nodeUrl}/v2/contracts/call-read/${addr}/${name}/get-active-bin-id`, {
      body: { sender: DEFAULT_USER },
    });
    assert.equal(bad.status, 400);
  });
});
