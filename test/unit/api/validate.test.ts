import { strict as assert } from 'node:assert';
import { ApiError } from '../../../core/api/errors';
import { StatusSchema, TokenSchema } from '../../../core/api/schemas';
import { isEmptyPoolNotFound, readList, validate } from '../../../core/api/validate';

const TOKEN = {
  contract_address: 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx',
  symbol: 'USDCx',
  decimals: 6,
};

function caught(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return e;
  }
  assert.fail('expected an ApiError');
}

describe('readList (tolerant list shapes)', () => {
  const table: Array<[string, unknown]> = [
    ['a bare array', [TOKEN]],
    ['an object holding it under the resource name', { success: true, tokens: [TOKEN] }],
  ];
  for (const [name, body] of table) {
    it(`reads ${name}`, () => {
      const list = readList(body, ['tokens'], TokenSchema, 'GET /quotes/v2/tokens');
      assert.equal(list.length, 1);
      assert.equal(list[0]?.decimals, 6);
    });
  }

  it('names the item and field at fault, with the wrapper key in the path', () => {
    const e = caught(() =>
      readList(
        { tokens: [TOKEN, { ...TOKEN, decimals: 'six' }] },
        ['tokens'],
        TokenSchema,
        'GET /quotes/v2/tokens',
      ),
    );
    assert.equal(e.code, 'unexpected-response');
    assert.equal(e.context.field, 'tokens.1.decimals');
    assert.match(e.message, /GET \/quotes\/v2\/tokens.*'tokens\.1\.decimals'.*"six"/);
  });

  it('rejects a body with no list where one was expected', () => {
    const e = caught(() => readList({ items: [] }, ['history', 'points'], TokenSchema, 'GET /x'));
    assert.match(e.message, /under 'history' or 'points'/);
  });
});

describe('validate', () => {
  it('says a missing field is missing', () => {
    const e = caught(() =>
      validate(StatusSchema, { ready: true, state_height: 1, chain_tip: 1, tip_lag: 0 }, 'GET /s'),
    );
    assert.equal(e.context.field, 'pool_count');
    assert.match(e.message, /'pool_count' is missing/);
  });

  it('rejects an unsafe integer that arrived as a JS number (it was already rounded)', () => {
    const e = caught(() =>
      validate(
        StatusSchema,
        { ready: true, state_height: 1, chain_tip: 1, tip_lag: 2n ** 60n, pool_count: 1 },
        'GET /s',
      ),
    );
    assert.equal(e.context.field, 'tip_lag');
  });
});

describe("'Pool not found' detection", () => {
  const table: Array<[unknown, boolean]> = [
    [{ bins: [], error: 'Pool not found' }, true],
    [{ bins: [], message: 'pool not found: dlmm_9' }, true],
    [{ success: false, pool_id: 'x', error: 'Pool not found' }, true],
    [{ bins: [{ bin_id: 1 }], error: 'Pool not found' }, false],
    [{ bins: [] }, false],
    [[], false],
  ];
  table.forEach(([body, expected], i) => {
    it(`case ${i}: ${JSON.stringify(body)} -> ${expected}`, () => {
      assert.equal(isEmptyPoolNotFound(body, JSON.stringify(body)), expected);
    });
  });
});
