/**
 * Numbers from a service, read by their digits into the exact type they stand for, or refused with a finding
 * that quotes them (issue 46; docs/guarantees.md). Each row is a real answer's text with one number written
 * the hostile way, read as the client reads every answer (parseBody: exact JSON keeping decimals as text,
 * then the resource's schema).
 */
import { strict as assert } from 'node:assert';
import { cloneData, freezeData } from '../../../core/api/cache';
import { ApiError } from '../../../core/api/errors';
import { JsonDecimal, parseJsonExact, stringifyJsonExact } from '../../../core/api/json';
import {
  BinListSchema,
  CurrentBinsSchema,
  InventorySchema,
  PricePointSchema,
  QuoteResponseSchema,
  StatusSchema,
} from '../../../core/api/schemas';
import { parseBody, validate } from '../../../core/api/validate';

const STATUS = '{"ready":true,"state_height":812345,"chain_tip":812345,"tip_lag":0,"pool_count":3}';
const BIN = (field: string, v: string): string => {
  const bin: Record<string, string> = {
    bin_id: '138',
    price: '"76060388561"',
    reserve_x: '"1316395"',
    reserve_y: '"0"',
    liquidity: 'null',
  };
  bin[field] = v;
  const fields = Object.entries(bin)
    .map(([k, x]) => `"${k}":${x}`)
    .join(',');
  return `{"success":true,"pool_id":"dlmm_1","active_bin_id":139,"bins":[{${fields}}],"total_bins":1001}`;
};
const CURRENT = (binShares: string): string =>
  `{"poolContract":"SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10","principal":"SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR","asOfHeight":812345,"chainTip":812345,"tipLag":0,"complete":true,"clean":true,"reservesComplete":true,"bins":[{"binIdUnsigned":639,"binIdSigned":139,"userShares":"5","binShares":${binShares},"reserveX":"1","reserveY":"2"}]}`;

/** Reads `text` as the client reads an answer, with `schema`; the error when it is refused. */
function read(schema: Parameters<typeof validate>[0], text: string): unknown {
  return validate(schema, parseBody('GET /x', 200, text), 'GET /x');
}
function refused(schema: Parameters<typeof validate>[0], text: string): ApiError {
  try {
    read(schema, text);
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.code, 'unexpected-response');
    return e;
  }
  assert.fail(`accepted: ${text}`);
}

describe('the exact JSON reader keeps a fraction or an exponent as its text (keepDecimals)', () => {
  const keep = { keepDecimals: true };
  for (const literal of [
    '1e-400',
    '1899999999.99999999999999999999',
    '1e+80',
    '1.0',
    '1E3',
    '-0.5',
    '1e400',
  ]) {
    it(`${literal} is a JsonDecimal of that text, on both paths, and is written back as it came`, () => {
      const v = parseJsonExact(`{"a":${literal}}`, keep) as { a: unknown };
      assert.ok(v.a instanceof JsonDecimal);
      assert.equal(v.a.text, literal);
      assert.equal(stringifyJsonExact(v), `{"a":${literal}}`);
      // Inside a string it is a string, and a body without one still takes JSON.parse's path.
      assert.deepEqual(parseJsonExact(`{"a":"${literal}","b":7}`, keep), { a: literal, b: 7 });
    });
  }
  it('integers stay numbers (safe) and bigints (beyond 2^53), as without the option', () => {
    assert.deepEqual(parseJsonExact('[1,-2,9007199254740993]', keep), [1, -2, 9007199254740993n]);
  });
  it('a kept answer holding one is frozen and shared, and a copy keeps it a JsonDecimal (cache.ts)', () => {
    const body = parseJsonExact('{"slippage_tolerance":0.5,"a":[1e-400]}', keep) as Record<string, unknown>;
    assert.equal(freezeData(body), true);
    assert.ok(Object.isFrozen(body));
    const copy = cloneData({ ...body }) as { slippage_tolerance: unknown };
    assert.ok(copy.slippage_tolerance instanceof JsonDecimal);
  });
  it('without the option a fraction is still a number (the simulator reads requests so)', () => {
    assert.equal(parseJsonExact('1.5'), 1.5);
  });
});

describe('a number of an answer is read by its digits, or refused quoting it (issue 46)', () => {
  const rows: Array<[string, Parameters<typeof validate>[0], string, RegExp]> = [
    [
      'a reserve with a fraction',
      BinListSchema,
      BIN('reserve_x', '1899999999.99999999999999999999'),
      /1899999999\.9999/,
    ],
    ['a reserve of 1e-400', BinListSchema, BIN('reserve_x', '1e-400'), /1e-400/],
    ['a reserve of 1e3', BinListSchema, BIN('reserve_y', '1e3'), /1e3/],
    ['a reserve beyond uint128', BinListSchema, BIN('reserve_x', `"${1n << 128n}"`), /uint128/],
    ['a reserve string with a fraction', BinListSchema, BIN('reserve_x', '"1899999999.5"'), /1899999999\.5/],
    [
      'a bin id of 138.99999999999999999999',
      BinListSchema,
      BIN('bin_id', '138.99999999999999999999'),
      /138\.9999/,
    ],
    ['a bin id of 1.38e2', BinListSchema, BIN('bin_id', '1.38e2'), /1\.38e2/],
    ['a price of 7.6e10', BinListSchema, BIN('price', '7.6e10'), /7\.6e10/],
    [
      'inventory shares with a fraction',
      CurrentBinsSchema,
      CURRENT('353014436.99999999999999999999'),
      /353014436\.9999/,
    ],
    ['inventory shares of 1e-400', CurrentBinsSchema, CURRENT('1e-400'), /1e-400/],
    [
      'a tip_lag of 1e-400 (not caught up)',
      StatusSchema,
      STATUS.replace('"tip_lag":0', '"tip_lag":1e-400'),
      /1e-400/,
    ],
    ['a pool_count of -1', StatusSchema, STATUS.replace('"pool_count":3', '"pool_count":-1'), /pool_count/],
    [
      'a 20-digit state_height string',
      StatusSchema,
      STATUS.replace('812345,"chain', '"12345678901234567891","chain'),
      /12345678901234567891/,
    ],
    [
      'a 20-digit state_height number',
      StatusSchema,
      STATUS.replace('812345,"chain', '12345678901234567891,"chain'),
      /12345678901234567891/,
    ],
    ['a pool_count of 1e+80', StatusSchema, STATUS.replace('"pool_count":3', '"pool_count":1e+80'), /1e\+80/],
    [
      'a 31-digit timestamp string',
      PricePointSchema,
      `{"timestamp":"${'1'.repeat(31)}","bin_id":139,"price":"1"}`,
      /1111111111/,
    ],
    ['a timestamp of 1.7e9', PricePointSchema, '{"timestamp":1.7e9,"bin_id":139,"price":"1"}', /1\.7e9/],
    [
      'an inventory tip_lag of 1e-400',
      InventorySchema,
      '{"pool":"p","clean":true,"tip_lag":1e-400,"bin_id_domain":"unsigned","bins":[]}',
      /1e-400/,
    ],
  ];
  for (const [what, schema, text, quoted] of rows) {
    it(`${what}: refused, the finding quotes it`, () => {
      const e = refused(schema, text);
      assert.match(e.message, quoted, e.message);
    });
  }

  it('a quote figure documented as a decimal is kept by its digits (a JSON number or a string)', () => {
    const route = (amountOut: string) =>
      `{"execution_path":[],"amount_out":${amountOut},"min_amount_out":"1","slippage_tolerance":0.5,"route_path":[],"fee":"0","price_impact_bps":12.25,"price_impact_tokens":"0"}`;
    const r = read(QuoteResponseSchema, route('2995802098.950524737631184408')) as {
      amount_out: bigint;
      amount_out_text: string;
      slippage_tolerance: number;
    };
    assert.equal(r.amount_out, 2995802098n);
    assert.equal(r.amount_out_text, '2995802098.950524737631184408');
    assert.equal(r.slippage_tolerance, 0.5);
    assert.match(refused(QuoteResponseSchema, route('2.9e9')).message, /2\.9e9/);
  });

  it('the same answers written plainly are read exactly', () => {
    const s = read(StatusSchema, STATUS) as { tip_lag: number; state_height: number };
    assert.equal(s.tip_lag, 0);
    assert.equal(s.state_height, 812345);
    const l = read(BinListSchema, BIN('reserve_x', `"${(1n << 128n) - 1n}"`)) as {
      bins: { reserve_x: bigint }[];
    };
    assert.equal(l.bins[0]?.reserve_x, (1n << 128n) - 1n);
    const c = read(CurrentBinsSchema, CURRENT('353014436')) as { bins: { binShares: bigint }[] };
    assert.equal(c.bins[0]?.binShares, 353014436n);
  });
});
