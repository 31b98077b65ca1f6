/**
 * Imported first by the zod schemas the CLI's commands and their API client share (liveSchemas.ts: they parse
 * each answer once per process): zod's JIT compiles each object schema (`new Function`, which the code cache
 * cannot keep) before its first parse, and whether to compile is decided as each schema is built. The results
 * are the same either way. The language server's API client loads the same file (dist/lazy-api-client.js);
 * the server's own schemas keep the JIT. (Plans are validated without zod: core/plan/schema.ts.)
 */
import { config } from 'zod';

config({ jitless: true });
