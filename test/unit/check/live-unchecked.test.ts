/** core/check/rules/live-unchecked.ts through analyzeOffline: when a plan says its live rules did not run. */
import assert from 'node:assert/strict';
import { analyzeOffline, checkedLive } from '../../../core/check/analyze';

const CLEAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - op: add
    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10
    bins:
      - { bin_id: 145, x_amount: 1000, y_amount: 0 }
`;

const table: Array<{ name: string; text: string; skipped?: string; codes: string[] }> = [
  { name: 'a clean plan checked offline for the keystroke pass: nothing', text: CLEAN, codes: [] },
  {
    name: 'a clean plan whose live rules will not run: one warning, with the reason',
    text: CLEAN,
    skipped: 'no service configured',
    codes: ['live-unchecked'],
  },
  {
    name: 'a plan that does not parse: its syntax error alone',
    text: 'version: 1\noperations: [\n',
    skipped: 'no service configured',
    codes: ['syntax'],
  },
  {
    name: 'a plan with one bad operation: the others were not checked live either',
    text:
      CLEAN +
      '  - op: add\n    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10\n    bins: 7\n',
    skipped: 'no service configured',
    codes: ['live-unchecked', 'schema'],
  },
];

describe('live-unchecked: a plan whose live rules did not run says so', () => {
  for (const row of table)
    it(row.name, () => {
      const a = analyzeOffline(row.text, row.skipped === undefined ? {} : { liveSkipped: row.skipped });
      assert.deepEqual(a.findings.map((f) => f.code).sort(), row.codes);
      assert.equal(checkedLive(a), false);
      const notice = a.findings.find((f) => f.code === 'live-unchecked');
      if (notice) {
        assert.equal(notice.severity, 'warning');
        assert.equal(notice.operation, undefined);
        assert.match(
          notice.message,
          new RegExp(`^the live rules did not run: ${row.skipped}\\. Only the offline rules ran`),
        );
        // On the plan's first key (`version`), so an editor shows it at the top.
        assert.equal(row.text.slice(notice.offset, notice.offset + notice.length), 'version');
      }
    });
});
