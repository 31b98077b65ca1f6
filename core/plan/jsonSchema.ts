/**
 * The published JSON Schema of plan files, generated from the same zod schema the analyzer uses
 * (docs/plan-format.md: never hand-written twice). Input side of the schema: amounts are integer-or-digit-string,
 * bigint (the parser's representation) never leaks into the published document.
 */
import * as z from 'zod';
import { MAX_UINT128 } from '../dlmm/bins';
import { PlanSchema, zPercent, zPlanAmount, zPlanBinId, zSlippage, zSmallInt } from './schema';

export const PLAN_SCHEMA_ID = 'https://dlmm-studio.dev/schemas/dlmm-plan.schema.json';

type JsonSchema = Record<string, unknown>;

const AMOUNT: JsonSchema = {
  description: `Unsigned integer in base units, up to uint128 (${MAX_UINT128}); a number or a digit string.`,
  anyOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: '^(0|[1-9]\\d*)$' },
  ],
};
const INTEGER: JsonSchema = { type: 'integer' };
const PERCENT: JsonSchema = {
  description: 'Percent as the quote engine takes it: 1 means 1%. At most 4 decimals.',
  anyOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^\\d+(\\.\\d{1,4})?$' },
  ],
};

/** The plan JSON Schema (draft 2020-12) as a plain object. */
export function planJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(PlanSchema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: (ctx) => {
      const s = ctx.zodSchema as unknown;
      const replace = (next: JsonSchema): void => {
        for (const k of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[k];
        Object.assign(ctx.jsonSchema, next);
      };
      if (s === zPlanAmount) replace({ ...AMOUNT });
      else if (s === zPlanBinId)
        replace({ ...INTEGER, description: 'Signed bin id (-500..500), the quote list domain.' });
      else if (s === zSmallInt) replace({ ...INTEGER });
      else if (s === zPercent) replace({ ...PERCENT });
      else if (s === zSlippage)
        replace({
          description: 'Slippage tolerance in percent (1 means 1%), below 100. At most 4 decimals.',
          anyOf: [
            { type: 'number', minimum: 0, exclusiveMaximum: 100 },
            { type: 'string', pattern: '^\\d{1,2}(\\.\\d{1,4})?$' },
          ],
        });
    },
  }) as JsonSchema;
  return clean({
    ...generated,
    $id: PLAN_SCHEMA_ID,
    title: 'DLMM Studio plan (*.dlmm.yaml, *.dlmm.yml, *.dlmm.json)',
  }) as JsonSchema;
}

/** Drops `{}` members of anyOf (bigint branches) and collapses duplicates left by zod's literal unions. */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) out[k] = clean(v);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = out[key];
    if (!Array.isArray(list)) continue;
    const seen = new Set<string>();
    const kept = list.filter((m) => {
      const text = JSON.stringify(m);
      if (text === '{}' || seen.has(text)) return false;
      seen.add(text);
      return true;
    });
    if (kept.length === 1 && key === 'anyOf') {
      delete out[key];
      Object.assign(out, kept[0] as JsonSchema);
    } else out[key] = kept;
  }
  // The plan version: an integer 1 (zod writes number).
  if (out.const === 1 && out.type === 'number') out.type = 'integer';
  return out;
}

/** The schema as the shipped file's text (stable key order, trailing newline). */
export function planJsonSchemaText(): string {
  return JSON.stringify(planJsonSchema(), null, 2) + '\n';
}
