/** Test helpers for plan rule tables: a finding as (code, severity, the source text its range covers). */
import assert from 'node:assert/strict';
import type { Analysis } from '../../../core/check/analyze';
import type { Finding } from '../../../core/plan/diagnostics';

export const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
export const POOL1 = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
export const POOL2 = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-stx-usdcx-v-1-bps-20';
export const POOL3 = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-stx-sbtc-v-1-bps-1';
export const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
export const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';

/** Expected finding: code, severity, and the exact source text under its range. */
export type Expect = [code: string, severity: string, at: string];

/** A plan with the given operations YAML (indented as list items under `operations:`). */
export function plan(ops: string, head = `sender: ${SENDER}\n`): string {
  return `version: 1\n${head}operations:\n${ops}`;
}

export function summarize(text: string, findings: readonly Finding[]): Expect[] {
  return findings.map((f) => [f.code, f.severity, text.slice(f.offset, f.offset + f.length)]);
}

/** Asserts the findings of `codes` (others ignored when `only` is given) equal `expected`, in order. */
export function assertFindings(a: Analysis, expected: Expect[], only?: readonly string[]): void {
  const got = summarize(a.text, a.findings).filter(([code]) => !only || only.includes(code));
  assert.deepEqual(
    got,
    expected,
    `findings of\n${a.text}\n${a.findings.map((f) => `${f.code}: ${f.message}`).join('\n')}`,
  );
  assert.deepEqual(a.internalErrors, []);
}
