/** Findings without repeats (core/check/analyze.ts): the first of each (code, offset, length, message) kept. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withoutRepeats } from '../../../core/check/analyze';
import type { Finding } from '../../../core/plan/diagnostics';

/** The definition: one key string per finding. */
function byKey(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}|${f.offset}|${f.length}|${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const finding = fc.record({
  code: fc.constantFrom('bin-not-found', 'zero-amount', 'schema'),
  severity: fc.constantFrom('error', 'warning', 'info'),
  message: fc.constantFrom('a', 'b', 'a|1', '1|a', ''),
  offset: fc.integer({ min: 0, max: 3 }),
  length: fc.integer({ min: 0, max: 2 }),
}) as fc.Arbitrary<Finding>;

describe('findings without repeats', () => {
  it('keeps exactly the first of each code, offset, length and message, in order', () => {
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 120 }), (fs) => {
        const got = withoutRepeats(fs);
        const want = byKey(fs);
        assert.equal(got.length, want.length);
        got.forEach((f, i) => assert.equal(f, want[i]));
      }),
      { numRuns: 300 },
    );
  });

  it('stays linear with many findings at one offset', () => {
    const fs: Finding[] = Array.from({ length: 20_000 }, (_, i) => ({
      code: 'schema',
      severity: 'error',
      message: `m${i % 10_000}`,
      offset: 0,
      length: 1,
    }));
    assert.equal(withoutRepeats(fs).length, 10_000);
  });
});
