/** Writes the plan JSON Schema (generated from the zod schema) to dist/ and schemas/ (shipped). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { planJsonSchemaText } from '../core/plan/jsonSchema';

const root = join(__dirname, '..');
const text = planJsonSchemaText();
for (const rel of ['dist/dlmm-plan.schema.json', 'schemas/dlmm-plan.schema.json']) {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
process.stdout.write(`plan JSON Schema written (${text.length} bytes)\n`);
