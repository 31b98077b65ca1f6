/**
 * `dlmm explain` (core/dlmm/explain.ts, cli/src/commands/explain.ts): every error constant the chain model
 * knows (core/dlmm/contractErrors.ts: core, both routers in v-1-1 and v-1-2, pools, token transfers) has an
 * explanation for each contract that defines it, naming only findings that exist; the four spellings of a
 * code give the same answer; an unknown code is answered plainly with exit 2 (docs/cli.md).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import { CONTRACT_ERRORS, contractErrorsByCode } from '../../../core/dlmm/contractErrors';
import {
  EXPLANATIONS,
  explainAbortsIn,
  explainCode,
  explanationOf,
  type ExplainedName,
} from '../../../core/dlmm/explain';
import { DIAGNOSTIC_CODES } from '../../../core/plan/diagnostics';
import { capture } from './capture';

async function explain(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = capture();
  const code = await main(['explain', ...args], io);
  return { code, ...io.text() };
}

describe('dlmm explain: did you mean (issue 45)', () => {
  it('a mistyped constant name gets the constant it stands for', async () => {
    const r = await explain('ERR_ACTIVE_BIN_TOLERNCE');
    assert.equal(r.code, 2);
    assert.match(r.out, /did you mean ERR_ACTIVE_BIN_TOLERANCE\?/);
    assert.equal(
      (explainCode('err-active-bin-tolernce') as { suggestion?: string }).suggestion,
      'ERR_ACTIVE_BIN_TOLERANCE',
    );
  });

  it('a finding code, or a slip of one, is pointed to docs/diagnostics.md', async () => {
    const exact = await explain('would-revert');
    assert.equal(exact.code, 2);
    assert.match(
      exact.out,
      /^would-revert is a finding code of dlmm check, not a contract error: docs\/diagnostics\.md#would-revert/,
    );
    const near = await explain('slipage-unit');
    assert.match(
      near.out,
      /did you mean the finding code slippage-unit\? docs\/diagnostics\.md#slippage-unit/,
    );
    const json = await explain('slipage-unit', '--format', 'json');
    assert.match((JSON.parse(json.out) as { answer: string }).answer, /slippage-unit/);
  });

  it('a word near nothing gets no guess', async () => {
    const r = await explain('nonsense_zz');
    assert.doesNotMatch(r.out, /did you mean/);
  });
});

describe('dlmm explain', () => {
  it('every constant of every contract in the error table has an explanation, naming only findings that exist', () => {
    let walked = 0;
    for (const [name, entries] of Object.entries(CONTRACT_ERRORS)) {
      for (const { contract, code } of entries) {
        const e = explanationOf(name as ExplainedName, contract);
        assert.ok(e, `${name} (${contract}, u${code}) has no explanation in core/dlmm/explain.ts`);
        for (const field of ['checks', 'cause', 'prevent'] as const)
          assert.ok(e[field].length > 10, `${name} (${contract}): ${field} is empty`);
        // The code explains to this reading.
        const r = explainCode(`u${code}`);
        assert.equal(r.kind, 'known');
        if (r.kind === 'known')
          assert.ok(r.hits.some((h) => h.name === name && h.contract === contract && h.code === code));
        walked++;
      }
    }
    assert.ok(walked >= 90, `walked ${walked} (name, contract) pairs`);
    const findings = new Set(Object.keys(DIAGNOSTIC_CODES));
    for (const [name, entry] of Object.entries(EXPLANATIONS)) {
      const readings = 'all' in entry ? [entry.all] : Object.values(entry);
      assert.ok(readings.length > 0, name);
      for (const r of readings) {
        // Hyphenated lowercase words in "caught by" are finding codes, except flags and named functions.
        const words = r!.prevent.replace(/--[a-z-]+/g, '').match(/\b[a-z]+(?:-[a-z]+)+\b/g) ?? [];
        for (const w of words) assert.ok(findings.has(w), `${name}: '${w}' is not a finding code`);
      }
    }
    // The explanation table has nothing the error table lacks (beyond the codeless aborts).
    for (const name of Object.keys(EXPLANATIONS))
      assert.ok(
        name in CONTRACT_ERRORS ||
          ['RUNTIME_OVERFLOW', 'RUNTIME_UNDERFLOW', 'POST_CONDITION_FAILED'].includes(name),
        name,
      );
  });

  it("has the v-1-2 routers' published codes: u2012 on the swap router, u5001–u5008 on the liquidity router", () => {
    assert.deepEqual(contractErrorsByCode(2012), [
      { name: 'ERR_DEADLINE_PASSED', contract: 'dlmm-swap-router-v-1-2' },
    ]);
    for (let code = 5001; code <= 5008; code++)
      assert.ok(
        contractErrorsByCode(code).some((h) => h.contract === 'dlmm-liquidity-router-v-1-2'),
        `u${code}`,
      );
  });

  it('u5008, 5008, ERR_ACTIVE_BIN_TOLERANCE and (err u2012) are read; the first three give one answer', async () => {
    const a = await explain('u5008');
    assert.equal(a.code, 0);
    assert.equal(a.err, '');
    assert.match(
      a.out,
      /^u5008 ERR_ACTIVE_BIN_TOLERANCE \(dlmm-liquidity-router-v-1-1, dlmm-liquidity-router-v-1-2\)\n {2}checks: +add-relative-liquidity-same-multi: the active bin is within max-deviation bins/,
    );
    assert.match(a.out, /caught by: +strict-drift-risk; policy\.active_bin_tolerance/);
    assert.deepEqual(await explain('5008'), a);
    assert.deepEqual(await explain('ERR_ACTIVE_BIN_TOLERANCE'), a);
    assert.deepEqual(await explain('err-active-bin-tolerance'), a);
    const d = await explain('(err u2012)');
    assert.equal(d.code, 0);
    assert.match(d.out, /^u2012 ERR_DEADLINE_PASSED \(dlmm-swap-router-v-1-2\)\n/);
    assert.match(d.out, /policy\.deadline_seconds/);
    // The shell may split it: the words are joined again.
    assert.deepEqual(await explain('(err', 'u2012)'), d);
  });

  it('a code several contracts use lists each (u1: a pool transfer and a token transfer; u1002 core, u3002 pool by name)', async () => {
    const u1 = await explain('u1', '--format', 'json');
    assert.equal(u1.code, 0);
    const doc = JSON.parse(u1.out) as {
      known: boolean;
      explanations: { code: number; name: string; contract: string; prevented_by: string }[];
    };
    assert.equal(doc.known, true);
    assert.deepEqual(
      doc.explanations.map((e) => `${e.contract} ${e.name}`),
      ['dlmm-pool ERR_INSUFFICIENT_BALANCE_SIP_013', 'token ERR_INSUFFICIENT_BALANCE'],
    );
    assert.match(doc.explanations[1]!.prevented_by, /insufficient-balance/);
    const byName = await explain('ERR_INVALID_AMOUNT');
    assert.match(byName.out, /^u1002 ERR_INVALID_AMOUNT \(dlmm-core-v-1-1\)/);
    assert.match(byName.out, /\n\nu3002 ERR_INVALID_AMOUNT \(dlmm-pool\)\n/);
  });

  it('the runtime aborts have no code and are explained by name', async () => {
    const r = await explain('RUNTIME_UNDERFLOW');
    assert.equal(r.code, 0);
    assert.match(r.out, /^RUNTIME_UNDERFLOW \(runtime\)\n/);
    assert.match(r.out, /relative \(simple-mode\) withdraw after the active bin moved/);
  });

  it('an unknown code is answered plainly on stdout and exits 2; text that is no code is a usage error', async () => {
    const u = await explain('u9999');
    assert.equal(u.code, 2);
    assert.equal(u.err, '');
    assert.match(u.out, /^u9999 is not an error code of the Bitflow DLMM contracts we know; /);
    const j = await explain('2010', '--format', 'json');
    assert.equal(j.code, 2);
    const doc = JSON.parse(j.out) as { known: boolean; answer: string };
    assert.equal(doc.known, false);
    assert.match(doc.answer, /u2xxx codes are the swap router's/);
    const n = await explain('ERR_SOMETHING_ELSE');
    assert.equal(n.code, 2);
    assert.match(n.out, /ERR_SOMETHING_ELSE is not an error constant/);
    const bad = await explain('5008!');
    assert.equal(bad.code, 2);
    assert.equal(bad.out, '');
    assert.match(bad.err, /'5008!' is not an error code; expected u5008, 5008, \(err u5008\)/);
    const none = await explain();
    assert.equal(none.code, 2);
    assert.match(none.err, /expected an error code/);
    const sim = await explain('u5008', '--sim');
    assert.equal(sim.code, 2);
    assert.match(sim.err, /reads no service/);
  });

  it('finds the abort codes a text carries (a wallet answer, a transaction result)', () => {
    assert.deepEqual(explainAbortsIn('no code here'), []);
    const lines = explainAbortsIn('abort_by_response (err u1024) then (err u1024) and (err u77777)');
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^u1024 ERR_MINIMUM_LP_AMOUNT \(dlmm-core-v-1-1\): /);
    assert.equal(lines[1], 'u77777: not a code of the DLMM contracts we know');
  });

  it('docs/cli.md documents the command and its exit for an unknown code', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/cli.md'), 'utf8');
    assert.match(doc, /### `dlmm explain`/);
  });
});
