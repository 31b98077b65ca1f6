/**
 * A strict JSON (RFC 8259) syntax checker: finds the first error the way a JSON parser would, with its
 * offset. `*.dlmm.json` files are then read as `yaml` reads them (lightJson.ts), but their
 * syntax errors must be JSON's, not YAML's (a JSON file with a trailing comma is not valid YAML-as-JSON).
 * Iterative, so absurd nesting is reported instead of overflowing the stack.
 */

export interface JsonSyntaxError {
  offset: number;
  length: number;
  message: string;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const LITERALS = ['true', 'false', 'null'] as const;

/** First JSON syntax error in `text`, or undefined when it is one valid JSON value. */
export function checkJsonSyntax(text: string, maxDepth = 64): JsonSyntaxError | undefined {
  let i = 0;
  const n = text.length;
  // Stack of open containers: '{' or '['.
  const stack: Array<'{' | '['> = [];
  const describe = (at: number): string => (at >= n ? 'end of input' : `'${text[at]}'`);
  const fail = (at: number, expected: string): JsonSyntaxError => ({
    offset: Math.min(at, n),
    length: at < n ? 1 : 0,
    message: `JSON: expected ${expected}, found ${describe(at)}`,
  });
  const skipWs = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const readString = (): JsonSyntaxError | undefined => {
    const start = i;
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return { offset: i, length: 1, message: 'JSON: control character in string (escape it)' };
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            return { offset: i, length: 2, message: 'JSON: \\u must be followed by 4 hex digits' };
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e))
          return { offset: i, length: 2, message: `JSON: invalid escape '\\${e ?? ''}' in string` };
        i += 2;
        continue;
      }
      i++;
    }
    return { offset: start, length: n - start, message: 'JSON: unterminated string' };
  };
  // Reads one scalar or opens a container; returns an error or undefined.
  const readValue = (): JsonSyntaxError | undefined => {
    skipWs();
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length >= maxDepth)
        return {
          offset: i,
          length: 1,
          message: `JSON: nesting deeper than ${maxDepth} levels is not accepted`,
        };
      stack.push(c);
      i++;
      return undefined;
    }
    if (c === '"') return readString();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      // JSON's number, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, each optional part taken only whole.
      let q = c === '-' ? i + 1 : i;
      const d = text.charCodeAt(q);
      if (d === 0x30) q++;
      else if (d >= 0x31 && d <= 0x39) {
        q++;
        while (isDigit(text.charCodeAt(q))) q++;
      } else return fail(i, 'a number');
      if (text.charCodeAt(q) === 0x2e && isDigit(text.charCodeAt(q + 1))) {
        q += 2;
        while (isDigit(text.charCodeAt(q))) q++;
      }
      const e = text.charCodeAt(q);
      if (e === 0x65 || e === 0x45) {
        let r = q + 1;
        const sign = text.charCodeAt(r);
        if (sign === 0x2b || sign === 0x2d) r++;
        if (isDigit(text.charCodeAt(r))) {
          q = r + 1;
          while (isDigit(text.charCodeAt(q))) q++;
        }
      }
      i = q;
      return undefined;
    }
    for (const lit of LITERALS) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return undefined;
      }
    }
    return fail(i, 'a value (object, array, string, number, true, false or null)');
  };

  let err = readValue();
  if (err) return err;
  // After a value or an opening bracket, decide what follows.
  let justOpened = stack.length > 0;
  for (;;) {
    skipWs();
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    const close = top === '{' ? '}' : ']';
    if (text[i] === close) {
      stack.pop();
      i++;
      justOpened = false;
      continue;
    }
    if (!justOpened) {
      if (text[i] !== ',') return fail(i, `',' or '${close}'`);
      i++;
      skipWs();
      if (top === '[' && text[i] === ']') return fail(i, 'a value after the comma');
    }
    if (top === '{') {
      if (text[i] !== '"')
        return fail(
          i,
          justOpened ? "a property name in double quotes or '}'" : 'a property name in double quotes',
        );
      if ((err = readString())) return err;
      skipWs();
      if (text[i] !== ':') return fail(i, "':' after the property name");
      i++;
    }
    const depth = stack.length;
    if ((err = readValue())) return err;
    justOpened = stack.length > depth;
  }
  skipWs();
  if (i < n) return fail(i, 'end of input after the JSON value');
  return undefined;
}
