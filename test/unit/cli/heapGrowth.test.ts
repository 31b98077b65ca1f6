/**
 * `dlmm check` holds V8's heap growth while it analyses a large plan (cli/src/heapGrowth.ts) and sets the flag
 * back afterwards. V8 refuses code-cache data made under other flags, which makes the flag observable: data
 * made before is refused inside the window and accepted again after it (so the cache the CLI writes at exit
 * stays valid for the next run).
 */
import assert from 'node:assert/strict';
import { Script } from 'node:vm';
import { LARGE_PLAN, withHeapGrowthHeld } from '../../../cli/src/heapGrowth';

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
