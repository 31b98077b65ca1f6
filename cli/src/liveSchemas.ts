/**
 * The zod schemas a live command needs and an offline check does not: the service's answers
 * (core/api/schemas.ts) and DLMM_ROUTERS (core/chain/routerSettings.ts). esbuild.mjs bundles this file as
 * dist/lazy-live-schemas.js and points the imports of those two modules at it from the command bundles and
 * from dist/lazy-api-client.js, so a command's process holds one copy of zod for them, and `dlmm check
 * --offline` neither reads nor compiles zod (plans are validated without it: core/plan/schema.ts).
 * zodJitless.ts first: before any schema is built.
 */
import './zodJitless';

export * from '../../core/api/schemas';
export * from '../../core/chain/routerSettings';
