/**
 * Completion: field names from the plan's zod schema, enum values, pool ids, token contracts, bin ids
 * around the active bin (with prices) and the user's bins for withdraw/move. The cursor context is read
 * from the line and the parser's tree (typing often leaves the file invalid); the data comes from the
 * analysis's live reads or, when the plan does not parse yet, from the same API client (cached reads).
 */
import {
  CompletionItemKind,
  InsertTextFormat,
  type CompletionItem,
  type Range,
} from 'vscode-languageserver-protocol';
import { withAliases } from '../../../core/api/aliases';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Bin, DlmmApi, Pool, Token } from '../../../core/api/types';
import { binPriceHuman, isSignedBinId } from '../../../core/dlmm/bins';
import type { LiveData } from '../../../core/live/live';
import {
  AddItemSchema,
  AddOpSchema,
  DistributionSchema,
  MoveItemSchema,
  MoveOpSchema,
  PlanSchema,
  PolicySchema,
  POOL_ALIAS,
  SwapOpSchema,
  WithdrawOpSchema,
} from '../../../core/plan/schema';
import type { AnalysisResult } from '../planService';
import { contractName } from '../../../protocol/format';
import { asRecord } from './planValues';

const BIN_WINDOW = 12;

type Shape = Readonly<Record<string, unknown>>;
const KEYS = {
  top: keysOf(PlanSchema.shape),
  policy: keysOf(PolicySchema.shape),
  add: keysOf(AddOpSchema.shape),
  withdraw: keysOf(WithdrawOpSchema.shape),
  move: keysOf(MoveOpSchema.shape),
  swap: keysOf(SwapOpSchema.shape),
  addItem: keysOf(AddItemSchema.shape),
  moveItem: keysOf(MoveItemSchema.shape),
  distribution: keysOf(DistributionSchema.shape),
};
/** An operation's keys by its `op` (a Map: an op named `constructor` is just unknown). */
const OP_KEYS = new Map<unknown, string[]>([
  ['add', KEYS.add],
  ['withdraw', KEYS.withdraw],
  ['move', KEYS.move],
  ['swap', KEYS.swap],
]);
const OP_KEYS_COMMON = ['id', 'op', 'mode', 'pool'];

function keysOf(shape: Shape): string[] {
  return Object.keys(shape).filter((k) => k !== '$schema');
}

/** A Map, not an object: a key named `__proto__`, `constructor` or `toString` is just a key. */
const ENUMS = new Map<string, string[]>([
  ['op', ['add', 'withdraw', 'move', 'swap']],
  ['mode', ['strict', 'simple']],
  ['network', ['mainnet', 'testnet']],
  ['api', ['v2', 'v1']],
  ['amm_strategy', ['best', 'preferred', 'pure']],
  ['version', ['1']],
  ['shape', ['spot', 'curve', 'bid-ask']],
]);

interface Context {
  kind: 'key' | 'value' | 'list-item';
  key?: string;
  /** Text already typed for the value or key (without an opening quote). */
  prefix: string;
  quoted: boolean;
  replace: Range;
  opIndex?: number;
  inFlowMap: boolean;
}

/** Completion items at `offset`. */
export async function completion(
  doc: TextDocument,
  result: AnalysisResult,
  offset: number,
): Promise<CompletionItem[]> {
  const a = result.analysis;
  const value = a.parsed.readValue();
  const ctx = contextAt(doc, offset, operationAt(doc, a.parsed, offset));
  if (!ctx) return [];
  const ops = (value as { operations?: unknown[] } | undefined)?.operations;
  const op =
    ctx.opIndex !== undefined && Array.isArray(ops)
      ? (ops[ctx.opIndex] as Record<string, unknown> | undefined)
      : undefined;
  const data = new DataSource(result.api, a.live, (value as { sender?: unknown } | undefined)?.sender);

  if (ctx.kind === 'key') return keyItems(doc, offset, ctx, op);
  const key = ctx.key ?? '';
  const enumValues = ENUMS.get(key);
  if (enumValues) return enumValues.map((v) => item(v, CompletionItemKind.EnumMember, ctx, { detail: key }));
  if (key === 'pool') return (await data.pools()).map((p) => poolItem(p, ctx, value));
  if (key === 'input_token' || key === 'output_token')
    return (await data.tokens()).map((t) => tokenItem(t, ctx));
  const pool = typeof op?.pool === 'string' ? op.pool : undefined;
  if (!pool) return [];
  if (key === 'from_bin_id' || (op?.op === 'withdraw' && (key === 'bins' || ctx.kind === 'list-item')))
    return await userBinItems(data, pool, ctx);
  if (key === 'bin_id' || key === 'to_bin_id') return await binItems(data, pool, ctx, 'id');
  if (key === 'active_bin_offset') return await binItems(data, pool, ctx, 'offset');
  return [];
}

/** The operation at `offset`; on a blank line after an op, the op it is indented under. */
function operationAt(
  doc: TextDocument,
  parsed: AnalysisResult['analysis']['parsed'],
  offset: number,
): number | undefined {
  const direct = parsed.operationIndexAt(offset);
  if (direct !== undefined) return direct;
  const text = doc.getText();
  let prev = offset - 1;
  while (prev > 0 && /\s/.test(text[prev] ?? '')) prev--;
  const candidate = parsed.operationIndexAt(prev);
  if (candidate === undefined) return undefined;
  const start = parsed.rangeOf(['operations', candidate]);
  if (!start) return undefined;
  const column = doc.positionAt(start.offset).character;
  const indent = offset - doc.offsetAt({ line: doc.positionAt(offset).line, character: 0 });
  const lineText = text.slice(offset - indent, offset);
  return /^\s*$/.test(lineText) && indent >= column ? candidate : undefined;
}

/** Reads the cursor's context from the line text (robust while the file is half-typed). */
function contextAt(doc: TextDocument, offset: number, opIndex: number | undefined): Context | undefined {
  const pos = doc.positionAt(offset);
  const lineStart = doc.offsetAt({ line: pos.line, character: 0 });
  const text = doc.getText();
  const before = text.slice(lineStart, offset);
  const inFlowMap = /\{[^}]*$/.test(before);
  const context = (
    kind: Context['kind'],
    key: string | undefined,
    prefix: string,
    quoted: boolean,
    inFlow: boolean,
  ): Context => {
    const replace = { start: doc.positionAt(offset - prefix.length), end: pos };
    return { kind, key, prefix, quoted, replace, opIndex, inFlowMap: inFlow };
  };

  // value after `key:` (YAML or JSON, possibly quoted, possibly in a flow map)
  const kv = /"?([A-Za-z_$][\w$]*)"?\s*:\s*("?)([^",{}[\]\s]*)$/.exec(before);
  if (kv) return context('value', kv[1], kv[3] ?? '', kv[2] === '"', inFlowMap);
  // an element of a flow list: `bins: [164, 1|`
  const flowList = /"?([A-Za-z_][\w]*)"?\s*:\s*\[[^\]]*?("?)([-\d]*)$/.exec(before);
  if (flowList) return context('value', flowList[1], flowList[3] ?? '', false, false);
  // a key: start of a line (`  mo|`, `  - po|`) or after `{` / `,` in a flow map
  const keyMatch = /(?:^\s*(?:-\s+)?|[{,]\s*)"?([\w]*)$/.exec(before);
  if (!keyMatch) return undefined;
  const prefix = keyMatch[1] ?? '';
  // a block list of scalars under a key (`bins:` then `- 16|`): a list item, not a key
  const dash = /^(\s*)-\s+(-?\d*)$/.exec(before);
  if (dash && keyAbove(text, lineStart, dash[1]?.length ?? 0, true) === 'bins')
    return context('list-item', 'bins', dash[2] ?? '', false, false);
  return context('key', undefined, prefix, before.endsWith('"' + prefix), inFlowMap);
}

/**
 * The nearest key above the line at `lineStart` with a strictly smaller indentation (the map the line's keys
 * belong to); with `orSame`, also a key of the same indentation that is not a list item (the parent of a
 * block list item: `bins:` then `- 16`).
 */
function keyAbove(text: string, lineStart: number, indent: number, orSame = false): string | undefined {
  let end = lineStart - 1;
  for (let i = 0; i < 200 && end > 0; i++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    const m = /^(\s*)(?:-\s+)?"?([\w]+)"?\s*:/.exec(line);
    const at = m?.[1]?.length ?? 0;
    if (m && (at < indent || (orSame && at <= indent && !/^\s*-/.test(line)))) return m[2];
    end = start - 1;
  }
  return undefined;
}

function keyItems(
  doc: TextDocument,
  offset: number,
  ctx: Context,
  op: Record<string, unknown> | undefined,
): CompletionItem[] {
  const text = doc.getText();
  const pos = doc.positionAt(offset);
  const lineStart = doc.offsetAt({ line: pos.line, character: 0 });
  const line = text.slice(lineStart, offset);
  const indent = (/^(\s*(?:-\s+)?)/.exec(line)?.[1] ?? '').length;
  let keys: string[];
  let present: Record<string, unknown> | undefined;
  if (ctx.opIndex === undefined) {
    const parent = indent > 0 ? keyAbove(text, lineStart, indent, true) : undefined;
    keys = parent === 'policy' ? KEYS.policy : KEYS.top;
  } else {
    const kind = typeof op?.op === 'string' ? op.op : undefined;
    const itemLevel = ctx.inFlowMap || isDeeperThanOp(text, lineStart, indent, op);
    const inDistribution =
      kind === 'add' &&
      (ctx.inFlowMap
        ? /"?distribution"?\s*:\s*\{[^}]*$/.test(line)
        : keyAbove(text, lineStart, indent) === 'distribution');
    if (inDistribution) {
      keys = KEYS.distribution;
      present = asRecord(op?.distribution);
    } else if (itemLevel && kind === 'add') keys = KEYS.addItem;
    else if (itemLevel && kind === 'move') keys = KEYS.moveItem;
    else {
      keys = OP_KEYS.get(kind) ?? OP_KEYS_COMMON;
      present = op;
    }
  }
  const have = new Set(Object.keys(present ?? {}));
  return keys
    .filter((k) => !have.has(k) || k === ctx.prefix)
    .map((k) => {
      const insert = ctx.quoted ? k : `${k}: `;
      return {
        label: k,
        kind: CompletionItemKind.Property,
        detail: 'plan field',
        textEdit: { range: ctx.replace, newText: insert },
        insertTextFormat: InsertTextFormat.PlainText,
      };
    });
}

/** True when the line sits deeper than the operation's own keys (an item of bins/moves). */
function isDeeperThanOp(
  text: string,
  lineStart: number,
  indent: number,
  op: Record<string, unknown> | undefined,
): boolean {
  if (!op || (op.op !== 'add' && op.op !== 'move')) return false;
  const parent = keyAbove(text, lineStart, indent, true);
  return parent === 'bins' || parent === 'moves';
}

function item(
  label: string,
  kind: CompletionItemKind,
  ctx: Context,
  extra: Partial<CompletionItem> = {},
): CompletionItem {
  return { label, kind, textEdit: { range: ctx.replace, newText: label }, ...extra };
}

function poolItem(p: Pool, ctx: Context, value: unknown): CompletionItem {
  const generation = (value as { api?: unknown } | undefined)?.api === 'v1' ? 'v1' : 'v2';
  const label = generation === 'v1' && p.pool_alias ? p.pool_alias : p.pool_id;
  return item(label, CompletionItemKind.Value, ctx, {
    detail:
      `${p.pool_alias ?? ''} ${contractName(p.token_x)}/${contractName(p.token_y)} · bin step ${p.bin_step}`.trim(),
    documentation: `active bin ${p.active_bin}; active ${p.active}, quotable ${p.quotable}`,
    filterText: `${label} ${p.pool_alias ?? ''} ${contractName(p.token_x)} ${contractName(p.token_y)}`,
  });
}

function tokenItem(t: Token, ctx: Context): CompletionItem {
  return item(t.contract_address, CompletionItemKind.Value, ctx, {
    detail: `${t.symbol} · ${t.decimals} decimals`,
    filterText: `${t.contract_address} ${t.symbol}`,
  });
}

async function binItems(
  data: DataSource,
  pool: string,
  ctx: Context,
  as: 'id' | 'offset',
): Promise<CompletionItem[]> {
  const ladder = await data.bins(pool);
  if (!ladder || ladder.active === undefined) return [];
  const tokens = await data.tokens();
  const p = (await data.pools()).find((x) => x.pool_id === pool || x.pool_alias === pool);
  const tx = tokens.find((t) => t.contract_address === p?.token_x);
  const ty = tokens.find((t) => t.contract_address === p?.token_y);
  const out: CompletionItem[] = [];
  for (let d = -BIN_WINDOW; d <= BIN_WINDOW; d++) {
    const id = ladder.active + d;
    if (!isSignedBinId(id)) continue;
    const bin = ladder.byId.get(id);
    const label = String(as === 'id' ? id : d);
    const price = bin
      ? tx && ty
        ? `${binPriceHuman(bin.price, tx.decimals, ty.decimals)} ${ty.symbol}/${tx.symbol}`
        : `price ${bin.price}`
      : 'no reserves';
    const side = d === 0 ? 'active bin' : d > 0 ? `+${d}: x only` : `${d}: y only`;
    out.push(
      item(label, CompletionItemKind.Value, ctx, {
        detail: `${side} · ${price}`,
        sortText: String(1000 + Math.abs(d)).padStart(5, '0') + (d < 0 ? 'b' : 'a'),
        filterText: label,
      }),
    );
  }
  return out;
}

async function userBinItems(data: DataSource, pool: string, ctx: Context): Promise<CompletionItem[]> {
  const bins = await data.userBins(pool);
  return bins
    .filter((b) => b.user_liquidity > 0n)
    .map((b, i) =>
      item(String(b.bin_id), CompletionItemKind.Value, ctx, {
        detail: `your liquidity: ${b.user_liquidity} shares`,
        sortText: String(i).padStart(5, '0'),
      }),
    );
}

/** Live data for completion: the analysis's reads first, the (caching) API client otherwise. */
class DataSource {
  constructor(
    private readonly api: DlmmApi | undefined,
    private readonly live: LiveData | undefined,
    private readonly sender: unknown,
  ) {}

  async pools(): Promise<Pool[]> {
    if (this.live?.pools) return this.live.pools;
    if (!this.api) return [];
    // The v2 records name no alias: the v1 list maps them (core/api/aliases.ts), when it can be read.
    const [pools, v1] = await Promise.all([
      this.api.pools().catch(() => []),
      this.api.v1Pools().catch(() => undefined),
    ]);
    return withAliases(pools, v1);
  }

  async tokens(): Promise<Token[]> {
    if (this.live?.tokens) return this.live.tokens;
    return this.api ? this.api.tokens().catch(() => []) : [];
  }

  async bins(
    pool: string,
  ): Promise<{ active: number | undefined; byId: ReadonlyMap<number, Bin> } | undefined> {
    const lp = this.live?.byPool.get(pool);
    if (lp?.bins) return { active: lp.activeBinId, byId: lp.binById };
    if (!this.api) return undefined;
    const list = await this.api.bins(pool).catch(() => undefined);
    if (!list) return undefined;
    return { active: list.active_bin_id ?? undefined, byId: new Map(list.bins.map((b) => [b.bin_id, b])) };
  }

  async userBins(pool: string): Promise<{ bin_id: number; user_liquidity: bigint }[]> {
    const lp = this.live?.byPool.get(pool);
    if (lp?.positions) return lp.positions;
    if (!this.api || typeof this.sender !== 'string') return [];
    let principal = pool;
    if (POOL_ALIAS.test(pool)) {
      const p = (await this.pools()).find((x) => x.pool_alias === pool || x.pool_id === pool);
      if (!p || POOL_ALIAS.test(p.pool_id)) return [];
      principal = p.pool_id;
    }
    return this.api.userPositionBins(this.sender, principal).catch(() => []);
  }
}
