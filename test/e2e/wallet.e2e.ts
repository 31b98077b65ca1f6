/**
 * "DLMM: Send to Wallet" in a real VS Code (code-server): the command checks the example plan, serves the
 * one-time page and opens it through `asExternalUri` + `openExternal`. In code-server that opens a new tab
 * of the browser driving the workbench, which the test captures (no real browser window, no test-only code
 * in the extension). The one mock is the wallet: no real wallet extension can run in this headless,
 * offline Chromium, so a test SIP-030 provider is injected into the wallet page (only there) before its
 * script runs. The requests it receives must be what `dlmm export --format wallet-request` prints for the
 * same plan, and its answer must appear in the editor.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { dlmm, harness } from './support';

const PLAN = 'add-ladder.dlmm.yaml';
const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

interface WalletRequest {
  method: string;
  params: Record<string, unknown>;
}

/** Runs in every new page of the context (serialized); installs the test provider only on a wallet page. */
function installTestWallet(sender: string): void {
  if (!/\/[A-Za-z0-9_-]{32}\/$/.test(location.pathname)) return;
  const w = window as unknown as Record<string, unknown>;
  const calls: { method: string; params: unknown }[] = [];
  w.__walletCalls = calls;
  let n = 0;
  w.LeatherProvider = {
    request(method: string, params?: unknown): Promise<unknown> {
      calls.push({ method, params: params === undefined ? null : JSON.parse(JSON.stringify(params)) });
      if (method === 'stx_getAddresses') {
        return Promise.resolve({
          jsonrpc: '2.0',
          id: '1',
          result: { addresses: [{ symbol: 'STX', address: sender }] },
        });
      }
      n++;
      return Promise.resolve({
        jsonrpc: '2.0',
        id: String(n),
        result: { txid: n.toString(16).padStart(64, 'e') },
      });
    },
  };
}

describe('DLMM: Send to Wallet', function () {
  let expected: WalletRequest[];
  let wallet: Page | undefined;

  before(async () => {
    const h = await harness();
    const { stdout, code } = await dlmm([
      'export',
      '--sim',
      join(h.workspace, PLAN),
      '--format',
      'wallet-request',
    ]);
    assert.equal(code, 0, `dlmm export refused ${PLAN}`);
    expected = JSON.parse(stdout) as WalletRequest[];
    await h.workbench.page.context().addInitScript(installTestWallet, SENDER);
  });

  it("opens the one-time page and the test wallet's answer appears in the editor", async () => {
    const h = await harness();
    const context = h.workbench.page.context();
    await h.workbench.closeAllEditors();
    await h.workbench.openFile(PLAN);
    const toastLog = await h.workbench.recordToasts();
    const opened = context.waitForEvent('page', { timeout: 90_000 });
    await h.workbench.runCommand('DLMM: Send to Wallet', 60_000);
    wallet = await opened;
    const w = wallet;
    await w.waitForSelector('body[data-ready=true]', { timeout: 60_000 }).catch(async (e: unknown) => {
      await w
        .screenshot({ path: join(h.workbench.artifactsDir, '60-wallet-page-failed.png') })
        .catch(() => undefined);
      const body = await w.content().catch(() => '');
      throw new Error(
        `the wallet page at ${w.url()} did not get ready: ${String(e)}\n${body.slice(0, 2000)}`,
      );
    });
    await wallet.screenshot({ path: join(h.workbench.artifactsDir, '60-wallet-page.png'), fullPage: true });
    assert.match(
      (await wallet.textContent('[data-testid=summary]')) ?? '',
      /unsigned transaction\(s\) to sign in your wallet/,
    );

    await wallet.click('[data-testid=send]');
    await wallet.waitForSelector('body[data-finished=true]', { timeout: 30_000 });
    const calls = (await wallet.evaluate(
      () => (window as unknown as { __walletCalls: WalletRequest[] }).__walletCalls,
    )) as WalletRequest[];
    assert.deepEqual(
      calls.map((c) => c.method),
      ['stx_getAddresses', ...expected.map(() => 'stx_callContract')],
    );
    calls.slice(1).forEach((c, i) => assert.deepEqual(c.params, { ...expected[i]!.params, address: SENDER }));

    // The answer reaches the editor: the answers file opens beside the plan, with the wallet's txid.
    const txid = (1).toString(16).padStart(64, 'e');
    const page = h.workbench.page;
    const name = 'add-ladder.all.wallet-answers.json';
    await page.locator(`.tab.active[aria-label*="${name}"]`).waitFor({ timeout: 30_000 });
    const editor = page
      .locator('.editor-group-container')
      .filter({ has: page.locator(`.tab.active[aria-label*="${name}"]`) })
      .locator('.monaco-editor .view-lines')
      .first();
    await editor.filter({ hasText: txid }).waitFor({ timeout: 30_000 });
    // The final notification: in the notification center, where VS Code keeps it whatever became of its
    // toast (see waitForNotification). On a miss, what the toasts did meanwhile is part of the failure.
    const said = await h.workbench
      .waitForNotification(/the wallet answered all \d+ transaction/)
      .catch(async (e: unknown) => {
        await h.workbench.screenshot('61-wallet-answer-missing-notification');
        throw new Error(`${String(e)}\ntoasts meanwhile:\n${await toastLog()}`);
      });
    assert.match(said, new RegExp(`answers in ${name.replace(/\./g, '\\.')}`));
    await h.workbench.screenshot('61-wallet-answer-in-editor');
    const onDisk = JSON.parse(readFileSync(join(h.workspace, name), 'utf8')) as {
      complete: boolean;
      answers: { txid?: string }[];
    };
    assert.equal(onDisk.complete, true);
    assert.equal(onDisk.answers[0]!.txid, txid);
  });

  after(async () => {
    await wallet?.close().catch(() => undefined);
    const { workbench } = await harness();
    await workbench.closeAllEditors().catch(() => undefined);
  });
});
