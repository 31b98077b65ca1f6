/**
 * "DLMM: Export Unsigned Transactions" on a clean plan, and the dashboard's "Export swap": the files written
 * next to the plan hold what `dlmm export --sim` prints for the same plan (the CLI is the oracle), and the
 * summary preview names the contract and function. Nothing is signed or sent.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from './harness';
import { cliFindings, dlmm, harness } from './support';

const PLAN = 'add-ladder.dlmm.yaml';
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';
const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

interface WalletRequest {
  method: string;
  params: {
    contract: string;
    functionName: string;
    functionArgs: string[];
    postConditions: string[];
    postConditionMode: string;
    network: string;
  };
}

/** The oracle: `dlmm export --sim <plan> --format wallet-request`, parsed. */
async function cliWalletRequest(plan: string): Promise<WalletRequest[]> {
  const { stdout, code } = await dlmm(['export', '--sim', plan, '--format', 'wallet-request']);
  assert.equal(code, 0, `dlmm export refused ${plan}: ${stdout}`);
  return JSON.parse(stdout) as WalletRequest[];
}

/** Reads an exported wallet request and checks its shape (a JSON array of stx_callContract requests). */
function readWalletRequest(file: string): WalletRequest[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  assert.ok(Array.isArray(parsed) && parsed.length > 0, `${file} is not a non-empty JSON array`);
  for (const r of parsed as WalletRequest[]) {
    assert.equal(r.method, 'stx_callContract');
    assert.ok(
      r.params.functionArgs.every((a) => /^[0-9a-f]+$/.test(a)),
      'functionArgs are hex without 0x',
    );
  }
  return parsed as WalletRequest[];
}

/** Waits for the export's "written to <file>" notification (the file is on disk by then). */
async function waitForWritten(h: Harness, fileName: RegExp, timeoutMs = 90_000): Promise<string> {
  const toast = h.workbench.page
    .locator('.notification-toast .notification-list-item-message')
    .filter({ hasText: fileName })
    .first();
  await toast.waitFor({ timeout: timeoutMs });
  const text = await toast.innerText();
  const name = /written to (\S+?)(?:\.\s|\s\(|$)/.exec(text.replace(/\s+/g, ' '))?.[1];
  assert.ok(name, `notification names no file: ${text}`);
  return name;
}

/** Dismisses every notification toast (so the next wait sees only new ones). */
async function clearNotifications(h: Harness): Promise<void> {
  await h.workbench.runCommand('Notifications: Clear All Notifications');
  await h.workbench.page
    .locator('.notification-toast')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

describe('DLMM: Export Unsigned Transactions', function () {
  let plan: string;
  let expected: WalletRequest[];

  before(async () => {
    const h = await harness();
    plan = join(h.workspace, PLAN);
    const errors = (await cliFindings(plan)).filter((d) => d.severity === 'error');
    assert.deepEqual(errors, [], `${PLAN} must be clean against the simulator to be exported`);
    expected = await cliWalletRequest(plan);
    await h.workbench.openFile(PLAN);
  });

  it('writes the wallet request next to the plan, as `dlmm export` prints it', async () => {
    const h = await harness();
    await clearNotifications(h);
    await h.workbench.runCommand('DLMM: Export Unsigned Transactions', 60_000);
    await h.workbench.pickItem('wallet-request', 60_000);
    const name = await waitForWritten(h, /written to \S+\.wallet-request\.json/);
    await h.workbench.screenshot('40-export-wallet-request');
    assert.equal(name, 'add-ladder.all.wallet-request.json');

    const written = readWalletRequest(join(h.workspace, name));
    assert.deepEqual(
      written.map((r) => r.params.functionArgs),
      expected.map((r) => r.params.functionArgs),
    );
    // Same contract call and protection as the CLI, element by element.
    assert.deepEqual(written, expected);
  });

  it('shows the summary preview with the contract and function', async () => {
    const h = await harness();
    const first = expected[0];
    assert.ok(first, 'the CLI exported no transaction');
    await clearNotifications(h);
    await h.workbench.openFile(PLAN);
    await h.workbench.runCommand('DLMM: Export Unsigned Transactions', 60_000);
    await h.workbench.pickItem('summary', 60_000);
    const name = await waitForWritten(h, /written to \S+\.summary\.md/);
    assert.equal(name, 'add-ladder.all.summary.md');

    const page = h.workbench.page;
    // The preview is read-only plain text named like the summary file (.txt), full width.
    const previewName = name.replace(/\.md$/, '.txt');
    const preview = page
      .locator('.editor-group-container')
      .filter({ has: page.locator(`.tab.active[aria-label*="${previewName}"]`) })
      .locator('.monaco-editor .view-lines')
      .first();
    await preview.filter({ hasText: first.params.functionName }).waitFor({ timeout: 30_000 });
    await h.workbench.screenshot('41-export-summary-preview');
    // Compared without whitespace (the editor may still wrap long lines by the user's settings).
    const shown = (await preview.innerText()).replace(/\s+/g, '');
    assert.ok(shown.includes(first.params.contract), `preview lacks ${first.params.contract}: ${shown}`);
    assert.ok(shown.includes(`function:${first.params.functionName}`), `preview lacks the function`);
    // The file written next to the plan is the same summary.
    const onDisk = readFileSync(join(h.workspace, name), 'utf8');
    assert.ok(onDisk.includes(first.params.contract) && onDisk.includes(first.params.functionName));
  });

  it("exports the dashboard quote's swap through a plan file, as `dlmm export` does for that plan", async () => {
    const h = await harness();
    await h.workbench.closeAllEditors();
    await clearNotifications(h);
    const before = new Set(readdirSync(h.workspace));
    await h.workbench.runCommand('DLMM: Open Dashboard');
    const frame = await h.workbench.frameWith('[data-testid="app"]', 60_000);
    await frame.locator('[data-testid="quote-in"]').selectOption(SBTC, { timeout: 60_000 });
    await frame.locator('[data-testid="quote-out"]').selectOption(USDCX);
    await frame.locator('[data-testid="quote-amount"]').fill('0.001');
    await frame.locator('[data-testid="quote-submit"]').click();
    await frame.locator('[data-testid="quote-best"]').waitFor({ timeout: 30_000 });
    const exportButton = frame.locator('[data-testid="quote-export"]');
    await exportButton.waitFor({ state: 'visible', timeout: 30_000 });
    await exportButton.click();

    // No dlmm.dashboard.sender in the harness: the command asks for the sender.
    await h.workbench.answerInput(SENDER, 30_000);
    await h.workbench.pickItem('wallet-request', 60_000);
    const name = await waitForWritten(h, /written to swap-\S+\.wallet-request\.json/);
    await h.workbench.screenshot('42-export-swap-from-dashboard');

    const plans = readdirSync(h.workspace).filter((f) => !before.has(f) && f.endsWith('.dlmm.yaml'));
    assert.equal(plans.length, 1, `new plan files: ${plans.join(', ')}`);
    const planName = plans[0] as string;
    assert.match(planName, /^swap-sBTC-USDCx-\d{8}-\d{6}\.dlmm\.yaml$/);
    assert.equal(name, planName.replace(/\.dlmm\.yaml$/, '.all.wallet-request.json'));
    const planText = readFileSync(join(h.workspace, planName), 'utf8');
    assert.match(planText, new RegExp(`sender: ${SENDER}`));
    assert.match(planText, /amount_in: "100000"/);

    const written = readWalletRequest(join(h.workspace, name));
    assert.ok(existsSync(join(h.workspace, planName)));
    assert.deepEqual(written, await cliWalletRequest(join(h.workspace, planName)));
  });

  after(async () => {
    const { workbench } = await harness();
    await workbench.closeAllEditors().catch(() => undefined);
  });
});
