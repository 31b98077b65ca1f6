/**
 * Hover shows what the check's execution of the plan's transactions does on the state read (shares minted,
 * tokens received on withdraw, amounts in and out of a swap), over real JSON-RPC against the simulated engine.
 * The figures are compared with the chain model's own execution of the same plan in this process (core
 * analyzePlan on the same simulator), so the hover shows the executed numbers, not a re-derivation.
 */
import { blockCostDetail } from '../../../core/tx/cost';
import assert from 'node:assert/strict';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { createApiClient } from '../../../core/api/client';
import { analyzePlan } from '../../../core/check/analyze';
import type { RunningSimulator } from '../../../core/sim/server';
import { DEFAULT_SIM_API_KEY, POOL_SBTC_USDCX, SBTC, USDCX } from '../../../core/sim/defaultWorld';
import { positionOf, startSimLsp, type LspSession, type SimLsp } from './harness';

const PLAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: asks
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: 145, x_amount: 2000, y_amount: 0 }
      - { bin_id: 146, x_amount: 3000, y_amount: 0 }
  - id: out
    op: withdraw
    pool: ${POOL_SBTC_USDCX}
    withdrawal_percentage: 50
    bins: [136, 137]
  - id: ladder
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    distribution: { shape: spot, from: 147, to: 168, x_amount: 2200000, y_amount: 0 }
  - id: sell
    op: swap
    input_token: ${SBTC}
    output_token: ${USDCX}
    amount_in: 100000
`;

const md = (h: Hover | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

describe('hover shows the executed effects of an operation (language server over stdio)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let lsp: LspSession;
  const uri = 'file:///work/plans/effects.dlmm.yaml';

  let fixture: SimLsp | undefined;

  before(async () => {
    fixture = await startSimLsp(uri, PLAN, { statusPollMs: 60_000, analysisEvents: true });
    ({ sim, lsp } = fixture);
    await lsp.live(uri, 1);
  });

  after(async () => {
    await fixture?.close();
  });

  const hoverAt = async (needle: string, delta: number, n = 0) =>
    md(
      (await lsp.conn.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: positionOf(PLAN, needle, delta, n),
      })) as Hover,
    );

  it('an add item shows the shares its list element minted; the operation shows every element and what you send', async () => {
    const api = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, apiKey: DEFAULT_SIM_API_KEY });
    try {
      const a = await analyzePlan(PLAN, { api, fileName: 'effects.dlmm.yaml' });
      const add = a.execution?.transactions.find((t) => t.opId === 'asks');
      assert.equal(add?.execution?.status, 'ok', JSON.stringify(a.findings.map((f) => f.message)));
      const minted = add!.effects!.rows.map(
        (r) => r.amounts.find((x) => x.label === 'shares minted')!.amount,
      );
      assert.equal(minted.length, 2);
      assert.ok(minted.every((m) => m > 0n));

      const item = await hoverAt('bin_id: 146', 9);
      assert.match(item, /\*\*Executed on the state read\*\*/);
      assert.match(
        item,
        new RegExp(`bin 146: deposits x 0\\.00003 sBTC \\(3000\\), shares minted ${minted[1]}`),
      );
      assert.doesNotMatch(item, /bin 145:/, 'an item hover shows its own element only');

      const op = await hoverAt('op: add', 5);
      assert.match(
        op,
        new RegExp(`bin 145: deposits x 0\\.00002 sBTC \\(2000\\), shares minted ${minted[0]}`),
      );
      assert.match(op, new RegExp(`bin 146: .*shares minted ${minted[1]}`));
      assert.match(op, /you send: 0\.00005 sBTC \(5000\) · you receive: nothing/);
      // The sender's balance before and after, followed through the plan (read from the node).
      assert.match(op, /your balance: 10 sBTC \(1000000000\) → 9\.99995 sBTC \(999995000\)/);
      // Its share of a block, as core words it (the operation's hover only, not an item's).
      assert.ok(add!.blockCost, 'the check weighed the transaction');
      assert.ok(op.includes(`\`add-liquidity-multi\` ${blockCostDetail(add!.blockCost)}`), op);
      assert.match(
        op,
        /`add-liquidity-multi` cost \d+% of a block \([\d,]+ of 15,000 reads\) for 2 positions/,
      );
      assert.doesNotMatch(item, /of a block/);

      const out = a.execution?.transactions.find((t) => t.opId === 'out');
      const got = out!.effects!.received.find((r) => r.token?.symbol === 'USDCx')!.amount;
      const w = await hoverAt('withdrawal_percentage', 2);
      assert.match(w, /bin 136: shares burned \d+, receives x 0 sBTC \(0\), receives y [\d.]+ USDCx/);
      assert.match(w, new RegExp(`you receive: [\\d.]+ USDCx \\(${got}\\)`));

      const sw = a.execution?.transactions.find((t) => t.opId === 'sell');
      const swapOut = sw!.effects!.received[0]!.amount;
      const s = await hoverAt('amount_in', 2);
      assert.match(
        s,
        new RegExp(`from bin 139: in 0\\.001 sBTC \\(100000\\), out [\\d.]+ USDCx \\(${swapOut}\\)`),
      );
      assert.match(s, /you send: 0\.001 sBTC \(100000\)/);
      assert.ok(sw!.blockCost?.walk, 'a simple swap is weighed by the bins its walk may take');
      assert.ok(s.includes(blockCostDetail(sw!.blockCost)), s);
      assert.match(s, /bins its walk may take: \d+ on the state read/);
      // After the asks (5,000) and the ladder (2,200,000): the swap takes 100,000 more and pays USDCx.
      assert.match(s, /your balance: 9\.97795 sBTC \(997795000\) → 9\.97695 sBTC \(997695000\)/);
      const usdcx = /[\d.]+ USDCx \((\d+)\) → [\d.]+ USDCx \((\d+)\)/.exec(s);
      assert.ok(usdcx, s);
      assert.equal(BigInt(usdcx[2]!) - BigInt(usdcx[1]!), swapOut);
    } finally {
      await api.close?.();
    }
  });

  it('a 22-bin distribution shows its first 20 executed elements and says how many more', async () => {
    const d = await hoverAt('distribution:', 3);
    assert.match(d, /\*\*Executed on the state read\*\*/);
    assert.equal((d.match(/^bin \d+: deposits x .*shares minted \d+$/gm) ?? []).length, 20, d);
    assert.match(d, /… and 2 more list elements \(the export summary lists every one\)/);
  });

  it('hover on the pool shows no execution (only the pool)', async () => {
    const pool = await hoverAt('dlmm-pool', 2);
    assert.match(pool, /bin step: 10/);
    assert.doesNotMatch(pool, /Executed on the state read/);
  });
});
