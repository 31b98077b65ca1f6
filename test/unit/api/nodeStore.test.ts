/** The machine-wide node store: facts per applied height, shared between stores (processes), pacing seeds. */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRateLimiter } from '../../../core/api/limiter';
import { defaultCacheDir, nodeCacheDir, openNodeStore } from '../../../core/api/nodeStore';

const NODE = 'https://node.example/v2';
const FACT = { okay: true, result: '0x0701' };

describe('node store (on-disk cache of node facts)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dlmm-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves a fact only at the height it was read, to another store on the same machine', () => {
    const a = openNodeStore(dir, NODE);
    a.set(1000, 'pool get-bin-balances 01', FACT);
    a.flush();
    const b = openNodeStore(dir, NODE);
    assert.deepEqual(b.get(1000, 'pool get-bin-balances 01'), FACT);
    assert.equal(b.get(1001, 'pool get-bin-balances 01'), undefined);
  });

  it('drops every entry when the height moves', () => {
    const a = openNodeStore(dir, NODE);
    a.set(1000, 'k1', FACT);
    a.set(1001, 'k2', FACT);
    a.flush();
    const b = openNodeStore(dir, NODE);
    assert.equal(b.get(1000, 'k1'), undefined);
    assert.equal(b.get(1001, 'k1'), undefined);
    assert.deepEqual(b.get(1001, 'k2'), FACT);
  });

  it('picks up what another store wrote after it opened, and merges on write', () => {
    const a = openNodeStore(dir, NODE);
    const b = openNodeStore(dir, NODE);
    a.set(7, 'ka', FACT);
    a.flush();
    b.set(7, 'kb', FACT);
    b.flush();
    const c = openNodeStore(dir, NODE);
    assert.deepEqual(c.get(7, 'ka'), FACT);
    assert.deepEqual(c.get(7, 'kb'), FACT);
    assert.deepEqual(b.get(7, 'ka'), FACT);
  });

  it('keeps endpoints apart and names files without the URL', () => {
    openNodeStore(dir, NODE).set(1, 'k', FACT);
    const other = openNodeStore(dir, 'https://other.example/v2');
    assert.equal(other.get(1, 'k'), undefined);
    const a = openNodeStore(dir, 'https://user:secret@node.example/v2?x=1');
    assert.doesNotMatch(a.file, /secret|example/);
  });

  it('treats a foreign or broken file as empty', () => {
    const a = openNodeStore(dir, NODE);
    writeFileSync(a.file, '{"format": 99, "entries": 5}');
    assert.equal(openNodeStore(dir, NODE).get(1, 'k'), undefined);
    writeFileSync(a.file, 'not json');
    const b = openNodeStore(dir, NODE);
    b.set(1, 'k', FACT);
    b.flush();
    assert.deepEqual(openNodeStore(dir, NODE).get(1, 'k'), FACT);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });

  it('hands recent request times to the next store, and a seeded limiter waits for them', async () => {
    const t0 = Date.now();
    const a = openNodeStore(dir, NODE);
    for (let i = 0; i < 3; i++) a.recordRequest(t0 + i);
    a.flush();
    const seed = openNodeStore(dir, NODE).recentRequests(60_000, t0 + 10);
    assert.deepEqual(seed, [t0, t0 + 1, t0 + 2]);
    let t = t0 + 10;
    const slept: number[] = [];
    const limiter = createRateLimiter({
      limit: 3,
      windowMs: 60_000,
      now: () => t,
      seed,
      sleep: async (ms) => {
        slept.push(ms);
        t += ms;
      },
    });
    const release = await limiter.acquire();
    release();
    assert.equal(limiter.delayed, 1, 'the window was full with the earlier process requests');
    assert.ok(t >= t0 + 60_000, 'admitted only after the oldest earlier request left the window');
    assert.ok(slept.length > 0);
  });

  it('lives in the user cache folder; DLMM_CACHE_DIR overrides; loopback nodes only when explicit', () => {
    assert.equal(defaultCacheDir({}, 'linux', '/home/u'), '/home/u/.cache/dlmm-studio');
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/c' }, 'linux', '/home/u'), '/c/dlmm-studio');
    assert.equal(defaultCacheDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Caches/dlmm-studio');
    assert.equal(nodeCacheDir({ DLMM_CACHE_DIR: '/tmp/x' }, 'http://127.0.0.1:1/node'), '/tmp/x');
    assert.equal(nodeCacheDir({}, 'http://127.0.0.1:1/node'), undefined);
    assert.equal(nodeCacheDir({ DLMM_CACHE_DIR: 'off' }, NODE), undefined);
    assert.match(nodeCacheDir({}, NODE) ?? '', /dlmm-studio/);
  });
});
