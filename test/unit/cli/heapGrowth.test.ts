/**
 * `dlmm check` holds V8's heap growth while it analyses a large plan (cli/src/heapGrowth.ts) and sets the flag
 * back afterwards; so does `dlmm export` (and `dlmm wallet`, through the same check-then-build step) while it
 * analyses and builds one. V8 refuses code-cache data made under other flags, which makes the flag observable: data
 * made before is refused inside the window and accepted again after it (so the cache the CLI writes at exit
 * stays valid for the next run).
 */
import assert from 'node:assert/strict';
import { Script } from 'node:vm';
import { checkAndBuild } from '../../../cli/src/exportPlan';
import { LARGE_PLAN, withHeapGrowthHeld } from '../../../cli/src/heapGrowth';
import type { CliIO } from '../../../cli/src/io';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { DEFAULT_SIM_API_KEY } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

const SOURCE = 'function f(a) { return a + 1; } f(1);';
let probes = 0;
/**
 * Whether V8 refuses `data` now. Each probe has a name of its own: a script compiled before under the same
 * name and source comes from the isolate's compilation cache, without looking at the data.
 */
const refused = (data: Buffer): boolean =>
  new Script(SOURCE, { filename: `heap-growth-probe-${++probes}.js`, cachedData: data })
    .cachedDataRejected === true;

describe('heap growth held while a large plan is analysed', () => {
  const data = new Script(SOURCE, { filename: 'heap-growth-probe.js' }).createCachedData();

  it('sets the flag for a large plan only, and back once the analysis is done', async () => {
    assert.equal(refused(data), false);
    assert.equal(await withHeapGrowthHeld(LARGE_PLAN - 1, () => refused(data)), false, 'small: untouched');
    assert.equal(await withHeapGrowthHeld(LARGE_PLAN, () => refused(data)), true, 'large: held');
    assert.equal(refused(data), false, 'set back');
  });

  it('keeps it held while any large analysis runs, and sets it back after a failure too', async () => {
    let release!: () => void;
    const first = withHeapGrowthHeld(LARGE_PLAN, () => new Promise<void>((r) => (release = r)));
    await assert.rejects(
      withHeapGrowthHeld(LARGE_PLAN, () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(refused(data), true, 'still held for the first');
    release();
    await first;
    assert.equal(refused(data), false, 'set back');
  });
});

describe('dlmm export holds the heap growth as check does', function () {
  this.timeout(60_000);
  const data = new Script(SOURCE, { filename: 'heap-growth-probe-export.js' }).createCachedData();
  const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
  const PLAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - { id: asks, op: add, pool: ${POOL}, bins: [{ bin_id: 142, x_amount: 150000, y_amount: 0 }] }
`;
  let sim: RunningSimulator;
  before(async () => (sim = await startSimulator({ port: 0 })));
  after(async () => sim?.close());

  /** The real client on the simulator, noting at each read whether the flag is held (a spy, no answer changed). */
  function probedApi(held: boolean[]): DlmmApi {
    const real = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, apiKey: DEFAULT_SIM_API_KEY });
    return new Proxy(real, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver) as unknown;
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          held.push(refused(data));
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }

  const io: CliIO = { out: () => {}, err: () => {}, env: {}, cwd: process.cwd() };

  for (const [name, text, expected] of [
    [
      'a plan above 1 MiB (a long comment): held for every read, set back after',
      `${PLAN}# ${'x'.repeat(LARGE_PLAN)}\n`,
      true,
    ],
    ['a small plan: untouched', PLAN, false],
  ] as const) {
    it(name, async () => {
      const held: boolean[] = [];
      const r = await checkAndBuild(probedApi(held), text, 'big.dlmm.yaml', {}, io, 'dlmm export');
      assert.ok(r.ok, 'exported');
      assert.equal(r.transactions.length, 1);
      assert.ok(held.length > 0, 'the plan was read live');
      assert.deepEqual(new Set(held), new Set([expected]));
      assert.equal(refused(data), false, 'set back');
    });
  }
});
