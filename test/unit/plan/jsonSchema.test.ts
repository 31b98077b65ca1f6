import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planJsonSchema, planJsonSchemaText } from '../../../core/plan/jsonSchema';

describe('plan JSON Schema', () => {
  it('the shipped schemas/dlmm-plan.schema.json equals a fresh generation', () => {
    const shipped = readFileSync(join(__dirname, '../../../schemas/dlmm-plan.schema.json'), 'utf8');
    assert.equal(shipped, planJsonSchemaText(), 'run `node esbuild.mjs` to regenerate the schema');
  });

  it('describes amounts as integer-or-digit-string and leaks no bigint', () => {
    const text = planJsonSchemaText();
    assert.doesNotMatch(text, /bigint/i);
    const s = planJsonSchema() as {
      properties: { operations: { items: { oneOf: Array<{ properties: Record<string, unknown> }> } } };
    };
    const swap = s.properties.operations.items.oneOf.find((o) =>
      JSON.stringify(o.properties.op).includes('swap'),
    );
    const amount = swap?.properties.amount_in as { anyOf: Array<{ type: string }> };
    assert.deepEqual(amount.anyOf.map((m) => m.type).sort(), ['integer', 'string']);
    assert.equal((s as unknown as { additionalProperties: boolean }).additionalProperties, false);
  });
});
