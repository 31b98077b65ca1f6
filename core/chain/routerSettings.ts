/**
 * User router configuration (DLMM_ROUTERS file on the command line, the `dlmm.routers` editor setting, the
 * simulator's apply body): `{ "testnet": {...}, "mainnet": {...} }` with snake_case fields. Entries are
 * partial and merge over DEFAULT_ROUTERS; a network without defaults (testnet) must be given in full.
 */
import * as z from 'zod';
import { DEFAULT_ROUTERS, type Network, type RouterConfig, type RouterOverrides } from './deployments';

const NETWORKS: readonly Network[] = ['mainnet', 'testnet'];

/** Address prefixes per network: SP/SM on mainnet, ST/SN on testnet. */
const PREFIXES: Record<Network, readonly string[]> = { mainnet: ['SP', 'SM'], testnet: ['ST', 'SN'] };

const zContractId = z
  .string({ error: 'expected a contract id ADDR.name (a string)' })
  .trim()
  .regex(
    /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}\.[a-zA-Z][a-zA-Z0-9_-]{0,127}$/,
    'expected a contract id ADDR.name such as SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-liquidity-router-v-1-2',
  );

/** One network's entry; every field optional (they merge over the defaults). */
const RouterEntrySchema = z.strictObject(
  {
    liquidity_router: zContractId.optional(),
    swap_router: zContractId.optional(),
    version: z.enum(['v-1-1', 'v-1-2'], { error: "expected 'v-1-1' or 'v-1-2'" }).optional(),
    stx_wrapper: zContractId.optional(),
  },
  { error: 'expected an object { liquidity_router, swap_router, version, stx_wrapper }' },
);
type RouterEntry = z.infer<typeof RouterEntrySchema>;

/** The whole configuration, keyed by network. */
export const RouterSettingsSchema = z
  .strictObject(
    { mainnet: RouterEntrySchema.optional(), testnet: RouterEntrySchema.optional() },
    { error: 'expected an object keyed by network: { "mainnet": {...}, "testnet": {...} }' },
  )
  .superRefine((settings, ctx) => {
    for (const network of NETWORKS) {
      const entry = settings[network];
      if (!entry) continue;
      for (const field of ['liquidity_router', 'swap_router', 'stx_wrapper'] as const) {
        const id = entry[field];
        if (id !== undefined && !PREFIXES[network].includes(id.slice(0, 2)))
          ctx.addIssue({
            code: 'custom',
            path: [network, field],
            message: `${id} is not a ${network} contract (${network} addresses start with ${PREFIXES[network].join(' or ')})`,
          });
      }
      const missing = missingFields(network, entry);
      if (missing.length > 0)
        ctx.addIssue({
          code: 'custom',
          path: [network],
          message: `${network} has no default routers, so the entry needs ${missing.join(', ')} as well`,
        });
    }
  });
export type RouterSettings = z.infer<typeof RouterSettingsSchema>;

const FIELDS = {
  liquidity_router: 'liquidityRouter',
  swap_router: 'swapRouter',
  version: 'version',
  stx_wrapper: 'stxWrapper',
} as const satisfies Record<keyof RouterEntry, keyof RouterConfig>;

function missingFields(network: Network, entry: RouterEntry): string[] {
  const base = DEFAULT_ROUTERS[network];
  return (Object.keys(FIELDS) as (keyof RouterEntry)[]).filter(
    (k) => entry[k] === undefined && base?.[FIELDS[k]] === undefined,
  );
}

/** Validated settings -> the overrides buildTransactions / applyTransaction take. */
export function toRouterOverrides(settings: RouterSettings): RouterOverrides {
  const out: RouterOverrides = {};
  for (const network of NETWORKS) {
    const entry = settings[network];
    if (!entry) continue;
    const o: Record<string, string> = {};
    for (const k of Object.keys(FIELDS) as (keyof RouterEntry)[])
      if (entry[k] !== undefined) o[FIELDS[k]] = entry[k];
    out[network] = o as Partial<RouterConfig>;
  }
  return out;
}

type RouterSettingsResult =
  | { ok: true; settings: RouterSettings; overrides: RouterOverrides }
  | { ok: false; message: string; problems: string[] };

/**
 * Validates a router configuration read from `source` (a file name, a setting name); the message names
 * the source and each field at fault.
 */
export function parseRouterSettings(value: unknown, source: string): RouterSettingsResult {
  const parsed = RouterSettingsSchema.safeParse(value);
  if (parsed.success) return { ok: true, settings: parsed.data, overrides: toRouterOverrides(parsed.data) };
  const problems = parsed.error.issues.map((i) => {
    const path = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys') {
      const where = path ? `${path}: ` : '';
      const known = path ? Object.keys(FIELDS).join(', ') : NETWORKS.join(', ');
      return `${where}unknown field(s) ${i.keys.join(', ')} (expected ${known})`;
    }
    return `${path ? `${path}: ` : ''}${i.message}`;
  });
  return {
    ok: false,
    problems,
    message: `${source}: invalid router configuration: ${problems.join('; ')}`,
  };
}
