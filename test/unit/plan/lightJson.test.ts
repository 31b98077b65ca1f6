/**
 * The fast JSON plan reader (core/plan/lightJson.ts) against the real `yaml` parser it stands in for
 * (parseDocument with the JSON schema and intAsBigInt): whenever it accepts a text, its value and every node
 * range and flow flag equal yaml's, repeated keys are yaml's DUPLICATE_KEY errors and a mapping over the
 * entry limit stops where yaml's tree check stops.
 */
import assert from 'node:assert/strict';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { parseLightJson } from '../../../core/plan/lightJson';
import type { LightNode } from '../../../core/plan/lightYaml';
import { checkJsonSyntax } from '../../../core/plan/jsonSyntax';
import { parsePlan } from '../../../core/plan/parse';
import { POOL1, SBTC, SENDER, USDCX } from './helpers';

function composed(text: string) {
  return parseDocument(text, { intAsBigInt: true, prettyErrors: false, uniqueKeys: true, schema: 'json' });
}

/** The first difference between a light node and the yaml node, or undefined. */
function diff(light: LightNode, node: unknown, text: string, where: string): string | undefined {
  const r = (node as Node | null)?.range;
  if (!r || r[0] !== light.range[0] || r[1] !== light.range[1] || r[2] !== light.range[2])
    return `${where}: range [${light.range.join(',')}] vs yaml [${r?.join(',')}] in ${JSON.stringify(text)}`;
  if (light.kind === 'scalar') return isScalar(node) ? undefined : `${where}: scalar vs other`;
  if (light.kind === 'map') {
    if (!isMap(node) || node.items.length !== light.keys.length) return `${where}: map`;
    for (let i = 0; i < light.keys.length; i++) {
      const pair = node.items[i]!;
      const d =
        diff(light.keys[i]!, pair.key, text, `${where}.key${i}`) ??
        diff(light.values[i]!, pair.value, text, `${where}.${String(light.keys[i]!.value)}`);
      if (d) return d;
    }
    return undefined;
  }
  if (light.kind === 'alias') return `${where}: JSON has no aliases`;
  if (!isSeq(node) || node.items.length !== light.items.length) return `${where}: seq`;
  for (let i = 0; i < light.items.length; i++) {
    const d = diff(light.items[i]!, node.items[i], text, `${where}[${i}]`);
    if (d) return d;
  }
  return undefined;
}

function same(text: string): void {
  assert.equal(checkJsonSyntax(text), undefined, text);
  const light = parseLightJson(text, 2000);
  assert.ok(light && 'root' in light, `refused: ${text}`);
  const doc = composed(text);
  assert.equal(doc.errors.length, 0);
  assert.deepEqual(light.value, doc.toJS());
  assert.equal(diff(light.root, doc.contents, text, '$'), undefined);
}

const PLAN = {
  $schema: '../schemas/dlmm-plan.schema.json',
  version: 1,
  sender: SENDER,
  policy: { slippage_tolerance: 0.5, deadline_seconds: null, max_tip_lag: 2 },
  operations: [
    {
      id: 'ladder',
      op: 'add',
      pool: POOL1,
      bins: [
        { bin_id: -3, x_amount: 0, y_amount: '12345678901234567890123' },
        { bin_id: 4, x_amount: 1e3, y_amount: 0 },
      ],
    },
    { op: 'withdraw', pool: POOL1, bins: [], withdrawal_percentage: 50 },
    {
      op: 'swap',
      input_token: SBTC,
      output_token: USDCX,
      amount_in: 100,
      aggregator: true,
      note: 'a "q" \\ é \u0001',
    },
  ],
};

describe('fast JSON plan reader = yaml parseDocument (JSON schema)', () => {
  it('gives the same value and ranges for compact, pretty and oddly spaced JSON', () => {
    same(JSON.stringify(PLAN));
    same(JSON.stringify(PLAN, null, 2));
    same(JSON.stringify(PLAN, null, '\t'));
    same(
      ' \r\n{ "a" : [ 1 , -0 , 2.5e-3 , true,false , null , { } , [ ] ] ,\n "b":{"c" :"\\u0041\\n"}\n}\n\n',
    );
    same('{"amount": 12345678901234567891, "x": 1E+2, "y": -1.0}');
  });

  it('reads any root, `__proto__` keys and repeated keys as yaml does', () => {
    for (const text of [
      '[1, {"a": [2]}]',
      '"x"',
      ' 12 ',
      'null',
      '{"__proto__": {"x": 1}, "b": [{"__proto__": 2}]}',
    ])
      same(text);
    const proto = parseLightJson('{"__proto__": {"x": 1}}', 2000);
    assert.ok(proto && 'root' in proto);
    assert.ok(Object.prototype.hasOwnProperty.call(proto.value, '__proto__'), 'an own property');
    assert.equal(Object.getPrototypeOf(proto.value), Object.prototype);
    // Every repeat is one of yaml's DUPLICATE_KEY errors, at the same offset; the value is toJS's (last wins).
    for (const text of [
      '{"a": 1, "a": 2}',
      '{"a":1,"b":{"c":1,"c":2,"c":3},"a":3,"\u0061":4}',
      '[{"k": 1, "k": 1}, {"k": 1}]',
      '{"__proto__": 1, "__proto__": 2}',
    ]) {
      const light = parseLightJson(text, 2000);
      assert.ok(light && 'root' in light, text);
      const doc = composed(text);
      const errors = doc.errors.map((e) => [e.code, e.pos[0], e.pos[1]]);
      assert.deepEqual(
        (light.duplicateKeys ?? []).map((o) => ['DUPLICATE_KEY', o, o + 1]),
        errors,
        text,
      );
      assert.ok(errors.length > 0);
      assert.deepEqual(light.value, doc.toJS(), text);
      assert.equal(diff(light.root, doc.contents, text, '$'), undefined);
    }
  });

  it('stops a mapping with more entries than the limit at the comma where the full parser stops', () => {
    const text = `{"a": {${Array.from({ length: 5 }, (_, i) => `"k${i}": 1`).join(',')}}}`;
    assert.deepEqual(parseLightJson(text, 4), { limit: text.indexOf(',"k4"') });
    assert.ok('root' in parseLightJson(text, 5)!);
    // Through parsePlan, with the message yaml's tree check gives (a YAML file holding it is read alike).
    const big = JSON.stringify({
      version: 1,
      operations: [Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`k${i}`, 1]))],
    });
    const json = parsePlan(big, { fileName: 'a.dlmm.json' });
    const yaml = parsePlan(`${big}\n`, { fileName: 'a.dlmm.yaml' });
    assert.equal(json.findings.length, 1);
    assert.match(json.findings[0]!.message, /^JSON: a mapping with more than 2000 entries is not read/);
    assert.equal(json.findings[0]!.offset, big.indexOf(',"k2000"'));
    assert.deepEqual(
      yaml.findings.map((f) => [f.offset, f.message.replace(/^YAML/, 'JSON')]),
      json.findings.map((f) => [f.offset, f.message]),
    );
  });

  it('reports repeated keys as the full parser does, at most 1,000 of them and then how many more', () => {
    const plan = `{"version": 1, "version": 1, "operations": [{"op": "swap", "op": "swap"}]}`;
    const parsed = parsePlan(plan, { fileName: 'a.dlmm.json' });
    const doc = composed(plan);
    assert.deepEqual(
      parsed.findings.map((f) => [f.code, f.offset, f.length, f.message]),
      doc.errors.map((e) => ['syntax', e.pos[0], 1, 'JSON: Map keys must be unique']),
    );
    assert.equal(parsed.plan, undefined);
    // The YAML reader of JSON text gives yaml's YAML-mode errors (the same places).
    assert.deepEqual(
      parsePlan(plan, { fileName: 'a.dlmm.yaml' }).findings.map((f) => [f.offset, f.message]),
      doc.errors.map((e) => [e.pos[0], 'YAML: Map keys must be unique']),
    );
    const bin = '{"bin_id": 1, "bin_id": 1}';
    const many = `{"version": 1, "operations": [{"op": "add", "bins": [${Array(1500).fill(bin).join(',')}]}]}`;
    const capped = parsePlan(many, { fileName: 'a.dlmm.json' }).findings;
    const repeats = [...many.matchAll(/"bin_id": 1, "bin_id"/g)].map((m) => m.index + 13);
    assert.equal(capped.length, 1001);
    assert.deepEqual(
      capped.slice(0, 1000).map((f) => f.offset),
      repeats.slice(0, 1000),
    );
    assert.equal(capped[1000]!.offset, repeats[1000]);
    assert.match(capped[1000]!.message, /^and 500 more repeated keys not listed/);
  });

  it('yields the same findings as the full parser on a plan with schema problems', () => {
    const bad = JSON.stringify({
      version: 1,
      operations: [
        { op: 'add', pool: POOL1, bins: [{ bin_id: 9999, x_amount: -1, y_amount: 'x', extra: 1 }] },
        { op: 'swap', input_token: SBTC, output_token: USDCX, amount_in: 1.5 },
      ],
    });
    const fast = parsePlan(bad, { fileName: 'a.dlmm.json' });
    // The same text with a duplicate key far away would go to yaml; instead compare with YAML-as-JSON read
    // through parseDocument directly: identical messages and ranges.
    const slow = parsePlan(bad + ' ', { fileName: 'a.dlmm.yaml' });
    assert.deepEqual(
      fast.findings.map((f) => [f.message, f.offset, f.length]),
      slow.findings.map((f) => [f.message, f.offset, f.length]),
    );
    assert.ok(fast.findings.length >= 3);
  });
});
