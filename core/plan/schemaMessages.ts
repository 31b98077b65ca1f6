/**
 * zod issues -> user-facing `schema` messages: what was found (the value, named by its path) and what
 * would be accepted. Kept apart from parse.ts so the wording lives in one place.
 */
import { MAX_UINT128 } from '../dlmm/bins';
import {
  AddItemSchema,
  DistributionSchema,
  MoveItemSchema,
  OPERATION_SCHEMAS,
  PlanSchema,
  PolicySchema,
  type SchemaIssue,
} from './schema';
import { closestMatch } from '../text/suggest';

type Path = readonly (string | number)[];

const AMOUNT_FIELDS = new Set(['x_amount', 'y_amount', 'amount', 'amount_in']);
const BIN_FIELDS = new Set(['bin_id', 'from_bin_id', 'to_bin_id']);
/** Fields that take text (principals, words): a number form there is only a wrong value, not a form. */
const TEXT_FIELDS = new Set([
  'sender',
  'pool',
  'input_token',
  'output_token',
  'provider',
  'network',
  'api',
  'mode',
  'op',
  'shape',
  'amm_strategy',
  '$schema',
]);

/** What a field accepts, in words. */
function expectationFor(path: Path): string | undefined {
  if (path.length === 0) return 'a mapping with `version: 1` and a non-empty `operations` list';
  const last = path[path.length - 1];
  const parentKey = path[path.length - 2];
  if (typeof last === 'string' && AMOUNT_FIELDS.has(last))
    return `an unsigned integer in base units (0..${MAX_UINT128}) in plain decimal digits (no fraction, no exponent, no leading zero, no 0x/0o form), as a number or a digit string`;
  if (
    (typeof last === 'string' && BIN_FIELDS.has(last)) ||
    (parentKey === 'bins' && typeof last === 'number' && path[0] === 'operations' && path.length === 4)
  )
    return 'an integer signed bin id (-500..500)';
  if (last === 'active_bin_offset') return 'an integer offset from the active bin (e.g. -1, 0, 2)';
  if (last === 'withdrawal_percentage')
    return 'a percent 0 < p <= 100, a plain decimal with at most 4 decimals, no exponent (50 means 50%)';
  if (last === 'slippage_tolerance')
    return 'a percent 0 <= p < 100, a plain decimal with at most 4 decimals, no exponent (1 means 1%); 100 or more would accept receiving nothing';
  if (last === 'version') return 'the integer 1';
  if (last === 'network') return 'mainnet or testnet';
  if (last === 'api') return 'v2 or v1';
  if (last === 'mode') return 'strict or simple';
  if (last === 'op') return 'add, withdraw, move or swap';
  if (last === 'pool') return 'a pool contract principal (ADDR.dlmm-pool-...) or an alias dlmm_<n>';
  if (last === 'sender') return 'a standard principal such as SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
  if (last === 'input_token' || last === 'output_token') return 'a token contract principal ADDR.name';
  if (last === 'id') return 'a non-empty string or an integer, unique in the file';
  if (last === 'max_tip_lag') return 'an integer number of blocks >= 0';
  if (last === 'active_bin_tolerance') return 'an integer number of bins 0..1000';
  if (last === 'deadline_seconds') return 'a positive integer number of seconds, or null';
  if (last === 'range_alert_bins') return 'an integer number of bins 0..1000';
  if (last === 'shape') return 'spot, curve or bid-ask';
  if ((last === 'from' || last === 'to') && parentKey === 'distribution')
    return 'an integer: an offset from the active bin (simple) or a signed bin id -500..500 (strict)';
  if (last === 'distribution') return 'a mapping {shape: spot|curve|bid-ask, from, to, x_amount, y_amount}';
  if (last === 'operations') return 'a non-empty list of operations';
  if (last === 'bins' && path.length === 3) return 'a non-empty list of bins';
  if (last === 'moves') return 'a non-empty list of moves';
  return undefined;
}

/** Fields a map at `path` accepts (for unknown-key messages). */
function acceptedKeys(path: Path, root: unknown): string[] {
  if (path.length === 0) return Object.keys(PlanSchema.shape);
  if (path.length === 1 && path[0] === 'policy') return Object.keys(PolicySchema.shape);
  if (path[0] === 'operations' && typeof path[1] === 'number') {
    if (path.length === 2) {
      const s = OPERATION_SCHEMAS.get((valueAt(root, path) as { op?: unknown } | undefined)?.op);
      return s ? Object.keys(s.shape) : ['id', 'op', '...'];
    }
    if (path.length === 4 && path[2] === 'bins') return Object.keys(AddItemSchema.shape);
    if (path.length === 4 && path[2] === 'moves') return Object.keys(MoveItemSchema.shape);
    if (path.length === 3 && path[2] === 'distribution') return Object.keys(DistributionSchema.shape);
  }
  return [];
}

function valueAt(root: unknown, path: Path): unknown {
  let v = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** Text longer than `max` characters as its start, an ellipsis and how much was left out. */
function shorten(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 20)}… (${text.length} characters)`;
}

/**
 * The YAML number form a text is written in, when plans refuse it (parse.ts numbersAsWritten keeps such a
 * number as its text, so the message quotes it): plans take numbers in plain decimal only.
 */
function numberForm(text: string): string | undefined {
  if (/^[-+]?0x[0-9a-fA-F_]+$/.test(text)) return 'a hexadecimal number';
  if (/^[-+]?0o[0-7_]+$/.test(text)) return 'an octal number';
  if (/^[-+]?0b[01_]+$/.test(text)) return 'a binary number (YAML 1.1)';
  if (/^[-+]?0[0-9_]+$/.test(text)) return 'a number with a leading zero (octal in YAML 1.1)';
  if (/^[-+]?[0-9][0-9_]*_[0-9_]*$/.test(text)) return 'a number with _ separators (YAML 1.1)';
  if (/^[-+]?[0-9]+(?::[0-5]?[0-9])+$/.test(text)) return 'a base-60 number (YAML 1.1)';
  if (/^\+[0-9]+$/.test(text)) return 'a number with a plus sign';
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return 'infinity';
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return 'not a number';
  if (/^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][-+]?[0-9]+$/.test(text)) return 'a number with an exponent';
  return undefined;
}

/** A short rendering of a value as written (numbers of any length stay short too). */
function renderValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'bigint') return shorten(v.toString());
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return shorten(String(v));
}

function pathText(path: Path): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return out || 'the plan';
}

/**
 * The accepted field an unknown key at `path` most likely stands for (`y_ammount` -> `y_amount`): one the
 * map does not hold already, near the key (core/text/suggest.ts); undefined when none is.
 */
export function suggestedKey(path: Path, root: unknown, unknownKey: string): string | undefined {
  const map = valueAt(root, path);
  const held = map !== null && typeof map === 'object' ? (map as Record<string, unknown>) : {};
  const free = acceptedKeys(path, root).filter((k) => k !== '...' && !Object.hasOwn(held, k));
  return closestMatch(unknownKey, free);
}

/** The words a field takes, for a did-you-mean on a mistyped one. */
const WORDS: Record<string, readonly string[]> = {
  op: ['add', 'withdraw', 'move', 'swap'],
  mode: ['strict', 'simple'],
  shape: ['spot', 'curve', 'bid-ask'],
  network: ['mainnet', 'testnet'],
  api: ['v2', 'v1'],
};

/** The word a mistyped value of a word field most likely stands for (`op: ad` -> `add`). */
export function suggestedWord(path: Path, root: unknown): string | undefined {
  const last = path[path.length - 1];
  const value = valueAt(root, path);
  const words = typeof last === 'string' && Object.hasOwn(WORDS, last) ? WORDS[last] : undefined;
  if (!words || typeof value !== 'string' || words.includes(value)) return undefined;
  return closestMatch(value, words);
}

/**
 * True when the issue is a missing field that an unknown key of the same map stands for (`y_amount` missing
 * beside `y_ammount`): the unknown key's finding says it all, with its fix, so this one is not reported.
 */
export function missingForMisspeltKey(issue: SchemaIssue, path: Path, root: unknown): boolean {
  if (issue.code === 'unrecognized_keys' || path.length === 0) return false;
  const field = path[path.length - 1];
  if (typeof field !== 'string' || valueAt(root, path) !== undefined) return false;
  const parentPath = path.slice(0, -1);
  const parent = valueAt(root, parentPath);
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return false;
  const accepted = new Set(acceptedKeys(parentPath, root));
  // A map whose fields are not known (an operation without a valid `op`) reports no unknown key.
  if (accepted.size === 0 || accepted.has('...')) return false;
  for (const key of Object.keys(parent))
    if (!accepted.has(key) && suggestedKey(parentPath, root, key) === field) return true;
  return false;
}

/** True when the issue is about a field that is missing (report it on the parent's key). */
export function issueTargetsKey(issue: SchemaIssue, path: Path, root: unknown): boolean {
  if (issue.code === 'unrecognized_keys') return false;
  return path.length > 0 && valueAt(root, path) === undefined;
}

/** The message of one zod issue. */
export function describeIssue(issue: SchemaIssue, path: Path, root: unknown, unknownKey?: string): string {
  if (issue.code === 'unrecognized_keys' && unknownKey !== undefined) {
    const accepted = acceptedKeys(path, root).filter((k) => k !== '$schema');
    const where = path.length ? ` in ${pathText(path)}` : '';
    const meant = suggestedKey(path, root, unknownKey);
    if (meant !== undefined)
      return `unknown field '${shorten(unknownKey)}'${where}; did you mean '${meant}'?`;
    return `unknown field '${shorten(unknownKey)}'${where}; accepted fields: ${accepted.join(', ')}`;
  }
  const value = valueAt(root, path);
  const expected = expectationFor(path);
  const name = pathText(path);
  const last = path[path.length - 1];
  // A number field holding a YAML number form (kept as its text by parse.ts): say which form it is.
  const form =
    typeof value === 'string' && !(typeof last === 'string' && TEXT_FIELDS.has(last))
      ? numberForm(value)
      : undefined;
  const shown = form
    ? `${renderValue(value)} (${form}; plans take numbers in plain decimal only)`
    : renderValue(value);
  if (value === undefined && path.length > 0) {
    const parent = valueAt(root, path.slice(0, -1));
    if (parent !== undefined && parent !== null && typeof parent === 'object' && !Array.isArray(parent)) {
      const field = String(path[path.length - 1]);
      const where = path.length > 1 ? ` in ${pathText(path.slice(0, -1))}` : '';
      return `missing required field '${field}'${where}; expected ${expected ?? 'a value'}`;
    }
  }
  // A principal of the right shape that is not a Stacks address: the value and why, from core/plan/address.ts.
  if (issue.code === 'custom' && issue.params?.kind === 'address') return `${name}: ${issue.message}`;
  if (issue.code === 'too_small' && Array.isArray(value))
    return `${name} is empty; expected ${expected ?? issue.message}`;
  const word = suggestedWord(path, root);
  if (word !== undefined) return `${name} is ${shown}; did you mean '${word}'?`;
  return `${name} is ${shown}; expected ${expected ?? issue.message}`;
}
