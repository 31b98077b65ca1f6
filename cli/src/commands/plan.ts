/**
 * `dlmm plan add|recentre`: writes a plan file from intent, reading live data like `check`.
 *   dlmm plan add --pool P --shape spot|curve|bid-ask --range A..B --x AMOUNT --y AMOUNT [--sender S]
 *                 [--mode simple|strict] [--out FILE] [--format yaml|json]
 *   dlmm plan recentre --pool P --sender S --shape spot|curve|bid-ask --width N [--out FILE] [--format yaml|json]
 * Amounts are human (decimals accepted, e.g. 1.5), converted exactly with the token's decimals. The written
 * plan is checked at once (findings on stderr); exit 1 when it has error findings, 2 on usage errors or when
 * the live data needed could not be read.
 */
import { withAliases } from '../../../core/api/aliases';
import { isApiError } from '../../../core/api/errors';
import type { DlmmApi, Pool, Token, V1Pool } from '../../../core/api/types';
import { parseUnits } from '../../../core/dlmm/bins';
import { SHAPES, type ShapeName } from '../../../core/dlmm/shapes';
import { analyzePlan, type Analysis } from '../../../core/check/analyze';
import { checkedFile, toTextReport } from '../report';
import { planRecentre, type RecentreMove } from '../../../core/prepare/recentre';
import { distributionOpId, strictRangeAsOffsets } from '../../../core/prepare/generated';
import { POOL_ALIAS, zPoolRef, zPrincipalStandard } from '../../../core/plan/schema';
import { jsonOutput, parseCommand, parseFormat, requireOption, withApi } from '../common';
import { UsageError, type CliIO } from '../io';
import { refuseOutputOverInput, writeNamedOutput } from '../exportWrite';

export const OPTIONS = {} as const;
export const ADD_OPTIONS = {
  pool: { type: 'string' },
  shape: { type: 'string' },
  range: { type: 'string' },
  x: { type: 'string' },
  y: { type: 'string' },
  sender: { type: 'string' },
  mode: { type: 'string' },
  out: { type: 'string' },
} as const;
export const RECENTRE_OPTIONS = {
  pool: { type: 'string' },
  sender: { type: 'string' },
  shape: { type: 'string' },
  width: { type: 'string' },
  out: { type: 'string' },
} as const;

type Format = 'yaml' | 'json';

/** Runs `dlmm plan <sub>`. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === 'add') return await add(rest, io);
    if (sub === 'recentre' || sub === 'recenter') return await recentre(rest, io);
  } catch (e) {
    if (e instanceof PoolUnknown) {
      io.err(`dlmm plan ${sub}: ${e.message}\n`);
      return 2;
    }
    if (!(e instanceof LiveUnavailable)) throw e;
    io.err(`dlmm plan ${sub}: live data unavailable: ${e.message}\n`);
    return 2;
  }
  throw new UsageError(
    sub === undefined
      ? 'expected a sub-command: add or recentre'
      : `unknown sub-command '${sub}'; expected add or recentre`,
  );
}

function parseShape(v: string | boolean | undefined): ShapeName {
  const s = requireOption(v, '--shape spot|curve|bid-ask');
  if (!(SHAPES as readonly string[]).includes(s))
    throw new UsageError(`--shape '${s}' is not a shape; expected spot, curve or bid-ask`);
  return s as ShapeName;
}

function parsePool(v: string | boolean | undefined): string {
  const p = requireOption(v, '--pool P');
  if (!zPoolRef.safeParse(p).success)
    throw new UsageError(
      '--pool expects a pool contract principal (ADDR.dlmm-pool-...) or an alias dlmm_<n>',
    );
  return p;
}

function parseSender(v: string | boolean | undefined, required: boolean): string | undefined {
  if (v === undefined && !required) return undefined;
  const s = requireOption(v, '--sender S');
  const parsed = zPrincipalStandard.safeParse(s);
  if (!parsed.success) {
    const why = parsed.error.issues.find((i) => i.code === 'custom')?.message;
    throw new UsageError(
      why
        ? `--sender ${why}`
        : '--sender expects a standard principal such as SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR',
    );
  }
  return s;
}

/** `A..B` with integers (negative allowed), A <= B. */
export function parseRange(text: string): { from: number; to: number } {
  const m = /^\s*(-?\d{1,4})\s*\.\.\s*(-?\d{1,4})\s*$/.exec(text);
  if (!m) throw new UsageError(`--range expects A..B with integers, e.g. -20..20; got '${text}'`);
  const from = Number(m[1]);
  const to = Number(m[2]);
  if (from > to) throw new UsageError(`--range ${text}: A must not be above B (the range is A..B inclusive)`);
  return { from, to };
}

/** A human amount (e.g. 1.5) in base units of `token`, exactly; a usage error when it has too many decimals. */
export function humanAmount(text: string, token: Token | undefined, name: string): bigint {
  if (!token)
    throw new UsageError(
      `${name}: the pool's token is unknown to the service, so ${text} cannot be converted`,
    );
  const v = parseUnits(text, token.decimals);
  if (v === undefined)
    throw new UsageError(
      `${name} '${text}' is not a plain decimal amount of ${token.symbol} with at most ${token.decimals} decimals`,
    );
  return v;
}

async function add(args: string[], io: CliIO): Promise<number> {
  const { common, values } = parseCommand(args, ADD_OPTIONS);
  const format = parseFormat(common, ['yaml', 'json'] as const, 'yaml');
  const written = parsePool(values.pool);
  const shape = parseShape(values.shape);
  const range = parseRange(requireOption(values.range, '--range A..B'));
  const sender = parseSender(values.sender, false);
  const mode = typeof values.mode === 'string' ? values.mode : 'simple';
  if (mode !== 'simple' && mode !== 'strict')
    throw new UsageError(`--mode '${mode}': expected simple or strict`);
  if (values.x === undefined && values.y === undefined)
    throw new UsageError('give --x AMOUNT, --y AMOUNT or both');
  return withApi(common, io, async (api) => {
    const { principal: pool } = await resolvePool(api, written);
    const live = await probe(api, pool, undefined);
    const x = typeof values.x === 'string' ? humanAmount(values.x, live.tokenX, '--x') : 0n;
    const y = typeof values.y === 'string' ? humanAmount(values.y, live.tokenY, '--y') : 0n;
    const meant = mode === 'strict' ? strictRangeAsOffsets(range.from, range.to, live.active) : undefined;
    if (meant)
      io.err(
        `dlmm plan add: strict ranges are absolute signed bin ids, and ${range.from}..${range.to} is far from the active bin ${live.active}; if you meant offsets from it, write --range ${meant.from}..${meant.to} (or --mode simple)\n`,
      );
    const text = render(format, sender, [
      {
        id: distributionOpId(shape, range.from, range.to),
        op: 'add',
        mode,
        pool,
        distribution: { shape, from: range.from, to: range.to, x_amount: x, y_amount: y },
      },
    ]);
    return writeAndCheck(text, format, values.out, api, io);
  });
}

async function recentre(args: string[], io: CliIO): Promise<number> {
  const { common, values } = parseCommand(args, RECENTRE_OPTIONS);
  const format = parseFormat(common, ['yaml', 'json'] as const, 'yaml');
  const written = parsePool(values.pool);
  const sender = parseSender(values.sender, true) as string;
  const shape = parseShape(values.shape);
  const widthText = requireOption(values.width, '--width N');
  if (!/^\d{1,3}$/.test(widthText) || Number(widthText) < 1 || Number(widthText) > 500)
    throw new UsageError(`--width expects a whole number of bins 1..500, got '${widthText}'`);
  const width = Number(widthText);
  return withApi(common, io, async (api) => {
    const { principal: pool } = await resolvePool(api, written);
    const live = await probe(api, pool, sender);
    if (!live.positions) {
      io.err(
        `dlmm plan recentre: the sender's positions in ${pool} could not be read${live.why ? `: ${live.why}` : ''}\n`,
      );
      return 2;
    }
    const r = planRecentre({
      positions: live.positions,
      active: live.active,
      priceOf: live.priceOf,
      shape,
      width,
    });
    if (!r.ok) throw new UsageError(r.error);
    if (r.moves.length === 0) {
      io.err(
        `dlmm plan recentre: nothing to move: the sender's liquidity in ${pool} is already within ±${width} bins of the active bin ${live.active}${r.kept.length ? '' : ' (or there is none)'}\n`,
      );
      return 0;
    }
    const text = render(format, sender, [
      {
        id: 'recentre',
        op: 'move',
        mode: 'simple',
        pool,
        moves: r.moves.map((m: RecentreMove) => ({
          from_bin_id: m.from_bin_id,
          active_bin_offset: m.active_bin_offset,
          amount: m.amount,
        })),
      },
    ]);
    return writeAndCheck(text, format, values.out, api, io);
  });
}

interface Probe {
  active: number;
  tokenX: Token | undefined;
  tokenY: Token | undefined;
  priceOf: (bin: number) => bigint | undefined;
  positions: import('../../../core/live/live').PositionRecord[] | undefined;
  why?: string;
}

/** Live data of one pool (and the sender's positions), read the way `check` reads it. */
async function probe(api: DlmmApi, pool: string, sender: string | undefined): Promise<Probe> {
  const text = `version: 1\n${sender ? `sender: ${sender}\n` : ''}operations:\n  - { op: ${sender ? 'withdraw' : 'add'}, pool: ${pool}${sender ? '' : ', bins: [{ bin_id: 0, x_amount: 0, y_amount: 1 }]'} }\n`;
  const a = await analyzePlan(text, { api });
  const lp = a.live?.byPool.get(pool);
  const blocking = a.findings.filter((f) =>
    [
      'pool-not-found',
      'mixed-generation',
      'api-unreachable',
      'rate-limited',
      'unexpected-response',
      'inventory-unavailable',
    ].includes(f.code),
  );
  if (!lp || lp.activeBinId === undefined || blocking.length > 0) {
    const why = blocking.map((f) => f.message).join('; ') || 'the pool or its bins could not be read';
    throw new LiveUnavailable(why);
  }
  const out: Probe = {
    active: lp.activeBinId,
    tokenX: lp.tokenX,
    tokenY: lp.tokenY,
    priceOf: (b) => lp.binById.get(b)?.price,
    positions: lp.positions,
  };
  if (lp.positionsError) out.why = lp.positionsError.message;
  return out;
}

class LiveUnavailable extends Error {}
/** The pool written is not in the engine's pools list (exit 2, with the pools that are). */
class PoolUnknown extends Error {}

/**
 * The pool as the engine lists it: an alias (dlmm_<n>) resolved to its contract principal through the pools
 * list (the v1 list pairs aliases with principals: core/api/aliases.ts), a principal checked to be listed.
 * The plan is written with the principal (what the transactions call, and what app v2 positions take).
 */
async function resolvePool(api: DlmmApi, written: string): Promise<{ principal: string; alias?: string }> {
  let pools: Pool[];
  try {
    pools = await api.pools();
  } catch (e) {
    if (!isApiError(e)) throw e;
    throw new LiveUnavailable(`the pools list could not be read to find '${written}': ${e.message}`);
  }
  let v1: V1Pool[] | undefined;
  let v1Error: string | undefined;
  try {
    v1 = await api.v1Pools();
  } catch (e) {
    if (!isApiError(e)) throw e;
    v1Error = e.message;
  }
  const listed = withAliases(pools, v1);
  const hit = listed.find((p) => p.pool_id === written || p.pool_alias === written);
  if (hit) return { principal: hit.pool_id, ...(hit.pool_alias ? { alias: hit.pool_alias } : {}) };
  if (POOL_ALIAS.test(written) && v1Error !== undefined)
    throw new LiveUnavailable(
      `the alias '${written}' could not be resolved: the list that pairs aliases with pools could not be read (${v1Error}); give the pool's contract principal instead`,
    );
  const shown = listed.slice(0, 10).map((p) => (p.pool_alias ? `${p.pool_alias} (${p.pool_id})` : p.pool_id));
  const more = listed.length > shown.length ? `, and ${listed.length - shown.length} more` : '';
  throw new PoolUnknown(
    `pool '${written}' is not in the engine's pools list (GET /quotes/v2/pools); ` +
      (shown.length > 0
        ? `known pools: ${shown.join(', ')}${more}`
        : 'the list is empty: check --api / DLMM_API_URL'),
  );
}

type Value = string | number | bigint | Value[] | { [k: string]: Value };

/** The plan as YAML (flow items, one per line) or JSON (exact integers). */
function render(format: Format, sender: string | undefined, ops: Array<Record<string, Value>>): string {
  if (format === 'json') {
    const doc: Record<string, Value> = { version: 1 };
    if (sender) doc.sender = sender;
    doc.operations = ops;
    return jsonOutput(doc);
  }
  const lines = ['version: 1'];
  if (sender) lines.push(`sender: ${sender}`);
  lines.push('operations:');
  for (const op of ops) {
    let first = true;
    for (const [k, v] of Object.entries(op)) {
      const lead = first ? '  - ' : '    ';
      first = false;
      if (Array.isArray(v)) {
        lines.push(`${lead}${k}:`);
        for (const item of v) lines.push(`      - ${flow(item)}`);
      } else lines.push(`${lead}${k}: ${typeof v === 'object' ? flow(v) : String(v)}`);
    }
  }
  return lines.join('\n') + '\n';
}

function flow(v: Value): string {
  if (Array.isArray(v)) return `[${v.map(flow).join(', ')}]`;
  if (typeof v === 'object')
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${k}: ${flow(x)}`)
      .join(', ')} }`;
  return String(v);
}

/** Writes the plan (file or stdout), checks it against the same service and prints the findings on stderr. */
async function writeAndCheck(
  text: string,
  format: Format,
  out: string | boolean | undefined,
  api: DlmmApi,
  io: CliIO,
): Promise<number> {
  // The format's file name picks the reader; a plan written to stdout is named <stdout> in its findings.
  const fileName = typeof out === 'string' ? out : `plan.dlmm.${format === 'json' ? 'json' : 'yaml'}`;
  const shownName = typeof out === 'string' ? out : '<stdout>';
  const analysis: Analysis = await analyzePlan(text, { api, fileName });
  if (typeof out === 'string') {
    refuseOutputOverInput(out, [], io);
    const problem = writeNamedOutput(out, text, io);
    if (problem !== undefined) throw new UsageError(problem);
    io.err(`dlmm plan: wrote ${out}\n`);
  } else io.out(text);
  if (analysis.findings.length > 0) io.err(toTextReport([checkedFile(shownName, analysis)]));
  return analysis.findings.some((f) => f.severity === 'error') ? 1 : 0;
}
