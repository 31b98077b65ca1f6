/**
 * withoutLoadedCodeCache (cli/src/snapshot.ts) on files laid out as Node 20 ends a startup snapshot: its
 * built-in modules' code cache as a count, then per module an id and data, each a 64-bit little-endian
 * length and the bytes. The real file is covered by test/integration/check/snapshot.test.ts.
 */
import assert from 'node:assert/strict';
import { withoutLoadedCodeCache } from '../../../cli/src/snapshot';

const u64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const entry = (id: string, data: Buffer): Buffer =>
  Buffer.concat([u64(id.length), Buffer.from(id, 'latin1'), u64(data.length), data]);
/** Some bytes (the V8 snapshot and Node's own data in a real file), then the code cache. */
const HEAD = Buffer.concat([
  Buffer.from('\x19\xdaC\x01head bytes internal/not-an-entry', 'latin1'),
  Buffer.alloc(40, 7),
]);
const ENTRIES: Array<[string, Buffer]> = [
  ['fs', Buffer.alloc(300, 1)],
  ['internal/http2/core', Buffer.alloc(120, 2)],
  ['internal/bootstrap/realm', Buffer.alloc(0)],
  ['_http_agent', Buffer.alloc(55, 3)],
];
const file = (entries = ENTRIES): Buffer =>
  Buffer.concat([HEAD, u64(entries.length), ...entries.map(([id, d]) => entry(id, d))]);

describe('a startup snapshot without the code cache of the modules it holds loaded', () => {
  it('drops exactly the loaded modules’ entries and keeps the rest, in order, with their count', () => {
    const out = withoutLoadedCodeCache(file(), new Set(['fs', 'internal/bootstrap/realm', 'not-there']));
    assert.ok(out);
    assert.deepEqual(out, file([ENTRIES[1]!, ENTRIES[3]!]));
  });
  it('keeps the file as written when nothing is to drop or its end does not read as the entries', () => {
    assert.equal(withoutLoadedCodeCache(file(), new Set(['vm'])), undefined);
    assert.equal(withoutLoadedCodeCache(file(), new Set()), undefined);
    const all = file();
    // One byte more or less at the end, a count that does not match, a length beyond the file.
    assert.equal(withoutLoadedCodeCache(Buffer.concat([all, Buffer.alloc(1)]), new Set(['fs'])), undefined);
    assert.equal(withoutLoadedCodeCache(all.subarray(0, all.length - 1), new Set(['fs'])), undefined);
    const miscounted = Buffer.concat([HEAD, u64(5), ...ENTRIES.map(([id, d]) => entry(id, d))]);
    assert.equal(withoutLoadedCodeCache(miscounted, new Set(['fs'])), undefined);
    assert.equal(withoutLoadedCodeCache(HEAD, new Set(['fs'])), undefined);
  });
  it('drops every entry when all are loaded (an empty list, as Node reads it)', () => {
    const out = withoutLoadedCodeCache(file(), new Set(ENTRIES.map(([id]) => id)));
    assert.deepEqual(out, Buffer.concat([HEAD, u64(0)]));
  });
});
