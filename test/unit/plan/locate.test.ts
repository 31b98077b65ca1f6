/**
 * Hover's locate on long lists: the item under the offset is found by binary search. The answer is the one a
 * linear scan of the composed Document's items gives (the first item whose range holds the offset).
 */
import assert from 'node:assert/strict';
import { isSeq, parseDocument, type Node } from 'yaml';
import { parseLightYaml, type LightDoc } from '../../../core/plan/lightYaml';
import { parseLightJson, type JsonDoc } from '../../../core/plan/lightJson';
import { locate, type Located, type LocatedPath } from '../../../core/plan/locate';
import { prng } from '../../../core/sim/history';
import { POOL1, SENDER } from './helpers';

/** The linear scan over the composed Document's list at `path`: the first item holding an offset (-1: none). */
function linearScan(text: string, path: (string | number)[]) {
  const seq = parseDocument(text).getIn(path, true);
  assert.ok(isSeq(seq) && seq.range);
  const items = seq.items as Node[];
  return {
    /** The list's own range (offsets inside it are located in it). */
    start: seq.range[0],
    end: seq.range[1],
    at: (offset: number) =>
      items.findIndex((it) => !!it.range && offset >= it.range[0] && offset <= it.range[1]),
  };
}

/** Offsets at the start, the end and random places of `text[from, to)`, every character of each window. */
function offsets(from: number, to: number): number[] {
  const rand = prng(7);
  const out: number[] = [];
  const window = (at: number) => {
    for (let o = Math.max(from, at); o < Math.min(to, at + 40); o++) out.push(o);
  };
  window(from);
  window(to - 35);
  for (let k = 0; k < 10; k++) window(from + Math.floor(rand() * (to - from)));
  return out;
}

const BINS = Array.from({ length: 20_000 }, (_, i) => (i % 1001) - 500);

describe('locate: binary search over a list', () => {
  for (const [name, text, read] of [
    [
      'a flow list of 20,000 bin ids (YAML)',
      `version: 1\nsender: ${SENDER}\noperations:\n  - op: withdraw\n    pool: ${POOL1}\n    bins: [${BINS.join(', ')}]\n`,
      (t: string) => parseLightYaml(t),
    ],
    [
      'a list of 20,000 bin ids (JSON)',
      JSON.stringify({ version: 1, operations: [{ op: 'withdraw', pool: POOL1, bins: BINS }] }, null, 1),
      (t: string) => parseLightJson(t, 100_000),
    ],
  ] as const) {
    it(`${name}: the linear scan's answer`, () => {
      const light: LightDoc | JsonDoc | { limit: number } | undefined = read(text);
      assert.ok(light && 'root' in light, 'read by the fast reader');
      const path = ['operations', 0, 'bins'];
      const linear = linearScan(text, path);
      let hits = 0;
      for (const offset of offsets(linear.start, linear.end)) {
        const expected = linear.at(offset);
        const result: Located | undefined = locate(light.root, offset);
        if (expected < 0) assert.deepEqual(result?.path, path, `at ${offset}`);
        else {
          hits++;
          assert.deepEqual(result?.path, [...path, expected], `at ${offset}`);
          assert.equal(result?.scalar?.value, BigInt(BINS[expected]!), `at ${offset}`);
        }
      }
      assert.ok(hits > 100, `${hits} offsets on an item`);
    });
  }

  it('a block list of 5,000 bins (maps): the linear scan answer', () => {
    const bins = Array.from(
      { length: 5_000 },
      (_, i) => `      - { bin_id: ${(i % 1001) - 500}, x_amount: ${i}, y_amount: 0 }\n`,
    ).join('');
    const text = `version: 1\noperations:\n  - op: add\n    pool: ${POOL1}\n    bins:\n${bins}`;
    const light = parseLightYaml(text);
    assert.ok(light);
    const linear = linearScan(text, ['operations', 0, 'bins']);
    for (const offset of offsets(linear.start, linear.end)) {
      const expected = linear.at(offset);
      const got: LocatedPath | undefined = locate(light.root, offset)?.path;
      if (expected < 0) assert.deepEqual(got?.slice(0, 4), ['operations', 0, 'bins'].slice(0, got?.length));
      else assert.deepEqual(got?.slice(0, 4), ['operations', 0, 'bins', expected], `at ${offset}`);
    }
  });
});
