/**
 * A check that could not run is never silence (core/check/analyze.ts internalErrorFindings): a rule, the
 * execution, the live read or the preparation failing inside the analyzer becomes a finding that says what
 * was not checked, so such a plan is never reported clean.
 */
import assert from 'node:assert/strict';
import { internalErrorFindings } from '../../../core/check/analyze';
import { parsePlan } from '../../../core/plan/parse';

describe('internal errors become findings', () => {
  const parsed = parsePlan('version: 1\noperations: []\n', { fileName: 'a.dlmm.yaml' });
  const found = (entry: string) => internalErrorFindings({ parsed, internalErrors: [entry] })[0]!;

  it('a rule that failed reports under its own code as an error', () => {
    const f = found('bin-not-found: Cannot read properties of undefined');
    assert.equal(f.code, 'bin-not-found');
    assert.equal(f.severity, 'error');
    assert.match(f.message, /the bin-not-found check could not run \(internal error: Cannot read/);
  });

  it('a failed execution is an execution-unchecked error; a failed live read or preparation an unexpected-response error', () => {
    assert.deepEqual(
      [found('execute: boom'), found('live: boom'), found('prepare: boom'), found('partial: boom')].map(
        (f) => `${f.severity} ${f.code}`,
      ),
      [
        'error execution-unchecked',
        'error unexpected-response',
        'error unexpected-response',
        'error unexpected-response',
      ],
    );
    assert.match(found('live: boom').message, /live data could not be read \(internal error: boom\)/);
  });

  it('no internal error, no finding', () => {
    assert.deepEqual(internalErrorFindings({ parsed, internalErrors: [] }), []);
  });
});
