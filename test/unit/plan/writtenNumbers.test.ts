/**
 * Numbers as plans take them (core/plan/parse.ts numbersAsWritten): the fast readers (lightYaml.ts,
 * lightJson.ts) walk the value with their tree, and skip the walk when they read no number that it would
 * replace (`writtenNumbers`). Either way the value must be the one the full parser's path gives: each text is
 * also read behind a `%YAML 1.2` directive, which only the full parser (`yaml`) reads, with the per-path walk.
 */
import assert from 'node:assert/strict';
import { parseLightJson } from '../../../core/plan/lightJson';
import { parseLightYaml } from '../../../core/plan/lightYaml';
import { parsePlan } from '../../../core/plan/parse';

/** The value through the fast reader, and through yaml (a directive before the same text). */
function bothValues(text: string, fileName: string): [unknown, unknown] {
  const fast = parsePlan(text, { fileName });
  // A byte order mark stays first.
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const full = parsePlan(`${bom}%YAML 1.2\n---\n${text.slice(bom.length)}`, { fileName: 'full.dlmm.yaml' });
  return [fast.value, full.value];
}

const YAML_NUMBERS = [
  'a: 1',
  'a: -3',
  'a: 0',
  'a: 12345678901234567890123',
  'a: -0',
  'a: [123456789012345, -12345678901234, 1234567890123456, -123456789012345, 9007199254740993]',
  'a: 1.5',
  'a: 1e3',
  'a: -1.0',
  'a: 0x10',
  'a: 0o17',
  'a: +5',
  'a: 017',
  'a: !!int 0x10',
  'a: !!float 1e3',
  'a: .inf',
  'a: -.inf',
  'a: .nan',
  'a: !!int 3',
  'a: !!int "4"',
  'a: !!float 1.5',
  'a: "1"',
  "a: '2'",
  'a: { b: 1, c: 2.5 }',
  'a: [1, 2, 0x3]',
  'a: &n 1.5\nb: *n\nc: [*n]',
  'a: &n 7\nb: *n',
  'a:\n  - 1\n  - 2.0\n  - x: 3',
];

describe('numbers as written, through the fast readers', () => {
  it('YAML: the value the full parser path gives, the walk skipped only when it changes nothing', () => {
    for (const text of YAML_NUMBERS) {
      const [fast, full] = bothValues(`${text}\n`, 'a.dlmm.yaml');
      assert.deepEqual(fast, full, text);
      // Forms it leaves to yaml (0x10...) have no flag to check.
      const light = parseLightYaml(`${text}\n`);
      if (!light) continue;
      const changed = JSON.stringify(light.value, (_, v: unknown) =>
        typeof v === 'bigint' ? `${v}n` : typeof v === 'number' ? `#${v}` : v,
      );
      // The flag is set exactly when some value is a JS number or an integer not in plain digits (of the
      // forms the fast reader reads, only a quoted one under `!!int`).
      const plain = !changed.includes('#') && !text.includes('!!int "');
      assert.equal(light.writtenNumbers === true, !plain, text);
    }
  });

  it('YAML over CRLF line ends and after a byte order mark: the same value as the full parser', () => {
    for (const text of ['a: 1\r\nb: 2.5\r\n', 'a: 1\r\nb: 2\r\n', '\ufeffa: 1\nb: 0x2\n']) {
      const [fast, full] = bothValues(text, 'a.dlmm.yaml');
      assert.deepEqual(fast, full, JSON.stringify(text));
    }
  });

  it('JSON: integers of every length exact, other numbers as written', () => {
    const text =
      '{"a": [0, -0, 7, -42, 123456789012345, -123456789012345, 1234567890123456, 98765432109876543210987654321,' +
      ' 1.5, -0.25, 1e3, 1E+2, 2.5e-3, -1.0, 0.0], "b": {"c": 12}}';
    const light = parseLightJson(text, 2000);
    assert.ok(light && 'root' in light);
    assert.equal(light.writtenNumbers, true);
    const [fast, full] = bothValues(text, 'a.dlmm.json');
    assert.deepEqual(fast, full);
    assert.deepEqual((fast as { a: unknown[] }).a, [
      0n,
      0n,
      7n,
      -42n,
      123456789012345n,
      -123456789012345n,
      1234567890123456n,
      98765432109876543210987654321n,
      '1.5',
      '-0.25',
      '1e3',
      '1E+2',
      '2.5e-3',
      '-1.0',
      '0.0',
    ]);
    const ints = parseLightJson('{"a": [1, -2, 30000000000000000000000], "b": "1.5"}', 2000);
    assert.ok(ints && 'root' in ints);
    assert.equal(ints.writtenNumbers, undefined, 'integers only: nothing to replace');
  });

  it('JSON: a key written with and without escapes is one key (repeats found, values as yaml gives)', () => {
    for (const text of [
      '{"ab": 1, "a\\u0062": 2}',
      '{"a\\u0062": 1, "ab": 2}',
      '[{"ab": 1}, {"a\\u0062": 2, "ab": 3}, {"ab": 4, "ba": 5, "aa": 6}]',
      '[{"bin_id": 1}, {"bin_ix": 2}, {"bin_id": 3, "bin_ix": 4, "": 5, "\\"": 6}]',
    ]) {
      const light = parseLightJson(text, 2000);
      assert.ok(light && 'root' in light, text);
      const full = parsePlan(`%YAML 1.2\n---\n${text}`, { fileName: 'full.dlmm.yaml' });
      const fullDups = full.findings.filter((f) => f.message === 'YAML: Map keys must be unique').length;
      assert.equal(light.duplicateKeys?.length ?? 0, fullDups, text);
      if (fullDups === 0) assert.deepEqual(light.value, full.value, text);
    }
  });
});
