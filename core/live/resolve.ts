/** Pool id or alias -> contract principal, from what an analysis read (no request). */
import type { LiveData } from './live';

export function poolResolver(live: LiveData): (id: string) => string | undefined {
  return (id) => {
    for (const lp of [...live.byPool.values(), ...live.routePools.values()])
      if ((lp.written === id || lp.alias === id || lp.principal === id) && lp.principal) return lp.principal;
    const listed = live.pools?.find((p) => p.pool_id === id || p.pool_alias === id);
    return listed && listed.pool_id.includes('.') ? listed.pool_id : undefined;
  };
}
