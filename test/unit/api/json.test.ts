import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  JsonSyntaxError,
  MAX_JSON_DEPTH,
  parseJsonExact,
  readJsonExact,
  stringifyJsonExact,
} from '../../../core/api/json';

const UINT128_MAX = (1n << 128n) - 1n;

describe('parseJsonExact', () => {
  const table: Array<[string, unknown]> = [
    ['0', 0],
    ['-0', -0],
    ['42', 42],
    ['-17', -17],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['-9007199254740991', Number.MIN_SAFE_INTEGER],
    ['9007199254740992', 9007199254740992n],
    ['-9007199254740992', -9007199254740992n],
    [UINT128_MAX.toString(), UINT128_MAX],
    ['-' + UINT128_MAX.toString(), -UINT128_MAX],
    ['1.5', 1.5],
    ['-0.25e2', -25],
    ['1E3', 1000],
    ['12345678901234567890.0', 1.2345678901234567e19], // a fraction keeps it a (rounded) number
    ['"a\\"b\\\\c\\/\\n\\t\\u00e9\\ud83d\\ude00"', 'a"b\\c/\n\té😀'],
    ['true', true],
    ['false', false],
    ['null', null],
    [' \n\t[ ] ', []],
    ['{}', {}],
  ];
  for (const [text, expected] of table) {
    it(`reads ${text.slice(0, 40)}`, () => {
      assert.deepEqual(parseJsonExact(text), expected);
    });
  }

  it('keeps uint128 reserves exact inside nested structures', () => {
    const text = `{"bins":[{"bin_id":-3,"reserve_x":${UINT128_MAX},"price":"76060388561","w":0.5}],"n":[1,[2,[3]]]}`;
    const v = parseJsonExact(text) as { bins: Array<Record<string, unknown>>; n: unknown };
    assert.equal(v.bins[0]?.reserve_x, UINT128_MAX);
    assert.equal(typeof v.bins[0]?.reserve_x, 'bigint');
    assert.equal(v.bins[0]?.bin_id, -3);
    assert.equal(v.bins[0]?.price, '76060388561');
    assert.equal(v.bins[0]?.w, 0.5);
    assert.deepEqual(v.n, [1, [2, [3]]]);
  });

  it('agrees with JSON.parse on documents without large integers', () => {
    const doc = { a: [1, 2.5, -3e-7, 'x', null, true, { b: { c: [] } }], ü: '\u0001' };
    const text = JSON.stringify(doc);
    assert.deepEqual(parseJsonExact(text), JSON.parse(text));
  });

  it('keeps a __proto__ key as an ordinary property', () => {
    const v = parseJsonExact('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    assert.deepEqual(Object.keys(v), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
  });

  const bad: Array<[string, RegExp, number]> = [
    ['', /empty input/, 0],
    ['{"a":1,}', /expected a property name/, 7],
    ['[1 2]', /expected ',' or ']'/, 3],
    ['{"a" 1}', /expected ':'/, 5],
    ['"abc', /unterminated string/, 4],
    ['"a\\x"', /invalid escape/, 2],
    ['"\\u12g4"', /invalid \\u escape/, 1],
    ['"a\nb"', /control character/, 2],
    ['tru', /expected a value/, 0],
    ['01', /after the JSON value/, 1],
    ['-', /expected a value/, 0],
    ['1.', /after the JSON value/, 1],
    ['{"a":1}x', /after the JSON value/, 7],
    ['NaN', /expected a value/, 0],
    ['1e400', /out of range/, 0],
  ];
  for (const [text, re, offset] of bad) {
    it(`rejects ${JSON.stringify(text)} with its position`, () => {
      assert.throws(
        () => parseJsonExact(text),
        (e: unknown) => e instanceof JsonSyntaxError && re.test(e.message) && e.offset === offset,
      );
    });
  }

  it('reports line and column on multi-line input', () => {
    try {
      parseJsonExact('{\n  "a": 1,\n  "b": ?\n}');
      assert.fail('expected a syntax error');
    } catch (e) {
      assert.ok(e instanceof JsonSyntaxError);
      assert.equal(e.line, 3);
      assert.equal(e.column, 8);
      assert.match(e.message, /line 3, column 8/);
    }
  });

  it('bounds nesting depth instead of overflowing the stack', () => {
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    assert.doesNotThrow(() => parseJsonExact(ok));
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    assert.throws(() => parseJsonExact(deep), /nesting deeper than 256/);
    assert.throws(() => parseJsonExact('{"a":'.repeat(100_000)), /nesting deeper/);
    assert.throws(() => parseJsonExact('{"a":{"b":1}}', 1), /nesting deeper than 1/);
  });
});

describe('parseJsonExact on generated documents', () => {
  /** JSON values with integers of every size, including ones beyond 2^53 and uint128. */
  const exactJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.bigInt({ min: -(1n << 130n), max: 1n << 130n }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ unit: 'binary' }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
    ),
  })).value;

  /**
   * The value as JSON carries it: safe bigints are numbers, -0 is 0, objects are plain; a double that is an
   * integer beyond the safe range and is written with its digits (below 1e21, where JavaScript switches to an
   * exponent) is an integer literal, read back as the bigint of the digits written (the shortest that name
   * the double, not its exact binary value).
   */
  const asRead = (v: unknown): unknown => {
    if (typeof v === 'bigint') return v > 9007199254740991n || v < -9007199254740991n ? v : Number(v);
    if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) && Math.abs(v) < 1e21)
      return BigInt(String(v));
    if (Object.is(v, -0)) return 0;
    if (Array.isArray(v)) return v.map(asRead);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asRead(x)]));
    return v;
  };

  it('reads back what stringifyJsonExact writes, at any indent', () => {
    fc.assert(
      fc.property(exactJson, fc.integer({ min: 0, max: 2 }), (value, indent) => {
        assert.deepEqual(parseJsonExact(stringifyJsonExact(value, indent)), asRead(value));
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips bigints (safe ones come back as numbers)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 128n), max: 1n << 128n }), (b) => {
        const back = parseJsonExact(stringifyJsonExact({ v: [b] })) as { v: [number | bigint] };
        assert.equal(BigInt(back.v[0]), b);
        assert.equal(typeof back.v[0], b > 9007199254740991n || b < -9007199254740991n ? 'bigint' : 'number');
      }),
      { numRuns: 300 },
    );
  });

  it('never mistakes a string holding NUL for an integer marker', () => {
    const text = '{"a":"\\u00001234567890123456789","b":12345678901234567890}';
    assert.deepEqual(parseJsonExact(text), { a: '\u00001234567890123456789', b: 12345678901234567890n });
  });

  it('accepts a byte order mark', () => {
    assert.deepEqual(parseJsonExact('\ufeff[1]'), [1]);
  });
});

describe('parseJsonExact reads what readJsonExact reads (JSON.parse where it reads the same)', () => {
  /** The outcome of a reader: its value, or the message it threw. */
  const outcome = (read: () => unknown): unknown => {
    try {
      return { value: read() };
    } catch (e) {
      return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
  };
  const same = (text: string, maxDepth?: number): void => {
    const fast = outcome(() => parseJsonExact(text, maxDepth));
    const reader = outcome(() => readJsonExact(text, maxDepth));
    assert.deepEqual(fast, reader, text.slice(0, 200));
    // deepEqual takes -0 for 0: the sign of zero is compared apart.
    assert.equal(
      JSON.stringify(fast, (_k, v: unknown) =>
        Object.is(v, -0) ? '-0' : typeof v === 'bigint' ? `${v}n` : v,
      ),
      JSON.stringify(reader, (_k, v: unknown) =>
        Object.is(v, -0) ? '-0' : typeof v === 'bigint' ? `${v}n` : v,
      ),
    );
  };

  /** Number literals of every kind JSON allows: long integers, fractions, exponents of any length. */
  const literal = fc
    .tuple(
      fc.boolean(),
      fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,40}$/)),
      fc.option(fc.stringMatching(/^[0-9]{1,25}$/), { nil: undefined }),
      fc.option(
        fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,5}$/)),
        {
          nil: undefined,
        },
      ),
    )
    .map(
      ([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}${exp ? exp.join('') : ''}`,
    );
  const text = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      literal,
      fc.string({ unit: 'binary' }).map((x) => JSON.stringify(x)),
      // Strings that hold digit runs and exponents: outside a number they change nothing.
      fc.stringMatching(/^[0-9eE+\-. ]{0,30}$/).map((x) => JSON.stringify(x)),
      fc.constantFrom('true', 'false', 'null'),
      fc.array(tie('value'), { maxLength: 5 }).map((xs) => `[${xs.join(',')}]`),
      fc
        .array(fc.tuple(fc.string(), tie('value')), { maxLength: 5 })
        .map((kv) => `{${kv.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    ),
  })).value;

  it('on generated documents, with and without a byte order mark', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, bom) => same(bom ? `\ufeff${t}` : t)),
      { numRuns: 500 },
    );
  });

  it('on damaged documents: the same value or the same error', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.string({ unit: 'binary', maxLength: 3 }), (t, at, insert) => {
        const i = at % (t.length + 1);
        same(t.slice(0, i) + insert + t.slice(i + 1));
      }),
      { numRuns: 500 },
    );
  });

  it('at the edges of its choice', () => {
    for (const t of [
      '9007199254740991',
      '9007199254740992',
      '-9007199254740993',
      '1234567890123456',
      '1e308',
      '1e309',
      '-1E-400',
      '0.1e0000000001',
      '{"a":"12345678901234567890","b":1e5}',
      '{"__proto__":{"x":1},"y":[1e-5]}',
      '"\u0001"',
      '"a\u0001b"',
      '[' + '"\\"'.repeat(3) + ']',
      '[1,]',
      '\ufeff',
      '',
    ])
      same(t);
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    same(deep(MAX_JSON_DEPTH));
    same(deep(MAX_JSON_DEPTH + 1));
    same('{"a":{"b":[1]}}', 2);
    same('{"a":{"b":[1]}}', 3);
  });
});

describe('stringifyJsonExact', () => {
  it('writes bigint as a bare integer literal and round-trips', () => {
    const value = { amount_in: UINT128_MAX, neg: -5n, small: 3n, f: 0.5, s: 'x"y', list: [1n, null, true] };
    const text = stringifyJsonExact(value);
    assert.equal(
      text,
      `{"amount_in":${UINT128_MAX},"neg":-5,"small":3,"f":0.5,"s":"x\\"y","list":[1,null,true]}`,
    );
    assert.deepEqual(parseJsonExact(text), { ...value, small: 3, neg: -5, list: [1, null, true] });
  });

  it('matches JSON.stringify for plain data, with and without indentation', () => {
    const doc = { a: [1, { b: 'c', u: undefined }, [], {}], d: null, e: [undefined] };
    assert.equal(stringifyJsonExact(doc), JSON.stringify(doc));
    assert.equal(stringifyJsonExact(doc, 2), JSON.stringify(doc, null, 2));
  });

  it('rejects non-finite numbers and cycles', () => {
    assert.throws(() => stringifyJsonExact({ x: NaN }), /NaN/);
    assert.throws(() => stringifyJsonExact(Infinity), /Infinity/);
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    assert.throws(() => stringifyJsonExact(cyc), /cyclic/);
  });
});
