/** `dlmm plan add` and `dlmm plan recentre` through main() with a captured terminal, against the simulated engine. */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';
import { createApiClient } from '../../../core/api/client';
import { analyzePlan } from '../../../core/check/analyze';
import { DEFAULT_SIM_API_KEY, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

async function dlmm(argv: string[], env: Record<string, string | undefined>, cwd = process.cwd()) {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('dlmm plan (simulated engine)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let env: Record<string, string>;
  let dir: string;
  before(async () => {
    sim = await startSimulator({ port: 0 });
    env = {
      DLMM_API_URL: sim.url,
      DLMM_API_KEY: DEFAULT_SIM_API_KEY,
      DLMM_NODE_URL: sim.nodeUrl,
      DLMM_INVENTORY_URL: sim.inventoryUrl,
    };
    dir = mkdtempSync(join(tmpdir(), 'dlmm-plan-'));
  });
  after(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plan add: human amounts converted exactly with the decimals, a distribution written and checked', async () => {
    const r = await dlmm(
      [
        'plan',
        'add',
        '--pool',
        'dlmm_1',
        '--shape',
        'curve',
        '--range',
        '-20..20',
        '--x',
        '1.5',
        '--y',
        '76000.25',
        '--sender',
        SENDER,
        '--out',
        'curve.dlmm.yaml',
      ],
      env,
      dir,
    );
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '');
    assert.match(r.err, /wrote curve\.dlmm\.yaml/);
    const text = readFileSync(join(dir, 'curve.dlmm.yaml'), 'utf8');
    assert.match(
      text,
      /distribution: \{ shape: curve, from: -20, to: 20, x_amount: 150000000, y_amount: 76000250000 \}/,
    );
    assert.match(text, /mode: simple/);
    const api = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, apiKey: DEFAULT_SIM_API_KEY });
    try {
      const a = await analyzePlan(text, { api });
      assert.deepEqual(
        a.findings.filter((f) => f.severity === 'error'),
        [],
      );
      const op = a.prepared[0];
      assert.ok(op?.op === 'add');
      assert.equal(
        op.items.reduce((s, i) => s + i.x_amount, 0n),
        150_000_000n,
      );
    } finally {
      await api.close?.();
    }
  });

  it('plan add --format json --mode strict to stdout: exact integers, absolute ids', async () => {
    const r = await dlmm(
      [
        'plan',
        'add',
        '--pool',
        POOL_SBTC_USDCX,
        '--shape',
        'spot',
        '--range',
        '100..120',
        '--y',
        '5',
        '--mode',
        'strict',
        '--format',
        'json',
      ],
      env,
    );
    assert.equal(r.code, 1, 'written, with an error finding');
    const doc = JSON.parse(r.out) as {
      operations: Array<{ mode: string; distribution: Record<string, unknown> }>;
    };
    assert.equal(doc.operations[0]?.mode, 'strict');
    assert.deepEqual(doc.operations[0]?.distribution, {
      shape: 'spot',
      from: 100,
      to: 120,
      x_amount: 0,
      y_amount: 5000000,
    });
    assert.match(r.err, /bin-not-found/, 'bins 100..108 are not listed: the check says so');
  });

  it('plan add --mode strict with offset-like --range: a hint with the absolute range; findings of stdout name <stdout>; a readable id', async () => {
    const r = await dlmm(
      [
        'plan',
        'add',
        '--pool',
        'dlmm_1',
        '--shape',
        'curve',
        '--range',
        '-20..20',
        '--x',
        '1',
        '--mode',
        'strict',
      ],
      env,
    );
    assert.match(
      r.err,
      /strict ranges are absolute signed bin ids, and -20\.\.20 is far from the active bin 139; if you meant offsets from it, write --range 119\.\.159 \(or --mode simple\)/,
    );
    assert.match(r.out, /id: curve-m20-20\b/);
    assert.match(r.err, /^<stdout>:\d+:\d+ /m, 'the findings name <stdout>, not a file that does not exist');
    assert.doesNotMatch(r.err, /plan\.dlmm\.yaml/);
    const near = await dlmm(
      [
        'plan',
        'add',
        '--pool',
        'dlmm_1',
        '--shape',
        'spot',
        '--range',
        '130..140',
        '--y',
        '1',
        '--mode',
        'strict',
      ],
      env,
    );
    assert.doesNotMatch(near.err, /strict ranges are absolute/, 'a range near the active bin gets no hint');
  });

  it('usage errors: too many decimals, a bad range, an unknown shape (exit 2, nothing written)', async () => {
    const base = ['plan', 'add', '--pool', 'dlmm_1', '--range', '-2..2'];
    const a = await dlmm([...base, '--shape', 'spot', '--x', '0.000000001'], env);
    assert.equal(a.code, 2);
    assert.match(a.err, /--x '0\.000000001' is not a plain decimal amount of sBTC with at most 8 decimals/);
    const b = await dlmm(
      ['plan', 'add', '--pool', 'dlmm_1', '--shape', 'spot', '--range', '5..-5', '--x', '1'],
      env,
    );
    assert.equal(b.code, 2);
    assert.match(b.err, /A must not be above B/);
    const c = await dlmm([...base, '--shape', 'wave', '--x', '1'], env);
    assert.equal(c.code, 2);
    assert.match(c.err, /--shape 'wave' is not a shape/);
  });

  it("plan recentre: the sender's far positions move into the shape around the active bin; the move checks clean", async () => {
    const r = await dlmm(
      [
        'plan',
        'recentre',
        '--pool',
        POOL_SBTC_USDCX,
        '--sender',
        SENDER,
        '--shape',
        'bid-ask',
        '--width',
        '2',
      ],
      env,
    );
    assert.equal(r.code, 0, r.err);
    // Bin 136 is 3 below the active bin 139: it moves into 138 and 137 (bid-ask: more at the edge).
    assert.match(r.out, /op: move\n {4}mode: simple\n/);
    const moves = [...r.out.matchAll(/from_bin_id: (\d+), active_bin_offset: (-?\d+), amount: (\d+)/g)];
    assert.deepEqual(
      moves.map((m) => [Number(m[1]), Number(m[2])]),
      [
        [136, -2],
        [136, -1],
      ],
    );
    assert.ok(BigInt(moves[0]![3]!) > BigInt(moves[1]![3]!));
    const nothing = await dlmm(
      ['plan', 'recentre', '--pool', POOL_SBTC_USDCX, '--sender', SENDER, '--shape', 'spot', '--width', '5'],
      env,
    );
    assert.equal(nothing.code, 0);
    assert.equal(nothing.out, '');
    assert.match(nothing.err, /nothing to move/);
  });

  it('aliases resolve through the pools list: the plan is written with the contract principal (issue 28 items 6, 7)', async () => {
    // The same recentre as above, by alias: it reads the sender's app v2 positions through the principal.
    const r = await dlmm(
      ['plan', 'recentre', '--pool', 'dlmm_1', '--sender', SENDER, '--shape', 'bid-ask', '--width', '2'],
      env,
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`^    pool: ${POOL_SBTC_USDCX.replace(/\./g, '\\.')}$`, 'm'));
    assert.match(r.out, new RegExp(`^sender: ${SENDER}$`, 'm'));
    assert.doesNotMatch(r.out, /dlmm_1/);
    assert.doesNotMatch(r.err, /live data unavailable|prefer-contract-id/);
    // plan add by alias: the principal is written, and with --sender the written plan exports.
    const add = await dlmm(
      [
        'plan',
        'add',
        '--pool',
        'dlmm_1',
        '--shape',
        'curve',
        '--range',
        '-20..20',
        '--x',
        '1',
        '--y',
        '76000',
      ],
      env,
      dir,
    );
    assert.equal(add.code, 0, add.err);
    assert.match(add.out, new RegExp(`^    pool: ${POOL_SBTC_USDCX.replace(/\./g, '\\.')}$`, 'm'));
    assert.doesNotMatch(add.err, /prefer-contract-id/);
    // Without --sender, check says before export what export will need.
    assert.match(add.err, /warning sender-missing the plan has no `sender`/);
  });

  it('a plan add without --sender is flagged sender-missing by check, and export refuses it with that code', async () => {
    const out = join(dir, 'nosender.dlmm.yaml');
    const w = await dlmm(
      [
        'plan',
        'add',
        '--pool',
        'dlmm_1',
        '--shape',
        'spot',
        '--range',
        '-2..2',
        '--x',
        '0.001',
        '--out',
        out,
      ],
      env,
    );
    assert.equal(w.code, 0, w.err);
    const c = await dlmm(['check', '--format', 'json', out], env);
    const doc = JSON.parse(c.out) as { files: Array<{ diagnostics: Array<{ code: string }> }> };
    assert.deepEqual(
      doc.files[0]!.diagnostics.map((d) => d.code),
      ['sender-missing'],
    );
    const e = await dlmm(['export', out, '--out', join(dir, 'x.json')], env);
    assert.equal(e.code, 1, 'refused: cannot be exported');
    assert.match(e.err, /not exported \(sender-missing\)/);
    const withSender = join(dir, 'sender.dlmm.yaml');
    const ws = await dlmm(
      [
        'plan',
        'add',
        '--pool',
        'dlmm_1',
        '--shape',
        'spot',
        '--range',
        '-2..2',
        '--x',
        '0.001',
        '--sender',
        SENDER,
        '--out',
        withSender,
      ],
      env,
    );
    assert.equal(ws.code, 0, ws.err);
    assert.doesNotMatch(ws.err, /sender-missing/);
  });

  it('an unknown pool says it is unknown and lists the known ones, never "live data unavailable"', async () => {
    for (const sub of [
      ['add', '--shape', 'curve', '--range', '-20..20', '--x', '1'],
      ['recentre', '--sender', SENDER, '--shape', 'spot', '--width', '5'],
    ]) {
      const r = await dlmm(['plan', sub[0]!, '--pool', 'dlmm_9', ...sub.slice(1)], env);
      assert.equal(r.code, 2, r.err);
      assert.equal(r.out, '');
      assert.match(r.err, /pool 'dlmm_9' is not in the engine's pools list/);
      assert.match(r.err, new RegExp(`known pools: dlmm_1 \\(${POOL_SBTC_USDCX.replace(/\./g, '\\.')}\\)`));
      assert.doesNotMatch(r.err, /live data unavailable/);
    }
  });
});
