/** Shared setup for live checks: the simulated engine on loopback and the real API client. */
import { createApiClient } from '../../../core/api/client';
import type { ApiClientOptions, DlmmApi } from '../../../core/api/types';
import { DEFAULT_SIM_API_KEY, DEFAULT_WORLD_INPUT } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { parseWorld, type World } from '../../../core/sim/world';

export async function admin(sim: RunningSimulator, path: string, body: unknown): Promise<void> {
  const r = await fetch(`${sim.url}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`admin ${path}: HTTP ${r.status} ${await r.text()}`);
}

/** A client for the simulator (inventory and node on unless switched off). */
export function clientFor(
  sim: RunningSimulator,
  opts: { inventory?: boolean; node?: boolean } & Partial<ApiClientOptions> = {},
): DlmmApi {
  const { inventory = true, node = true, ...rest } = opts;
  return createApiClient({
    baseUrl: sim.url,
    ...(inventory ? { inventoryUrl: sim.inventoryUrl } : {}),
    ...(node ? { nodeUrl: sim.nodeUrl } : {}),
    apiKey: DEFAULT_SIM_API_KEY,
    ...rest,
  });
}

/** The default world with pool flags changed (pool-inactive, pool-not-quotable). */
export function worldWithFlags(flags: Record<string, { active?: boolean; quotable?: boolean }>): World {
  const input = structuredClone(DEFAULT_WORLD_INPUT) as typeof DEFAULT_WORLD_INPUT;
  for (const p of input.pools as Array<{ alias?: string; active?: boolean; quotable?: boolean }>)
    Object.assign(p, flags[p.alias ?? ''] ?? {});
  return parseWorld(input);
}

/** The default world with every user at `address` (a test signer), optionally edited, named `name`. */
export function worldForUser(
  address: string,
  name: string,
  edit: (input: typeof DEFAULT_WORLD_INPUT) => void = () => undefined,
): World {
  const input = structuredClone(DEFAULT_WORLD_INPUT);
  input.users = (input.users ?? []).map((u) => ({ ...u, address }));
  edit(input);
  return parseWorld(input, name);
}

export { startSimulator, type RunningSimulator };
