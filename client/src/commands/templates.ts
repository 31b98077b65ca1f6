/** Text the commands produce (snippets, example choice): pure, so unit tests run it without an editor. */
import type { Pool } from '../../../core/api/types';

/**
 * The plan snippet for these pools (choices are the contract principals), with `sender` filled with the
 * configured one (`dlmm.dashboard.sender`) when there is one: export needs it (the `sender-missing` finding).
 */
export function planSnippet(pools: readonly Pool[], sender?: string): string {
  const senderText = sender && /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}$/.test(sender) ? sender : undefined;
  const choices = pools.map((p) => p.pool_id).filter((id) => /^[\w.-]+$/.test(id));
  const pool =
    choices.length > 0
      ? `\${3|${choices.join(',')}|}`
      : '${3:SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10}';
  return [
    'version: 1',
    'network: mainnet',
    'api: v2',
    `sender: \${1:${senderText ?? 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR'}}`,
    'policy:',
    '  max_tip_lag: 0',
    '  slippage_tolerance: 1',
    'operations:',
    '  - id: ${2:first-add}',
    '    op: add',
    '    mode: simple',
    `    pool: ${pool}`,
    '    bins:',
    '      - { active_bin_offset: ${4:-1}, x_amount: ${5:0}, y_amount: ${6:1000000} }',
    '$0',
  ].join('\n');
}

/** Picks the walkthrough example: one named like "walkthrough"/"basic", else the first plan file. */
export function pickExample(names: readonly string[]): string | undefined {
  const plans = names.filter((n) => /\.dlmm\.ya?ml$/i.test(n)).sort();
  return plans.find((n) => /walkthrough|basic|getting|quick|simple/i.test(n)) ?? plans[0];
}
