/**
 * Pool aliases for v2 pool records. The real v2 record names no alias; the v1 pools list pairs each alias
 * (`pool_id`, dlmm_<n>) with its contract principal (`pool_token`). That list is read for this mapping only:
 * the alias decorates a v2 record (display, completion, app v2 current-bins, which takes the alias) and is
 * never sent where a v2 id is expected.
 */
import type { Pool, V1Pool } from './schemas';

const ALIAS = /^dlmm_\d+$/;

/** principal -> alias from a v1 pools list (records without a principal or an alias form are skipped). */
export function aliasesByPrincipal(v1: readonly V1Pool[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of v1 ?? []) if (p.pool_token && ALIAS.test(p.pool_id)) out.set(p.pool_token, p.pool_id);
  return out;
}

/** The v2 records with `pool_alias` filled from the v1 list where they lack one (new objects; inputs kept). */
export function withAliases(pools: readonly Pool[], v1: readonly V1Pool[] | undefined): Pool[] {
  const map = aliasesByPrincipal(v1);
  if (map.size === 0) return [...pools];
  return pools.map((p) => {
    const alias = p.pool_alias ?? map.get(p.pool_id);
    return alias !== undefined && alias !== p.pool_alias ? { ...p, pool_alias: alias } : p;
  });
}
