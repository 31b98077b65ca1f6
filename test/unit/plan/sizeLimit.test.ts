/**
 * The size limit of a plan (core/plan/parse.ts PARSE_LIMITS.maxBytes): 1 MiB characters (1,048,576), some
 * 20,000 bins where a valid operation holds at most 350 positions; beyond it, one finding says to split the
 * plan. What plans at the limit get is held by test/integration/faults/hostile-files.test.ts; their time
 * and memory are printed by `npx tsx test/bench/run.ts hostile`.
 */
import assert from 'node:assert/strict';
import { PARSE_LIMITS, parsePlan } from '../../../core/plan/parse';
import { SENDER } from './helpers';

const HEAD = `version: 1\nsender: ${SENDER}\noperations:\n  - op: withdraw\n    pool: dlmm_1\n`;

describe('plan size limit', () => {
  it('is 1 MiB characters', () => {
    assert.equal(PARSE_LIMITS.maxBytes, 1024 * 1024);
  });

  it('reads a plan of exactly the limit, and refuses one character more with one finding', function () {
    this.timeout(60_000);
    // A valid plan padded with a comment line to the exact size.
    const pad = (size: number) => HEAD + '#' + 'x'.repeat(size - HEAD.length - 2) + '\n';
    const at = parsePlan(pad(PARSE_LIMITS.maxBytes));
    assert.equal(at.text.length, PARSE_LIMITS.maxBytes);
    assert.ok(at.plan, JSON.stringify(at.findings.slice(0, 2)));
    assert.deepEqual(at.findings, []);
    const beyond = parsePlan(pad(PARSE_LIMITS.maxBytes + 1));
    assert.equal(beyond.plan, undefined);
    assert.equal(beyond.findings.length, 1);
    assert.match(
      beyond.findings[0]!.message,
      /1048577 characters; plans above 1048576 are not read \(split it\)/,
    );
  });
});
