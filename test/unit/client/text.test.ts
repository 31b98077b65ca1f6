/** Status bar wording, the New Plan snippet and the walkthrough example choice. */
import assert from 'node:assert/strict';
import { analyzeOffline } from '../../../core/check/analyze';
import { planSnippet, pickExample } from '../../../client/src/commands/templates';
import { describeEngineStatus } from '../../../client/src/statusText';
import type { Pool } from '../../../core/api/types';

/** A snippet with every placeholder replaced by its default (or first choice). */
function expand(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|]+)[^}]*\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\d+/g, '');
}

describe('client text', () => {
  const at = 0;
  const table = [
    {
      s: { state: 'ok' as const, ready: true, tipLag: 0, stateHeight: 5, at },
      text: /ready · lag 0/,
      warning: false,
    },
    { s: { state: 'ok' as const, ready: true, tipLag: 3, at }, text: /lag 3/, warning: true },
    { s: { state: 'ok' as const, ready: true, tipLag: null, at }, text: /lag unknown/, warning: true },
    // A negative lag is not believed: unknown, never the check mark (the rules say tip-unknown).
    {
      s: { state: 'ok' as const, ready: true, tipLag: -1, at },
      text: /warning.*lag -1 \(not believed/,
      warning: true,
    },
    { s: { state: 'ok' as const, ready: false, tipLag: 0, at }, text: /not ready/, warning: true },
    { s: { state: 'error' as const, error: 'refused', at }, text: /unreachable/, warning: true },
    { s: { state: 'offline' as const, at }, text: /offline/, warning: true },
  ];
  for (const row of table) {
    it(`status bar: ${row.s.state} ${'tipLag' in row.s ? row.s.tipLag : ''} ${'ready' in row.s ? row.s.ready : ''}`, () => {
      const v = describeEngineStatus(row.s);
      assert.match(v.text, row.text);
      assert.equal(v.warning, row.warning);
    });
  }

  it('the New Plan snippet expands to a plan without syntax or schema errors', () => {
    const pools = [
      { pool_id: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10' },
      { pool_id: 'dlmm_9' },
    ] as Pool[];
    const snippet = planSnippet(pools);
    assert.match(snippet, /\$\{3\|SM1FKX[^|]+,dlmm_9\|\}/);
    const a = analyzeOffline(expand(snippet), { fileName: 'new.dlmm.yaml' });
    const bad = a.findings.filter((f) => f.code === 'syntax' || f.code === 'schema');
    assert.deepEqual(
      bad.map((f) => f.message),
      [],
    );
    assert.ok(a.plan);
  });

  it('the New Plan snippet writes the configured sender, and a placeholder without one', () => {
    const configured = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
    assert.match(planSnippet([], configured), new RegExp(`^sender: \\$\\{1:${configured}\\}$`, 'm'));
    assert.match(planSnippet([]), /^sender: \$\{1:SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR\}$/m);
    // Anything that is not a standard principal is never written into the snippet.
    assert.doesNotMatch(planSnippet([], 'not a principal}'), /not a principal/);
  });

  it('picks a plan file for the walkthrough', () => {
    assert.equal(
      pickExample(['swap.dlmm.json', 'mistakes', 'add-ladder.dlmm.yaml', 'simple-rebalance.dlmm.yaml']),
      'simple-rebalance.dlmm.yaml',
    );
    assert.equal(pickExample(['b.dlmm.yaml', 'a.dlmm.yml']), 'a.dlmm.yml');
    assert.equal(pickExample(['x.json']), undefined);
  });
});
