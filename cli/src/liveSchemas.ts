/**
 * The zod schemas a live `dlmm check` needs and an offline one does not: the service's answers
 * (core/api/schemas.ts) and DLMM_ROUTERS (core/chain/routerSettings.ts). esbuild.mjs bundles this file as
 * dist/lazy-live-schemas.js and points the check bundle's imports of those two modules at it, so
 * `dlmm check --offline` neither reads nor compiles zod (plans are validated without it: core/plan/schema.ts).
 * zodJitless.ts first: before any schema is built.
 */
import './zodJitless';

export * from '../../core/api/schemas';
export * from '../../core/chain/routerSettings';
