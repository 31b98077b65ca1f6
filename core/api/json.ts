/**
 * Exact JSON: a small reader in which integer literals beyond Number.MAX_SAFE_INTEGER become bigint
 * (JSON.parse would silently round a uint128 reserve), and a writer that prints bigint as a bare JSON
 * integer literal. Everything else follows RFC 8259 exactly; errors name the offset, line and column.
 *
 * With `keepDecimals` (every answer of a service or a node, core/api/validate.ts), a number literal with a
 * fraction or an exponent is kept as its text (JsonDecimal), never read through a double: `1e-400` is not 0,
 * `138.99999999999999999999` is not 139, `1e+80` is not an integer. Each schema then reads it by its digits
 * where the field is a decimal, and refuses it, quoting it, where the field is an integer.
 */

/** A JSON number literal with a fraction or an exponent, kept as written (read with `keepDecimals`). */
/**
 * The mark every JsonDecimal carries. Each bundle holds its own copy of this class (the API client and the
 * schemas are loaded apart), so a decimal is recognised by this registry-wide symbol (isJsonDecimal), never
 * by `instanceof`.
 */
const DECIMAL = Symbol.for('dlmm-studio.JsonDecimal');

export class JsonDecimal {
  readonly [DECIMAL] = true;
  constructor(readonly text: string) {
    Object.freeze(this);
  }
  toString(): string {
    return this.text;
  }
}

/** Whether `v` is a JsonDecimal, from whichever bundle's copy of the class. */
export function isJsonDecimal(v: unknown): v is JsonDecimal {
  return typeof v === 'object' && v !== null && (v as { [DECIMAL]?: unknown })[DECIMAL] === true;
}

/** How to read numbers. */
export interface JsonReadOptions {
  /** Deepest array/object nesting accepted (MAX_JSON_DEPTH when absent). */
  maxDepth?: number;
  /** Keep number literals with a fraction or an exponent as JsonDecimal (their text), not as a double. */
  keepDecimals?: boolean;
}

/** Deepest array/object nesting accepted; deeper input is rejected instead of exhausting the stack. */
export const MAX_JSON_DEPTH = 256;

/** Malformed JSON: message names what was found, what was expected, and where. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line}, column ${column} (offset ${offset})`);
    this.name = 'JsonSyntaxError';
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// Control characters must be escaped inside JSON strings: the run of plain characters stops at them.
// eslint-disable-next-line no-control-regex
const PLAIN_STRING_RE = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** A JSON string literal, escapes and all (a control character in it stops the match: JSON.parse refuses it). */
// eslint-disable-next-line no-control-regex
const STRING_LITERAL_RE = /"(?:[^"\\\u0000-\u001f]|\\.)*"/g;
/**
 * Outside string literals, a number JSON.parse may read otherwise than readJsonExact: 16 or more digits in a
 * row (an integer beyond 2^53 is one; a safe integer has at most 16 digits, and 16-digit ones go to the
 * reader too) or an exponent of 3 or more digits (beyond the range of a double).
 */
const NOT_PLAIN_NUMBER_RE = /\d{16}|[eE][+-]?\d{3}/;
/** As NOT_PLAIN_NUMBER_RE, and any fraction or exponent (a digit then '.', 'e' or 'E'): kept as text. */
const NOT_INTEGER_NUMBER_RE = /\d{16}|\d[.eE]/;

/**
 * Parses JSON text: integers outside the safe range become bigint, all other numbers stay numbers; an error
 * names what was found and where. Text without a number JSON.parse could read inexactly (no run of 16 digits
 * outside strings, no 3-digit exponent) and no deeper than `maxDepth` is read by JSON.parse, whose values are
 * then the same as readJsonExact's (every number is Number() of its literal in both); anything else,
 * malformed text included, by readJsonExact.
 */
export function parseJsonExact(text: string, opts: number | JsonReadOptions = MAX_JSON_DEPTH): unknown {
  const o: JsonReadOptions = typeof opts === 'number' ? { maxDepth: opts } : opts;
  const maxDepth = o.maxDepth ?? MAX_JSON_DEPTH;
  // A UTF-8 byte order mark is tolerated, as many servers emit one (JSON.parse refuses it).
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const inexact = o.keepDecimals === true ? NOT_INTEGER_NUMBER_RE : NOT_PLAIN_NUMBER_RE;
  if (!inexact.test(body.replace(STRING_LITERAL_RE, '""'))) {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return readJsonExact(text, o);
    }
    if (!deeperThan(value, maxDepth, 1)) return value;
  }
  return readJsonExact(text, o);
}

/** Whether an array or object in `value` (itself at `depth`) is nested deeper than `max`. */
function deeperThan(value: unknown, max: number, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > max) return true;
  for (const v of Array.isArray(value) ? value : Object.values(value))
    if (typeof v === 'object' && v !== null && deeperThan(v, max, depth + 1)) return true;
  return false;
}

/**
 * Reads JSON text (a recursive-descent reader): integers outside the safe range become bigint, other
 * numbers stay numbers (or JsonDecimal, with `keepDecimals`); an error names what was found and where.
 */
export function readJsonExact(text: string, opts: number | JsonReadOptions = MAX_JSON_DEPTH): unknown {
  const o: JsonReadOptions = typeof opts === 'number' ? { maxDepth: opts } : opts;
  const maxDepth = o.maxDepth ?? MAX_JSON_DEPTH;
  const keepDecimals = o.keepDecimals === true;
  let pos = 0;

  const fail = (reason: string, at: number = pos): never => {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < text.length; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new JsonSyntaxError(reason, at, line, at - lineStart + 1);
  };

  const describe = (at: number): string =>
    at >= text.length ? 'end of input' : `'${text[at] === '\n' ? '\\n' : text[at]}'`;

  const skipWs = (): void => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 32 || c === 10 || c === 13 || c === 9) pos++;
      else return;
    }
  };

  const parseString = (): string => {
    // pos is at the opening quote
    pos++;
    let out = '';
    for (;;) {
      PLAIN_STRING_RE.lastIndex = pos;
      PLAIN_STRING_RE.exec(text);
      out += text.slice(pos, PLAIN_STRING_RE.lastIndex);
      pos = PLAIN_STRING_RE.lastIndex;
      if (pos >= text.length) fail('unterminated string');
      const c = text[pos] as string;
      if (c === '"') {
        pos++;
        return out;
      }
      if (c === '\\') {
        const e = text[pos + 1];
        if (e === 'u') {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape, expected 4 hex digits', pos);
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 6;
        } else if (e !== undefined && e in ESCAPES) {
          out += ESCAPES[e];
          pos += 2;
        } else {
          fail(`invalid escape '\\${e ?? ''}'`, pos);
        }
        continue;
      }
      fail('control character in string, expected it escaped');
    }
  };

  const parseNumber = (): number | bigint | JsonDecimal => {
    NUMBER_RE.lastIndex = pos;
    const m = NUMBER_RE.exec(text);
    if (!m || m.index !== pos) return fail(`unexpected ${describe(pos)}, expected a value`);
    const literal = m[0];
    const start = pos;
    pos += literal.length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(literal);
      if (Number.isSafeInteger(n)) return n;
      const big = BigInt(literal);
      // Number() of a long literal may round into the safe range; decide on the exact value.
      return big > MAX_SAFE || big < MIN_SAFE ? big : Number(big);
    }
    if (keepDecimals) return new JsonDecimal(literal);
    const n = Number(literal);
    if (!Number.isFinite(n)) fail(`number ${literal} is out of range`, start);
    return n;
  };

  const expectWord = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, pos)) {
      pos += word.length;
      return value;
    }
    return fail(`unexpected ${describe(pos)}, expected a value`);
  };

  const parseValue = (depth: number): unknown => {
    skipWs();
    const c = text[pos];
    switch (c) {
      case '{':
        return parseObject(depth + 1);
      case '[':
        return parseArray(depth + 1);
      case '"':
        return parseString();
      case 't':
        return expectWord('true', true);
      case 'f':
        return expectWord('false', false);
      case 'n':
        return expectWord('null', null);
      default:
        return parseNumber();
    }
  };

  const parseArray = (depth: number): unknown[] => {
    if (depth > maxDepth) fail(`nesting deeper than ${maxDepth}`);
    pos++;
    const out: unknown[] = [];
    skipWs();
    if (text[pos] === ']') {
      pos++;
      return out;
    }
    for (;;) {
      out.push(parseValue(depth));
      skipWs();
      const c = text[pos];
      pos++;
      if (c === ']') return out;
      if (c !== ',') fail(`unexpected ${describe(pos - 1)}, expected ',' or ']'`, pos - 1);
    }
  };

  const parseObject = (depth: number): Record<string, unknown> => {
    if (depth > maxDepth) fail(`nesting deeper than ${maxDepth}`);
    pos++;
    const out: Record<string, unknown> = {};
    skipWs();
    if (text[pos] === '}') {
      pos++;
      return out;
    }
    for (;;) {
      skipWs();
      if (text[pos] !== '"') fail(`unexpected ${describe(pos)}, expected a property name in double quotes`);
      const key = parseString();
      skipWs();
      if (text[pos] !== ':') fail(`unexpected ${describe(pos)}, expected ':'`);
      pos++;
      const value = parseValue(depth);
      // defineProperty keeps a "__proto__" key an ordinary property, as JSON.parse does.
      if (key === '__proto__') {
        Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
      } else out[key] = value;
      skipWs();
      const c = text[pos];
      pos++;
      if (c === '}') return out;
      if (c !== ',') fail(`unexpected ${describe(pos - 1)}, expected ',' or '}'`, pos - 1);
    }
  };

  // A UTF-8 byte order mark is tolerated, as many servers emit one.
  if (text.charCodeAt(0) === 0xfeff) pos = 1;
  skipWs();
  if (pos >= text.length) fail('empty input, expected a JSON value');
  const value = parseValue(0);
  skipWs();
  if (pos < text.length) fail(`unexpected ${describe(pos)} after the JSON value`);
  return value;
}

/**
 * Writes JSON like JSON.stringify, but bigint becomes a bare integer literal (never a string, never
 * rounded). Non-finite numbers are rejected rather than silently written as null.
 */
export function stringifyJsonExact(value: unknown, indent = 0): string {
  const out = write(value, indent > 0 ? ' '.repeat(indent) : '', '', new Set());
  if (out === undefined) throw new TypeError('value is not representable as JSON');
  return out;
}

function write(value: unknown, step: string, current: string, seen: Set<object>): string | undefined {
  if (value === null) return 'null';
  if (isJsonDecimal(value)) return value.text;
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} as JSON`);
      return JSON.stringify(value);
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  const obj = value as object & { toJSON?: () => unknown };
  if (typeof obj.toJSON === 'function') return write(obj.toJSON(), step, current, seen);
  if (seen.has(obj)) throw new TypeError('cannot write a cyclic structure as JSON');
  seen.add(obj);
  const inner = current + step;
  const sep = step ? ',\n' + inner : ',';
  const open = step ? '\n' + inner : '';
  const close = step ? '\n' + current : '';
  let result: string;
  if (Array.isArray(obj)) {
    const items = obj.map((v: unknown) => write(v, step, inner, seen) ?? 'null');
    result = items.length === 0 ? '[]' : '[' + open + items.join(sep) + close + ']';
  } else {
    const items: string[] = [];
    for (const [k, v] of Object.entries(obj)) {
      const w = write(v, step, inner, seen);
      if (w !== undefined) items.push(JSON.stringify(k) + (step ? ': ' : ':') + w);
    }
    result = items.length === 0 ? '{}' : '{' + open + items.join(sep) + close + '}';
  }
  seen.delete(obj);
  return result;
}
