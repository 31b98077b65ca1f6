/**
 * The published JSON Schema of plan files, generated from the same schema the analyzer uses (schema.ts, each
 * field's `json`; docs/plan-format.md: never hand-written twice). Input side of the schema: amounts are
 * integer-or-digit-string, bigint (the readers' representation) never leaks into the published document.
 */
import { PlanSchema } from './schema';

export const PLAN_SCHEMA_ID = 'https://dlmm-studio.dev/schemas/dlmm-plan.schema.json';

/** The plan JSON Schema (draft 2020-12) as a plain object. */
export function planJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...PlanSchema.json,
    $id: PLAN_SCHEMA_ID,
    title: 'DLMM Studio plan (*.dlmm.yaml, *.dlmm.yml, *.dlmm.json)',
  };
}

/** The schema as the shipped file's text (stable key order, trailing newline). */
export function planJsonSchemaText(): string {
  return JSON.stringify(planJsonSchema(), null, 2) + '\n';
}
