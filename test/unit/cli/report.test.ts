/**
 * What a batch `dlmm check` keeps of each plan (cli/src/report.ts checkedFile, issue 47): its findings with
 * their line ranges, its `live` flag and its path, and nothing of the analysis (text, live data, prepared
 * operations, execution), so that 10,000 plans do not hold 10,000 analyses; the reports read only that.
 */
import assert from 'node:assert/strict';
import { analyzeOffline, type Analysis } from '../../../core/check/analyze';
import type { Finding } from '../../../core/plan/diagnostics';
import { checkedFile, toJsonReport, toTextReport } from '../../../cli/src/report';

const PLAN = `version: 1
network: mainnet
operations:
  - id: add
    op: add
    mode: strict
    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10
    bins:
      - { bin_id: 145, x_amount: 0, y_amount: 0 }
`;

describe('cli report: the reduced record of a checked plan', () => {
  it('keeps the located findings, live flag and path only', () => {
    const analysis = analyzeOffline(PLAN, { fileName: 'a.dlmm.yaml' });
    assert.ok(analysis.findings.length > 0, 'the plan has findings (zero-amount, sender-missing)');
    const rec = checkedFile('a.dlmm.yaml', analysis);
    assert.deepEqual(Object.keys(rec).sort(), ['findings', 'live', 'path']);
    assert.equal(rec.live, false);
    assert.equal(rec.findings.length, analysis.findings.length);
    for (const [i, f] of rec.findings.entries()) {
      const src = analysis.findings[i] as Finding;
      assert.equal(f.code, src.code);
      const before = PLAN.slice(0, src.offset).split('\n');
      assert.equal(f.range.start.line, before.length - 1);
      assert.equal(f.range.start.character, (before[before.length - 1] as string).length);
    }
    // The reports are made from the records alone.
    const json = toJsonReport([rec]);
    assert.equal(json.files[0]?.diagnostics.length, rec.findings.length);
    assert.match(toTextReport([rec]), /^a\.dlmm\.yaml:\d+:\d+ /);
  });

  it('is live only when the analysis read live data and no live read failed', () => {
    const base = { text: '', findings: [] as Finding[] };
    const live = {} as NonNullable<Analysis['live']>;
    assert.equal(checkedFile('p', { ...base, live }).live, true);
    assert.equal(checkedFile('p', base).live, false);
    const unreachable: Finding = {
      code: 'api-unreachable',
      severity: 'error',
      message: 'x',
      offset: 0,
      length: 0,
    };
    assert.equal(checkedFile('p', { text: '', findings: [unreachable], live }).live, false);
  });
});
