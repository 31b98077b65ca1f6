/** Redaction of configured secrets and escaping of control characters (core/text/safe.ts). */
import assert from 'node:assert/strict';
import {
  escapeControl,
  hasUnsafeControl,
  redactSecrets,
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
      assert.equal(hasUnsafeControl(input), true);
      assert.equal(hasUnsafeControl(escapeControl(input)), false);
    });
  }

  it('keeps newlines, tabs and ordinary Unicode', () => {
    const text = 'line 1\n\tline 2 — 100 µSTX · ok…';
    assert.equal(escapeControl(text), text);
  });

  it('escaped JSON text is still the same JSON', () => {
    const value = { id: 'op\u009b\u2028\u202e' };
    const text = safeText(JSON.stringify(value), []);
    assert.equal(hasUnsafeControl(text), false);
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
