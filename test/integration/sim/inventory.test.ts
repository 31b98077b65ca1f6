/** Market-maker inventory over real HTTP: unsigned ids, empty books, the three 503 codes and tip lag. */
import assert from 'node:assert/strict';
import { InventoryFaultSchema, InventorySchema } from '../../../core/api/schemas';
import { BIN_ID_OFFSET } from '../../../core/dlmm/bins';
import { DEFAULT_USER, POOL_STX_USDCX } from '../../../core/sim/defaultWorld';
import { defaultWorld } from '../../../core/sim/defaultWorld';
import { call, useSimulator } from './helpers';

const NOBODY = 'SP000000000000000000002Q6VF78';

describe('simulator inventory', () => {
  const sim = useSimulator(() => ({
    ...defaultWorld(),
    inventory_faults: [{ pool: 'dlmm_3', code: 'INCOMPLETE' as const }],
  }));
  const inv = (pool: string, who: string) => `${sim().inventoryUrl}/pools/${pool}/positions/${who}`;
  const admin = (body: unknown) => call(`${sim().url}/admin/state`, { body });

  afterEach(async () => {
    await admin({ tip_lag: 0, inventory_faults: [{ pool: 'dlmm_3', code: 'INCOMPLETE' }] });
  });

  it('answers owned bins with unsigned ids and raw strings, by alias or contract id', async () => {
    for (const id of ['dlmm_2', POOL_STX_USDCX]) {
      const a = await call(inv(id, DEFAULT_USER));
      assert.equal(a.status, 200, a.text);
      const book = InventorySchema.parse(a.json);
      assert.equal(book.clean, true);
      assert.equal(book.pool, POOL_STX_USDCX);
      assert.equal(book.pool_alias, 'dlmm_2');
      const pool = sim().engine.pool('dlmm_2')!;
      assert.deepEqual(
        book.bins.map((b) => [b.bin_id, b.shares]),
        sim()
          .engine.userBins(pool, DEFAULT_USER)
          .map((b) => [b.binId + BIN_ID_OFFSET, b.shares]),
      );
      assert.equal(typeof a.json.bins[0].shares, 'string');
    }
  });

  it('represents an empty book only as 200 with bins [] and clean true', async () => {
    const a = await call(inv('dlmm_1', NOBODY));
    assert.equal(a.status, 200);
    assert.deepEqual(a.json.bins, []);
    assert.equal(a.json.clean, true);
  });

  it('answers 503 TIP_LAG when the tip lag is above 0 or unknown, and serves again at 0', async () => {
    for (const lag of [3, null]) {
      await admin({ tip_lag: lag });
      const a = await call(inv('dlmm_1', DEFAULT_USER));
      assert.equal(a.status, 503);
      assert.equal(InventoryFaultSchema.parse(a.json).code, 'TIP_LAG');
      const status = (await call(`${sim().url}/quotes/v2/status`)).json;
      assert.equal(status.tip_lag, lag);
      assert.equal(status.chain_tip, lag === null ? null : status.state_height + lag);
    }
    await admin({ tip_lag: 0 });
    assert.equal((await call(inv('dlmm_1', DEFAULT_USER))).status, 200);
  });

  it('answers the world fault INCOMPLETE and an admin fault RECONCILE_DIRTY for one principal only', async () => {
    const w = await call(inv('dlmm_3', DEFAULT_USER));
    assert.equal(w.status, 503);
    assert.equal(w.json.code, 'INCOMPLETE');
    await admin({ inventory_faults: [{ pool: 'dlmm_1', principal: DEFAULT_USER, code: 'RECONCILE_DIRTY' }] });
    const dirty = await call(inv('dlmm_1', DEFAULT_USER));
    assert.equal(dirty.status, 503);
    assert.equal(dirty.json.code, 'RECONCILE_DIRTY');
    assert.equal((await call(inv('dlmm_1', NOBODY))).status, 200, 'other principals unaffected');
    assert.equal((await call(inv('dlmm_3', DEFAULT_USER))).status, 200, 'faults were replaced');
  });

  it('rejects unknown pools (404) and non-principals (400)', async () => {
    assert.equal((await call(inv('dlmm_9', DEFAULT_USER))).status, 404);
    assert.equal((await call(inv('dlmm_1', 'alice'))).status, 400);
  });
});
