/**
 * Issue 46, the wire half, through the real commands against the hostile proxy in front of the simulator
 * (hostile.ts): `dlmm status`, `dlmm balances` and `dlmm backtest` on an answer with one field written the
 * hostile way, and the pacing a service's rate-limit headers ask for. The plan rows (check and export) are in
 * faults.test.ts.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { JsonDecimal } from '../../../core/api/json';
import { envFor, patchJson, startHostile, type Fault, type HostileService } from './hostile';

const LADDER = 'add-ladder.dlmm.yaml';
const SBTC_POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
const SBTC_BALANCE =
  'POST /node/v2/contracts/call-read/SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4/sbtc-token/get-balance';
const HISTORY = `GET /api/app/v2/pools/${SBTC_POOL}/bin-price-history`;
const STATUS = 'GET /api/quotes/v2/status';

interface Point {
  timestamp: number | string;
  bin_id: number;
  price: string;
}

describe('the wire (issue 46): numbers, node answers, pacing, histories through the commands', function () {
  this.timeout(60_000);
  let h: HostileService;
  let dir: string;
  before(async () => {
    h = await startHostile();
    dir = await mkdtemp(join(tmpdir(), 'dlmm-wire-'));
    await copyFile(join('examples', LADDER), join(dir, LADDER));
  });
  after(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (args: string[], faults: Fault[]) => {
    h.setFaults(faults);
    const io: CliIO & { stdout: string; stderr: string } = {
      stdout: '',
      stderr: '',
      env: envFor(h),
      cwd: dir,
      out: (t: string) => void (io.stdout += t),
      err: (t: string) => void (io.stderr += t),
    };
    const started = Date.now();
    const code = await main([...args, '--api', h.url], io);
    return { code, out: io.stdout, err: io.stderr, ms: Date.now() - started };
  };

  describe('dlmm status: a height or a count is an integer in range, or refused quoting it', () => {
    const rows: Array<[string, (v: Record<string, unknown>) => void, RegExp]> = [
      [
        'a 20-digit state_height string',
        (v) => void (v.state_height = '12345678901234567891'),
        /state_height' integer out of range .*"12345678901234567891"/,
      ],
      [
        'a pool_count of 1e+80',
        (v) => void (v.pool_count = new JsonDecimal('1e+80')),
        /pool_count' expected a whole number.*1e\+80/,
      ],
      [
        'a tip_lag of 1e-400',
        (v) => void (v.tip_lag = new JsonDecimal('1e-400')),
        /tip_lag' expected a whole number.*1e-400/,
      ],
    ];
    for (const [what, patch, message] of rows) {
      it(`${what}: exit 2, the message quotes it, nothing printed as a figure`, async () => {
        const r = await run(['status'], [{ match: STATUS, answer: { body: patchJson(patch) } }]);
        assert.equal(r.code, 2, r.err);
        assert.match(r.err, message);
        assert.doesNotMatch(r.out, /12345678901234567000|1e\+80|caught up/);
      });
    }
    it('the same status written plainly is printed', async () => {
      const r = await run(['status'], []);
      assert.equal(r.code, 0, r.err);
    });
  });

  describe('dlmm balances: a get-balance answer of the wrong shape is not read, never an invented figure', () => {
    const whole = `0x0701${'00'.repeat(8)}${'ff'.repeat(8)}`;
    for (const [what, result] of [
      ['truncated', `0x0701${'ff'.repeat(15)}`],
      ['with trailing bytes', `${whole}00`],
      ['with a non-hex digit', `${whole.slice(0, -1)}g`],
    ] as const) {
      it(`${what}: listed as not read, exit 1`, async () => {
        const faults = [{ match: SBTC_BALANCE, answer: { body: JSON.stringify({ okay: true, result }) } }];
        const r = await run(['balances', '--sender', SENDER, '--format', 'json'], faults);
        assert.equal(r.code, 1, r.err);
        const rows = JSON.parse(r.out) as { balances: Array<Record<string, unknown>> };
        const sbtc = rows.balances.find((b) => String(b.token).endsWith('.sbtc-token'));
        assert.ok(sbtc, r.out);
        assert.equal(sbtc.amount ?? null, null, JSON.stringify(sbtc));
        assert.match(JSON.stringify(sbtc), /not \(ok uint\)/);
      });
    }
  });

  describe('dlmm backtest: a history is used only when its points are unique, or the note says how', () => {
    const withHistory = (edit: (points: Point[]) => Point[] | void): Fault[] => [
      {
        match: HISTORY,
        answer: {
          body: patchJson((v) => {
            const out = edit(v.history as Point[]);
            if (out) v.history = out;
          }),
        },
      },
    ];
    const figures = (out: string) => out.split('\n').filter((l) => /in range \d+\/\d+/.test(l));

    it('each point twice (same time, same bin): the same figures as once, and the note says they were merged', async () => {
      const clean = await run(['backtest', LADDER], []);
      assert.equal(clean.code, 0, clean.err);
      const twice = await run(
        ['backtest', LADDER],
        withHistory((ps) => ps.flatMap((p) => [p, { ...p }])),
      );
      assert.equal(twice.code, 0, twice.err);
      assert.deepEqual(figures(twice.out), figures(clean.out));
      assert.ok(figures(clean.out).length > 0, clean.out);
      assert.match(twice.out, /\d+ duplicate point\(s\) \(same timestamp, same bin\) merged into one each/);
    });

    it('two points at one time with different bins: refused with the reason, exit 2', async () => {
      const r = await run(
        ['backtest', LADDER],
        withHistory((ps) => {
          const p = ps[3] as Point;
          ps.splice(4, 0, { ...p, bin_id: p.bin_id + 40 });
        }),
      );
      assert.equal(r.code, 2, r.err);
      assert.match(r.out, /refused: the history gives two active bins at timestamp \d+ \(-?\d+ and -?\d+\)/);
      assert.doesNotMatch(r.out, /in range \d+\/\d+/);
    });

    it('31-digit timestamp strings: refused quoting one, never an internal error', async () => {
      const r = await run(
        ['backtest', LADDER],
        withHistory((ps) => {
          for (const p of ps) p.timestamp = '1'.repeat(31);
        }),
      );
      assert.equal(r.code, 2, r.err);
      assert.match(r.out, /timestamp' integer out of range .*"1111111111111111111111111111111"/);
      assert.doesNotMatch(r.out + r.err, /internal error|TypeError/);
    });
  });

  describe('pacing: a wait is bounded and told', () => {
    it('X-RateLimit-Limit: 0 with Remaining: 0 on the node: the check ends at once with rate-limited naming the wait', async () => {
      const faults = [
        {
          match: /^POST \/node\//,
          answer: { headers: { 'X-RateLimit-Limit': '0', 'X-RateLimit-Remaining': '0' } },
        },
      ];
      const r = await run(['check', LADDER, '--format', 'json'], faults);
      assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
      assert.equal(r.code, 2, r.err);
      const report = JSON.parse(r.out) as {
        files: Array<{ diagnostics: Array<{ code: string; message: string }> }>;
      };
      const limited = report.files.flatMap((f) => f.diagnostics).filter((d) => d.code === 'rate-limited');
      assert.ok(limited.length > 0, r.out);
      assert.match(
        limited[0]?.message ?? '',
        /was not sent: the node paces requests: the next one could go only in \d+ s \(its answer said X-RateLimit-Remaining: 0 of \d+\), more than the 15 s dlmm waits at most/,
      );
    });

    it('a Retry-After of 2 s on the node: the wait is printed on stderr while it lasts, then the check goes on', async () => {
      const faults = [
        {
          match: /^POST \/node\//,
          times: 1,
          answer: { status: 429, body: '{"error":"slow down"}', headers: { 'Retry-After': '2' } },
        },
      ];
      const r = await run(['check', LADDER], faults);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(
        r.err,
        /dlmm: waiting 2 s for the node's rate limit: the node paces requests \(its answer said Retry-After: 2 s\)/,
      );
    });
  });
});
