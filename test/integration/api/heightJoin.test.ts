/**
 * A read in flight when the engine's state height moves never answers a read made at the new height: the
 * second read goes to the service itself. (A tiny node:http server on loopback holds the first answer; the
 * simulated engine answers at once, so it cannot stage the overlap.)
 */
import { strict as assert } from 'node:assert';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../../core/api/client';

describe('api client: reads joined only at one state height', () => {
  it('a bin list read begun before the height moved is not shared with a read at the new height', async () => {
    let height = 10;
    let active = 1;
    let binReads = 0;
    let held: (() => void) | undefined;
    let seenFirst: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => (seenFirst = resolve));
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/quotes/v2/status') {
        res.end(
          JSON.stringify({
            ready: true,
            state_height: height,
            chain_tip: height,
            tip_lag: 0,
            pool_count: 1,
          }),
        );
        return;
      }
      binReads++;
      const answer = (r: ServerResponse, bin: number) =>
        r.end(
          JSON.stringify({
            active_bin_id: bin,
            bins: [{ bin_id: bin, price: '5', reserve_x: '1', reserve_y: '2' }],
          }),
        );
      if (binReads === 1) {
        const bin = active;
        held = () => answer(res, bin);
        seenFirst();
      } else answer(res, active);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const api = createApiClient({ baseUrl: `http://127.0.0.1:${port}/api` });
    try {
      assert.equal((await api.status()).state_height, 10);
      const before = api.bins('dlmm_1');
      await seen;
      // The state moves while that read is in flight: a new height, another active bin.
      height = 11;
      active = 2;
      assert.equal((await api.refreshStatus!()).state_height, 11);
      const after = api.bins('dlmm_1');
      held!();
      assert.equal((await before).active_bin_id, 1);
      assert.equal((await after).active_bin_id, 2, 'the read at height 11 has the state of height 11');
      assert.equal(binReads, 2);
    } finally {
      await api.close?.();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
