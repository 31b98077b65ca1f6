/**
 * `dlmm backtest PLAN` over loopback HTTP: the simulator serves the pools and the sender's positions, and a
 * replay server in front of it serves a hand-written bin-price-history (everything else is passed through to
 * the simulator). The history's answers are counted by hand below. No real shape of this resource is
 * published (docs/service-shapes.md): the shapes served here are the ones the client reads tolerantly.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { parseJsonExact } from '../../../core/api/json';
import { POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

function captureIO(cwd: string): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    env: {} as Record<string, string | undefined>,
    cwd,
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

// The plan: a strict add over bins 131..146 of the sBTC/USDCx pool, whose active bin is 139; the default
// world's sender holds positions in bins 136..141 of it.
const PLAN = `version: 1
network: mainnet
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: ladder
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: 146, x_amount: 150000, y_amount: 0 }
      - { bin_id: 145, x_amount: 150000, y_amount: 0 }
      - { bin_id: 132, x_amount: 0, y_amount: 2500000 }
      - { bin_id: 131, x_amount: 0, y_amount: 2500000 }
`;

const T0 = 1_788_000_000; // unix seconds of the first point of the week
const HOUR = 3600;
/** Active bin at each hourly point, oldest first. */
const BINS = [139, 140, 147, 148, 150, 146, 131, 130, 129, 128, 127, 135];
// Counted by hand, with --recentre-after 3:
// ladder 131..146 (offsets -8..+7 from 139): in range 139 140 146 131 135 = 5 of 12 (41.7%); longest out
//   130 129 128 127 = 4 points (T0+7h .. T0+10h); re-centres: 147 148 150 -> at 150 (T0+4h) to 142..157;
//   146 in; 131 130 129 -> at 129 (T0+8h) to 121..136; 128 127 135 in: 2.
// positions 136..141 (offsets -3..+2): in range 139 140 = 2 of 12 (16.7%); longest out T0+2h .. T0+11h =
//   10 points; re-centres: 147 148 150 -> at T0+4h to 147..152; 146 131 130 -> at T0+7h to 127..132;
//   129 128 127 in; 135 out (1): 2.
const WEEK = BINS.map((bin_id, i) => ({ timestamp: T0 + i * HOUR, bin_id, price: '1' }));
/** A point ten days before the last: inside --history 30d, outside the default 7d. */
const OLD = { timestamp: T0 + 11 * HOUR - 10 * 86_400, bin_id: 0, price: '1' };

interface Range {
  source: string;
  operation?: string;
  from_bin: number;
  to_bin: number;
  points: number;
  in_range: number;
  share_percent: string;
  longest_out_of_range: { points: number; from: string; to: string } | null;
  recentres: number;
  recentre_times: string[];
}
interface Doc {
  history_window: string;
  recentre_after: number;
  pools: Array<{ pool: string; history: Record<string, unknown>; ranges: Range[] }>;
}

const iso = (t: number) => new Date(t * 1000).toISOString().replace(/\.000Z$/, 'Z');

describe('dlmm backtest (replayed price history over loopback HTTP)', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let replay: Server;
  let replayUrl: string;
  /** The body the replay server answers for bin-price-history (undefined: pass it through). */
  let served: unknown;
  let dir: string;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    const simOrigin = new URL(sim.url).origin;
    replay = createServer((req, res) => {
      void (async () => {
        if (served !== undefined && /\/bin-price-history$/.test(req.url ?? '')) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(typeof served === 'string' ? served : JSON.stringify(served));
          return;
        }
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
        const r = await fetch(simOrigin + (req.url ?? '/'), {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      })().catch((e: unknown) => {
        res.writeHead(502);
        res.end(String(e));
      });
    });
    await new Promise<void>((ok) => replay.listen(0, '127.0.0.1', ok));
    const addr = replay.address() as { port: number };
    replayUrl = `http://127.0.0.1:${addr.port}/api`;
    dir = mkdtempSync(join(tmpdir(), 'dlmm-backtest-'));
    writeFileSync(join(dir, 'ladder.dlmm.yaml'), PLAN);
  });
  after(async () => {
    await new Promise<void>((ok) => replay?.close(() => ok()));
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function backtest(...extra: string[]) {
    const io = captureIO(dir);
    const code = await main(['backtest', 'ladder.dlmm.yaml', '--api', replayUrl, ...extra], io);
    return { code, out: io.stdout, err: io.stderr };
  }

  function check(doc: Doc, points: number): void {
    const [pool] = doc.pools;
    assert.equal(pool?.pool, POOL_SBTC_USDCX);
    const [op, pos] = pool!.ranges;
    assert.deepEqual(
      { ...op, recentre_times: op!.recentre_times },
      {
        source: 'operation',
        operation: 'ladder',
        from_bin: 131,
        to_bin: 146,
        bins: 4,
        points,
        in_range: 5,
        share_percent: points === 12 ? '41.7' : '38.5',
        longest_out_of_range: { points: 4, from: iso(T0 + 7 * HOUR), to: iso(T0 + 10 * HOUR) },
        recentres: 2,
        recentre_times: [iso(T0 + 4 * HOUR), iso(T0 + 8 * HOUR)],
      },
    );
    assert.equal(pos?.source, 'positions');
    assert.equal(pos?.from_bin, 136);
    assert.equal(pos?.to_bin, 141);
    assert.equal(pos?.in_range, 2);
    assert.equal(pos?.longest_out_of_range?.points, 10);
    assert.equal(pos?.longest_out_of_range?.from, iso(T0 + 2 * HOUR));
    assert.deepEqual(pos?.recentre_times, [iso(T0 + 4 * HOUR), iso(T0 + 7 * HOUR)]);
  }

  it('counts the hand-counted answer on a served {history: [...]} (7d window: the 10-day-old point is left out)', async () => {
    served = { success: true, pool_id: POOL_SBTC_USDCX, history: [OLD, ...WEEK] };
    const r = await backtest('--recentre-after', '3', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    const doc = parseJsonExact(r.out) as Doc;
    assert.equal(doc.history_window, '7d');
    assert.equal(doc.recentre_after, 3);
    assert.equal(doc.pools[0]!.history.served, 13);
    assert.equal(doc.pools[0]!.history.points, 12);
    check(doc, 12);
  });

  it('--history 30d keeps the old point (out of both ranges); the text form says the same', async () => {
    served = { history: [OLD, ...WEEK] };
    const r = await backtest('--recentre-after', '3', '--format', 'json', '--history', '30d');
    assert.equal(r.code, 0, r.err);
    const doc = parseJsonExact(r.out) as Doc;
    const op = doc.pools[0]!.ranges[0]!;
    assert.equal(op.points, 13);
    assert.equal(op.in_range, 5);
    assert.equal(op.share_percent, '38.5');
    const t = await backtest('--recentre-after', '3');
    assert.equal(t.code, 0, t.err);
    assert.match(
      t.out,
      /^ {2}operation ladder \(bins 131\.\.146\):\n {4}in range 5\/12 points \(41\.7%\); longest out of range 4 point\(s\), /m,
    );
    assert.match(t.out, /re-centres after 3 out: 2$/m);
    assert.match(
      t.out,
      /^ {2}your positions \(bins 136\.\.141, 6 held\):\n {4}in range 2\/12 points \(16\.7%\)/m,
    );
  });

  it('reads a bare list in milliseconds, out of order, and places a point without bin_id by its exact price', async () => {
    const price139 = String(sim.engine.pool('dlmm_1')!.prices[139 + 500]);
    const points = WEEK.map((p) => ({ ...p, timestamp: p.timestamp * 1000 }));
    const first = { timestamp: points[0]!.timestamp, price: price139 }; // bin 139, said by its price only
    served = [...points.slice(1).reverse(), first];
    const r = await backtest('--recentre-after', '3', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    const doc = parseJsonExact(r.out) as Doc;
    check(doc, 12);
    assert.deepEqual(doc.pools[0]!.history.notes, [
      'timestamps read as milliseconds',
      '1 point(s) without bin_id placed by their exact price',
      'points sorted oldest first (the service sent them in another order)',
    ]);
  });

  it('refuses, with the reason and exit 2, a history it cannot replay: empty, Pool not found, no bin, not a list', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ history: [] }, /no history points: there is nothing to replay/],
      [{ success: false, error: 'Pool not found', history: [] }, /Pool not found/],
      [
        { history: [{ timestamp: T0, price: '7' }] },
        /has no bin_id and its price 7 is the price of no listed bin/,
      ],
      [{ data: 'soon' }, /expected a list, or an object holding it under 'history' or 'points'/],
    ];
    for (const [body, why] of cases) {
      served = body;
      const r = await backtest('--format', 'json');
      assert.equal(r.code, 2, JSON.stringify(body));
      const doc = parseJsonExact(r.out) as Doc;
      assert.match(String(doc.pools[0]!.history.refused), why);
      assert.equal(doc.pools[0]!.ranges[0]!.points, undefined, 'no replay on a refused history');
      assert.match(r.err, /could not be replayed/);
    }
  });

  it("replays the simulator's own history end to end (its last point is the active bin now)", async () => {
    served = undefined;
    const r = await backtest('--format', 'json');
    assert.equal(r.code, 0, r.err);
    const doc = parseJsonExact(r.out) as Doc;
    const op = doc.pools[0]!.ranges[0]!;
    assert.equal(op.points, 168);
    assert.ok(op.in_range >= 1, 'the last point (active bin 139) is in 131..146');
  });

  it('usage errors: a bad --history or --recentre-after', async () => {
    served = undefined;
    const a = await backtest('--history', '1y');
    assert.equal(a.code, 2);
    assert.match(a.err, /--history '1y': expected 7d or 30d/);
    const b = await backtest('--recentre-after', '0');
    assert.equal(b.code, 2);
    assert.match(b.err, /--recentre-after '0': expected a whole number of points, 1 or more/);
  });
});
