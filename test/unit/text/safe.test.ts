/** Redaction of configured secrets and escaping of control characters (core/text/safe.ts). */
import assert from 'node:assert/strict';
import { CORE_SWAP_ENV } from '../../../core/api/coreClient';
import { setStoredKeys, userSecrets } from '../../../client/src/userText';
import {
  escapeControl,
  KEY_ENV_VARIABLES,
  keysFromEnv,
  redactDeep,
  redactSecrets,
  redactUrlCredentials,
  REDACTED,
  safeDeep,
  safeText,
} from '../../../core/text/safe';

const KEY = 'sk-SECRET-0123456789';

describe('safe text: redaction and control characters', () => {
  const redactions: Array<[string, string, string]> = [
    ['as written', `HTTP 401 (invalid key ${KEY})`, `HTTP 401 (invalid key ${REDACTED})`],
    ['twice', `${KEY}/${KEY}`, `${REDACTED}/${REDACTED}`],
    ['URL-encoded', `key=${encodeURIComponent('a b+c/d=ef')}`, `key=${REDACTED}`],
    ['JSON-escaped', JSON.stringify({ k: 'q"uote\\d' }), `{"k":"${REDACTED}"}`],
  ];
  for (const [what, input, expected] of redactions) {
    it(`redacts a key ${what}`, () => {
      const secret = what === 'URL-encoded' ? 'a b+c/d=ef' : what === 'JSON-escaped' ? 'q"uote\\d' : KEY;
      assert.equal(redactSecrets(input, [secret]), expected);
    });
  }

  it('leaves text alone without secrets, and ignores keys too short to search for', () => {
    assert.equal(redactSecrets('a plain line', [undefined, '']), 'a plain line');
    assert.equal(redactSecrets('abc abc', ['abc']), 'abc abc');
  });

  const escapes: Array<[string, string, string]> = [
    ['ESC ] title BEL', '\u001b]0;pwned\u0007', '\\u001b]0;pwned\\u0007'],
    ['ESC [ 2 J', 'x\u001b[2Jy', 'x\\u001b[2Jy'],
    ['carriage return', 'ok\rFAKE', 'ok\\u000dFAKE'],
    ['C1 CSI', 'a\u009b2Jb', 'a\\u009b2Jb'],
    ['bidi override', 'a\u202eb', 'a\\u202eb'],
    ['DEL and NUL', '\u007f\u0000', '\\u007f\\u0000'],
  ];
  for (const [what, input, expected] of escapes) {
    it(`escapes ${what}`, () => {
      assert.equal(escapeControl(input), expected);
      // Escaped text has nothing left to escape.
      assert.equal(escapeControl(expected), expected);
    });
  }

  it('keeps newlines, tabs and ordinary Unicode', () => {
    const text = 'line 1\n\tline 2 — 100 µSTX · ok…';
    assert.equal(escapeControl(text), text);
  });

  it('escaped JSON text is still the same JSON', () => {
    const value = { id: 'op\u009b\u2028\u202e' };
    const text = safeText(JSON.stringify(value), []);
    assert.equal(escapeControl(text), text);
    assert.deepEqual(JSON.parse(text), value);
  });

  it('safeDeep reaches every string of a value and nothing else', () => {
    const v = { a: [`k ${KEY}`, 1, null, { b: '\u001b[0m' }], n: 2, t: true };
    assert.deepEqual(safeDeep(v, [KEY]), {
      a: [`k ${REDACTED}`, 1, null, { b: '\\u001b[0m' }],
      n: 2,
      t: true,
    });
  });
});

describe('the keys every face redacts (one list)', () => {
  it('names the service key and each key of the core swap API configuration', () => {
    const keyFields = Object.entries(CORE_SWAP_ENV).filter(([field]) => /key/i.test(field));
    assert.equal(keyFields.length, 3);
    for (const [, name] of keyFields)
      assert.ok((KEY_ENV_VARIABLES as readonly string[]).includes(name), `${name} is redacted`);
    assert.ok(KEY_ENV_VARIABLES.includes('DLMM_API_KEY'));
  });

  it('keysFromEnv reads those variables only, skipping empty ones', () => {
    assert.deepEqual(
      keysFromEnv({
        DLMM_API_KEY: 'svc-123456',
        BITFLOW_API_KEY: '',
        KEEPER_API_KEY: 'keeper-123456',
        BITFLOW_API_HOST: 'http://127.0.0.1:1',
      }),
      ['svc-123456', 'keeper-123456'],
    );
  });

  it('the extension redacts secret storage and the environment (client/src/userText.ts)', () => {
    setStoredKeys(() => ['stored-key-123456']);
    try {
      const env = { READONLY_CALL_API_KEY: 'node-key-987654' };
      assert.deepEqual(userSecrets(env), ['stored-key-123456', 'node-key-987654']);
    } finally {
      setStoredKeys(() => []);
    }
  });
});

describe('redactDeep', () => {
  it('redacts strings anywhere in a message and leaves the rest (and control characters) alone', () => {
    const msg = {
      type: 'reply',
      result: { pools: [{ symbol: 'sBTC key-ABCDEF123', n: 3, big: 5n }], note: 'a\u001bb' },
      list: ['x', 'key-ABCDEF123'],
    };
    const out = redactDeep(msg, ['key-ABCDEF123', undefined]);
    assert.deepEqual(out, {
      type: 'reply',
      result: { pools: [{ symbol: 'sBTC [redacted]', n: 3, big: 5n }], note: 'a\u001bb' },
      list: ['x', '[redacted]'],
    });
    assert.equal(msg.result.pools[0]?.symbol, 'sBTC key-ABCDEF123', 'the input is not changed');
  });

  it('returns the value itself when nothing is to be redacted', () => {
    const msg = { a: ['b', { c: 'd' }] };
    assert.equal(redactDeep(msg, ['not-present-123']), msg);
    assert.equal(redactDeep(msg, []), msg);
  });

  it("keeps an own '__proto__' key a property", () => {
    const v = JSON.parse('{"__proto__": "k-SECRET-1234", "x": 1}') as Record<string, unknown>;
    const out = redactDeep(v, ['k-SECRET-1234']);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, '[redacted]');
  });
});

describe('credentials carried in URL parameters', () => {
  const cases: [string, string][] = [
    ['http://h:1/api?api_key=K3yK3yK3y', 'http://h:1/api?api_key=[redacted]'],
    ['http://h/api?key=abc&page=2', 'http://h/api?key=[redacted]&page=2'],
    ['https://h/?chain=mainnet&apiKey=zz#x', 'https://h/?chain=mainnet&apiKey=[redacted]#x'],
    ['https://h/?ACCESS_TOKEN=t&Secret=s', 'https://h/?ACCESS_TOKEN=[redacted]&Secret=[redacted]'],
    ['https://h/?password=p;auth=a', 'https://h/?password=[redacted];auth=[redacted]'],
    [
      'https://h/?X-Amz-Signature=f00&X-Amz-Credential=c',
      'https://h/?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]',
    ],
    ['https://h/cb#access_token=abc&state=1', 'https://h/cb#access_token=[redacted]&state=1'],
    ['https://h/?api%5Fkey=z', 'https://h/?api%5Fkey=[redacted]'],
    [
      "got 'http://u:p@h/api?token=T0k' (not ending in /api)",
      "got 'http://[redacted]@h/api?token=[redacted]' (not ending in /api)",
    ],
    ['"url":"http://h/api?sessionid=s1"', '"url":"http://h/api?sessionid=[redacted]"'],
  ];
  for (const [text, shown] of cases)
    it(`redacts ${text}`, () => {
      assert.equal(redactUrlCredentials(text), shown);
      assert.equal(safeText(text, []), shown);
    });

  it('leaves parameters that carry no credential, and text that is no URL parameter', () => {
    for (const text of [
      'https://explorer.example/txid/0x12?chain=mainnet',
      'http://h/api?page=2&limit=10',
      'a=b, key=value in prose',
      'http://h/api?key=',
    ])
      assert.equal(redactUrlCredentials(text), text);
  });
});
