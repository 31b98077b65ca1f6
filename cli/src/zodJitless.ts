/**
 * Imported first by the zod schemas of a command that parses with zod once per process (a live `dlmm check`:
 * liveSchemas.ts): zod's JIT compiles each object schema (`new Function`, which the code cache cannot keep)
 * before its first parse, and whether to compile is decided as each schema is built. The results are the same
 * either way; the language server keeps the JIT. (Plans are validated without zod: core/plan/schema.ts.)
 */
import { config } from 'zod';

config({ jitless: true });
