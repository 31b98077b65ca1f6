/**
 * Live checks of `api: v1` plans against the simulated engine over loopback HTTP with the real client:
 * v1 bins, v1 pool flags, positions from the inventory (alias, then principal), and a per-operation
 * api-unreachable when positions cannot be read (never a silent pass, never app v2 data for v1 ids).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyzePlan } from '../../../core/check/analyze';
import type { DlmmApi } from '../../../core/api/types';
import { assertFindings, plan, POOL1, SENDER, type Expect } from '../../unit/plan/helpers';
import { admin, clientFor, startSimulator, worldWithFlags, type RunningSimulator } from './sim';

const V1_HEAD = `api: v1\nsender: ${SENDER}\n`;
const v1 = (ops: string): string => plan(ops, V1_HEAD);
const add = (bins: string): string => `  - op: add\n    pool: dlmm_1\n    bins:\n${bins}`;
const move = (moves: string): string => `  - op: move\n    pool: dlmm_1\n    moves:\n${moves}`;
const withdraw = (bins: string): string => `  - op: withdraw\n    pool: dlmm_1\n    bins: ${bins}\n`;

/** A loopback HTTP server whose answers `handle` writes (a stand-in deployment in front of the simulator). */
async function stubServer(
  handle: (path: string, req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    handle(req.url ?? '/', req, res).catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Forwards a GET to `target + path` and copies the answer. */
async function forward(target: string, path: string, res: ServerResponse): Promise<void> {
  const r = await fetch(target + path);
  res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
  res.end(await r.text());
}

describe('live checks of api: v1 plans', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let api: DlmmApi | undefined;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(async () => sim?.close());
  beforeEach(async () => admin(sim, '/reset', {}));
  afterEach(async () => {
    await api?.close?.();
    api = undefined;
  });

  const cases: Array<{ name: string; text: string; expect: Expect[]; inventory?: boolean }> = [
    {
      name: 'add on the wrong side of the v1 active bin',
      text: v1(add('      - { bin_id: 135, x_amount: 150000, y_amount: 0 }\n')),
      expect: [['wrong-token-side', 'error', '150000']],
    },
    {
      name: 'withdraw of a bin the sender does not hold (inventory)',
      text: v1(withdraw('[11]')),
      expect: [
        ['withdraw-nothing', 'warning', '[11]'],
        ['no-user-liquidity', 'error', '11'],
      ],
    },
    {
      name: 'move above the sender shares (inventory)',
      text: v1(move('      - { from_bin_id: 136, to_bin_id: 120, amount: "999999999999999999999" }\n')),
      expect: [['amount-exceeds-user-liquidity', 'error', '"999999999999999999999"']],
    },
    {
      name: 'move from a bin the sender does not hold (inventory)',
      text: v1(move('      - { from_bin_id: 150, to_bin_id: 120, amount: 10 }\n')),
      expect: [['no-user-liquidity', 'error', '150']],
    },
    {
      name: 'move-dust (inventory)',
      text: v1(move('      - { from_bin_id: 140, to_bin_id: 150, amount: 1 }\n')),
      expect: [['move-dust', 'error', '1']],
    },
    {
      name: 'a clean v1 withdraw and move (inventory): no finding',
      text: v1(withdraw('[136]') + move('      - { from_bin_id: 137, to_bin_id: 120, amount: 1000 }\n')),
      expect: [],
    },
    {
      name: 'without an inventory: one api-unreachable per withdraw/move on its pool, no position rule',
      inventory: false,
      text: v1(
        add('      - { bin_id: 150, x_amount: 1000, y_amount: 0 }\n') +
          withdraw('[11]') +
          move('      - { from_bin_id: 136, to_bin_id: 120, amount: "999999999999999999999" }\n'),
      ),
      expect: [
        ['api-unreachable', 'warning', 'dlmm_1'],
        ['api-unreachable', 'warning', 'dlmm_1'],
      ],
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      api = clientFor(sim, { inventory: c.inventory ?? true });
      const a = await analyzePlan(c.text, { api });
      assertFindings(a, c.expect);
      for (const f of a.findings.filter((x) => x.code === 'api-unreachable')) {
        assert.match(f.message, /app v1 positions are not read by this version/);
        assert.match(f.message, /DLMM_INVENTORY_URL \/ dlmm\.inventoryUrl/);
        assert.match(f.message, /api: v2 and contract principals/);
      }
      const ops = a.findings.filter((x) => x.code === 'api-unreachable').map((f) => f.operation);
      assert.equal(new Set(ops).size, ops.length, 'one finding per operation');
    });
  }

  it('inventory 503 TIP_LAG on a v1 withdraw is inventory-unavailable, never an empty book', async () => {
    await admin(sim, '/state', { inventory_faults: [{ pool: 'dlmm_1', code: 'TIP_LAG' }] });
    api = clientFor(sim);
    const a = await analyzePlan(v1(withdraw('[11]')), { api });
    assertFindings(a, [['inventory-unavailable', 'error', 'dlmm_1']]);
  });

  it('reads the inventory by principal when the deployment rejects the alias; api-unreachable when it knows neither', async () => {
    const seen: string[] = [];
    const byPrincipalOnly = await stubServer(async (path, _req, res) => {
      seen.push(path);
      if (path.includes('/pools/dlmm_')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Pool not found' }));
        return;
      }
      await forward(sim.inventoryUrl, path, res);
    });
    const knowsNothing = await stubServer(async (_path, _req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Pool not found' }));
    });
    try {
      api = clientFor(sim, { inventoryUrl: byPrincipalOnly.url });
      const a = await analyzePlan(v1(withdraw('[11]')), { api });
      assertFindings(a, [
        ['withdraw-nothing', 'warning', '[11]'],
        ['no-user-liquidity', 'error', '11'],
      ]);
      assert.deepEqual(
        seen.map((p) => p.split('/')[2]),
        ['dlmm_1', encodeURIComponent(POOL1)],
      );
      await api.close?.();

      api = clientFor(sim, { inventoryUrl: knowsNothing.url });
      const b = await analyzePlan(v1(withdraw('[11]')), { api });
      assertFindings(b, [['api-unreachable', 'warning', 'dlmm_1']]);
      assert.match(b.findings[0]!.message, /inventory does not know pool 'dlmm_1'/);
      assert.match(b.findings[0]!.message, new RegExp(`dlmm_1 and ${POOL1.replace('.', '\\.')}`));
    } finally {
      await byPrincipalOnly.close();
      await knowsNothing.close();
    }
  });

  it('v1 pool flags: pool-inactive from /quotes/v1/pools; its records carry no quotable flag, which is never guessed', async () => {
    const flagged = await startSimulator({
      world: worldWithFlags({ dlmm_1: { active: false }, dlmm_2: { quotable: false } }),
    });
    const c = clientFor(flagged);
    try {
      const text = v1(
        add('      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n') +
          '  - op: add\n    pool: dlmm_2\n    bins:\n      - { bin_id: -20, x_amount: 1, y_amount: 0 }\n',
      );
      const a = await analyzePlan(text, { api: c });
      // The captured mainnet v1 record has `active` but no `quotable` (test/fixtures/bff/bff.json): dlmm_2's
      // flag is the v2 record's, and a v1 file never mixes in v2 reads.
      assertFindings(a, [['pool-inactive', 'error', 'dlmm_1']], ['pool-inactive', 'pool-not-quotable']);
    } finally {
      await c.close?.();
      await flagged.close();
    }
  });

  it('thin v1 pool records (no flags): flag rules skip, positions still checked', async () => {
    const service = await stubServer(async (path, _req, res) => {
      if (path === '/api/quotes/v1/pools') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ pool_id: 'dlmm_1' }]));
        return;
      }
      await forward(sim.url.replace(/\/api$/, ''), path, res);
    });
    try {
      api = clientFor(sim, { baseUrl: `${service.url}/api` });
      const a = await analyzePlan(
        v1(move('      - { from_bin_id: 136, to_bin_id: 120, amount: "999999999999999999999" }\n')),
        { api },
      );
      assertFindings(a, [['amount-exceeds-user-liquidity', 'error', '"999999999999999999999"']]);
    } finally {
      await service.close();
    }
  });
});
