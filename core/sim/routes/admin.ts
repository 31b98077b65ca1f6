/**
 * Admin endpoints (/api/admin/*, loopback only, never rate limited): status and faults, active-bin
 * shifts, reset, and applying a serialized transaction (dry-run by core/sim/apply.ts).
 */
import * as z from 'zod';
import { applyTransaction } from '../apply';
import type { SimEngine } from '../engine';
import { HttpError, badRequest, parseBody, type Router } from '../http';
import { InventoryFaultCodeSchema } from '../world';
import { parseRouterSettings } from '../../chain/routerSettings';
import type { RouterOverrides } from '../../chain/deployments';

const FaultBody = z.strictObject({
  pool: z.string().min(1),
  principal: z.string().optional(),
  code: InventoryFaultCodeSchema,
});

const StateBody = z.strictObject({
  tip_lag: z.number().int().min(0).nullable().optional(),
  ready: z.boolean().optional(),
  app_ready: z.boolean().optional(),
  /** Advance the applied state height by n (a new block without pool changes). */
  bump_height: z.number().int().min(0).max(1_000_000).optional(),
  /** Replace the inventory faults. */
  inventory_faults: z.array(FaultBody).optional(),
  /** Quotes report amount_out skewed by this many bps against the exact walk (0: honest). */
  quote_skew_bps: z.number().int().min(-10_000).max(10_000).optional(),
});

const ShiftBody = z.strictObject({ bins: z.number().int().min(-1000).max(1000) });
const ApplyBody = z.strictObject({
  tx_hex: z.string().regex(/^(0x)?[0-9a-fA-F]+$/, 'expected a serialized transaction in hex'),
  /** Optional router configuration (as DLMM_ROUTERS / dlmm.routers); without it the defaults apply. */
  routers: z.unknown().optional(),
});

function stateOf(engine: SimEngine): Record<string, unknown> {
  const s = engine.status;
  return {
    ...s,
    chain_tip: engine.chainTip,
    inventory_faults: engine.faults,
    quote_skew_bps: engine.quoteSkewBps,
    pools: engine.pools().map((p) => ({ pool_id: p.id, pool_alias: p.alias, active_bin: p.activeBinId })),
  };
}

/** Registers /api/admin/* (the server checks loopback before dispatching here). */
export function registerAdmin(router: Router, engine: SimEngine, onReset: () => void): void {
  const P = '/api/admin';
  router.add('GET', `${P}/state`, () => ({ body: stateOf(engine) }));
  router.add('POST', `${P}/state`, async (c) => {
    const body = parseBody(StateBody, await c.body(), 'admin state change');
    for (const f of body.inventory_faults ?? []) {
      if (!engine.pool(f.pool)) throw badRequest(`inventory_faults: unknown pool ${f.pool}`);
    }
    const patch: Parameters<SimEngine['setStatus']>[0] = {};
    if (body.tip_lag !== undefined) patch.tip_lag = body.tip_lag;
    if (body.ready !== undefined) patch.ready = body.ready;
    if (body.app_ready !== undefined) patch.app_ready = body.app_ready;
    engine.setStatus(patch);
    if (body.bump_height) engine.bumpHeight(body.bump_height);
    if (body.inventory_faults) engine.setFaults(body.inventory_faults);
    if (body.quote_skew_bps !== undefined) {
      engine.quoteSkewBps = body.quote_skew_bps;
      engine.revision++;
    }
    return { body: stateOf(engine) };
  });
  router.add('POST', `${P}/pools/:pool/shift`, async (c) => {
    const body = parseBody(ShiftBody, await c.body(), 'shift request');
    const pool = engine.pool(c.params.pool as string);
    if (!pool) throw new HttpError(404, { error: 'Pool not found', pool: c.params.pool });
    const r = engine.shiftActiveBin(pool, body.bins);
    if (!r.ok) throw badRequest(r.detail, { code: r.error });
    return {
      body: {
        pool_id: pool.id,
        pool_alias: pool.alias,
        active_bin_before: r.value.before,
        active_bin_after: r.value.after,
        state_height: engine.status.state_height,
      },
    };
  });
  router.add('POST', `${P}/reset`, () => {
    engine.reset();
    onReset();
    return { body: stateOf(engine) };
  });
  router.add('POST', `${P}/apply`, async (c) => {
    const body = parseBody(ApplyBody, await c.body(), 'apply request');
    const hex = body.tx_hex.startsWith('0x') ? body.tx_hex.slice(2) : body.tx_hex;
    let routers: RouterOverrides | undefined;
    if (body.routers !== undefined) {
      const parsed = parseRouterSettings(body.routers, 'apply request: routers');
      if (!parsed.ok) throw badRequest(parsed.message);
      routers = parsed.overrides;
    }
    const result = await applyTransaction(engine, hex, routers ? { routers } : {});
    return { body: { ...result, state_height: engine.status.state_height } };
  });
}
