/**
 * The fast readers' compact collections (core/plan/lightCompact.ts): maps and sequences of one-line scalars
 * keep their entries' offsets in one Int32Array and build the scalar nodes when asked. The differential tests
 * (lightYaml.test.ts, lightJson.test.ts) compare every node they build with yaml's; these check which nodes
 * are compact, and the cases where a compact entry is reached another way (aliases, CRLF offsets).
 */
import assert from 'node:assert/strict';
import { parseDocument, type Node } from 'yaml';
import { CompactMap, CompactSeq, mapKey, mapValue, seqItem } from '../../../core/plan/lightCompact';
import { parseLightJson, type JsonDoc } from '../../../core/plan/lightJson';
import { parseLightYaml, type LightMap, type LightNode } from '../../../core/plan/lightYaml';
import { parsePlan } from '../../../core/plan/parse';
import { SENDER } from './helpers';

const at = (root: LightNode, ...path: Array<string | number>): LightNode => {
  let n: LightNode = root;
  for (const seg of path) {
    if (n.kind === 'map') {
      const i = n.keys.findIndex((k) => k.value === seg);
      n = mapValue(n, i)!;
    } else if (n.kind === 'seq') n = seqItem(n, seg as number)!;
    else throw new Error(`no ${String(seg)}`);
  }
  return n;
};

const PLAN = `version: 1
sender: ${SENDER}
operations:
  - op: add
    pool: dlmm_1
    bins:
      - { bin_id: 1, x_amount: 10, y_amount: 0 }
      - bin_id: 2
        x_amount: '20'
        y_amount: 0
  - op: withdraw
    pool: dlmm_1
    bins: [1, 2, 3]
    note: |
      kept as text
`;

describe('compact light trees (lightCompact.ts)', () => {
  it('keeps maps compact (collections and block scalars beside the offsets), and lists of scalars', () => {
    const root = parseLightYaml(PLAN)!.root;
    assert.ok(at(root, 'operations', 0, 'bins', 0) instanceof CompactMap, 'a flow map of scalars');
    assert.ok(at(root, 'operations', 0, 'bins', 1) instanceof CompactMap, 'a block map of scalars');
    assert.ok(at(root, 'operations', 1, 'bins') instanceof CompactSeq, 'a flow sequence of scalars');
    assert.ok(!(at(root, 'operations', 0, 'bins') instanceof CompactSeq), 'a list of maps');
    const withdraw = at(root, 'operations', 1);
    assert.ok(withdraw instanceof CompactMap, 'a map holding a list and a block scalar');
    const note = at(root, 'operations', 1, 'note');
    assert.equal(note.kind === 'scalar' && note.value, 'kept as text\n');
    // A node kept beside the offsets is the reader's own, every time.
    assert.equal(at(root, 'operations', 1, 'bins'), at(root, 'operations', 1, 'bins'));
    assert.ok(root instanceof CompactMap);
    const json = parseLightJson(
      JSON.stringify({ version: 1, operations: [{ op: 'add', bins: [1] }] }),
      100,
    ) as JsonDoc;
    assert.ok(at(json.root, 'operations', 0) instanceof CompactMap);
    assert.ok(at(json.root, 'operations', 0, 'bins') instanceof CompactSeq);
    assert.ok(!(at(json.root, 'operations') instanceof CompactSeq));
  });

  it('builds the same nodes as yaml, one entry at a time', () => {
    const root = parseLightYaml(PLAN)!.root;
    const doc = parseDocument(PLAN, { intAsBigInt: true });
    const bin = at(root, 'operations', 0, 'bins', 1) as LightMap;
    const yamlBin = doc.getIn(['operations', 0, 'bins', 1], true) as {
      items: Array<{ key: Node; value: Node }>;
    };
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(mapKey(bin, i)!.range, yamlBin.items[i]!.key.range);
      assert.deepEqual(mapValue(bin, i)!.range, yamlBin.items[i]!.value.range);
    }
    assert.equal((mapValue(bin, 1) as { value: unknown }).value, '20');
    assert.equal((mapValue(bin, 2) as { value: unknown }).value, 0n);
    assert.equal(mapKey(bin, 3), undefined);
  });

  it('follows an alias to an anchored entry of a compact map, in LF and CRLF texts alike', () => {
    const lf = `version: 1\nsender: ${SENDER}\noperations:\n  - op: add\n    pool: dlmm_1\n    bins:\n      - { bin_id: 1, x_amount: &a 1.5, y_amount: 0 }\n      - { bin_id: 2, x_amount: *a, y_amount: 0 }\n`;
    for (const text of [lf, lf.replace(/\n/g, '\r\n')]) {
      assert.ok(parseLightYaml(text), 'read by the fast reader');
      const parsed = parsePlan(text);
      const doc = parseDocument(text, { intAsBigInt: true });
      for (const path of [
        ['operations', 0, 'bins', 0, 'x_amount'],
        ['operations', 0, 'bins', 1, 'x_amount'],
        ['operations', 0, 'bins', 1, 'y_amount'],
      ]) {
        const r = (doc.getIn(path, true) as Node).range!;
        assert.deepEqual(parsed.rangeOf(path), { offset: r[0], length: r[1] - r[0] }, JSON.stringify(path));
      }
      // The float is kept as written, read through the alias from its anchor's text.
      const bins = (parsed.value as { operations: Array<{ bins: Array<{ x_amount: unknown }> }> })
        .operations[0]!.bins;
      assert.equal(bins[1]!.x_amount, '1.5');
      const amount = parsed.findings.find((f) => f.message.includes('x_amount'));
      assert.ok(amount, 'the float amount is refused');
    }
  });
});
