/**
 * Imported first by the commands that parse with zod once per process (`dlmm check`): zod's JIT compiles each
 * object schema (`new Function`, which the code cache cannot keep) before its first parse, ~3 ms of a small
 * plan's `dlmm check --offline`, and whether to compile is decided as each schema is built, so this runs
 * before any schema module loads. The results are the same either way; the language server keeps the JIT.
 */
import { config } from 'zod';

config({ jitless: true });
