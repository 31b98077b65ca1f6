/**
 * The fast JSON plan reader (core/plan/lightJson.ts) against the real `yaml` parser it stands in for
 * (parseDocument with the JSON schema and intAsBigInt): whenever it accepts a text, its value and every node
 * range and flow flag equal yaml's; what it does not mirror it refuses (the parser then falls back).
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
  assert.ok(light, `refused: ${text}`);
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

  it('refuses what it does not mirror: a non-object root, duplicate and __proto__ keys, huge mappings', () => {
    assert.equal(parseLightJson('[1, 2]', 2000), undefined);
    assert.equal(parseLightJson('"x"', 2000), undefined);
    assert.equal(parseLightJson('{"a": 1, "a": 2}', 2000), undefined);
    assert.equal(parseLightJson('{"__proto__": {"x": 1}}', 2000), undefined);
    assert.equal(
      parseLightJson(`{${Array.from({ length: 5 }, (_, i) => `"k${i}": 1`).join(',')}}`, 4),
      undefined,
    );
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
