/** The dashboard comes back after a window reload (panel serializer), on the pool it showed. */
import { strict as assert } from 'node:assert';
import { harness } from './support';

describe('dashboard restore after a window reload', function () {
  it('restores the panel on the selected pool', async () => {
    const { workbench } = await harness();
    await workbench.runCommand('DLMM: Open Dashboard');
    let frame = await workbench.frameWith('[data-testid="active-bin"]', 60_000);
    const picker = frame.locator('[data-testid="pool-picker"]');
    const options = await picker
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const current = await picker.inputValue();
    const other = options.find((o) => o !== current);
    assert.ok(other, `only one pool: ${options.join(',')}`);
    const pairBefore = await frame.locator('[data-testid="pair"]').innerText();
    await picker.selectOption(other);
    // The header shows the other pool once its data is in: the page has saved its state (pool_id) by then.
    await frame.waitForFunction(
      (before) => {
        const el = document.querySelector('[data-testid="pair"]');
        return !!el && el.textContent !== before;
      },
      pairBefore,
      { timeout: 30_000 },
    );
    const page = workbench.page;
    const reloaded = page.waitForEvent('framenavigated', {
      predicate: (f) => f === page.mainFrame(),
      timeout: 60_000,
    });
    await workbench.runCommand('Developer: Reload Window');
    await reloaded;
    const old = frame;
    assert.ok(old.isDetached(), 'the old webview frame survived the reload');
    await workbench.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
    frame = await workbench.frameWith('[data-testid="active-bin"]', 90_000);
    await workbench.screenshot('50-dashboard-restored');
    assert.equal(await frame.locator('[data-testid="pool-picker"]').inputValue(), other);
    const tabs = await workbench.page.locator('.tabs-container .tab', { hasText: 'DLMM Dashboard' }).count();
    assert.equal(tabs, 1);
  });
});
