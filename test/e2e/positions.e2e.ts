/**
 * The positions status bar item: with a plan naming a sender open, the item shows that sender's positions in
 * the embedded simulator ("N positions", "· M out of range" when some are), read once the engine's applied
 * state height is known, and its tooltip names the pools. Not run by `npm test` (the lead runs the e2e suite).
 */
import { strict as assert } from 'node:assert';
import { harness } from './support';

describe('positions status bar', function () {
  it("shows the plan sender's positions in the simulator", async () => {
    const { workbench } = await harness();
    await workbench.openFile('add-ladder.dlmm.yaml');
    const item = workbench.page.locator('.part.statusbar .statusbar-item', {
      hasText: /\d+ positions?( · \d+ out of range)?( · \d+ unknown)?/,
    });
    await item.first().waitFor({ state: 'visible', timeout: 90_000 });
    const text = (await item.first().innerText()).trim();
    // The default world gives this sender positions in its three pools (docs/world.md).
    const m = /(\d+) positions?/.exec(text);
    assert.ok(m && Number(m[1]) >= 1, `status bar shows '${text}'`);
    assert.doesNotMatch(text, /unknown/, `status bar shows '${text}'`);
    const label = (await item.first().getAttribute('aria-label')) ?? '';
    assert.match(label, /position/, label);
    await workbench.screenshot('60-positions-status-bar');
  });
});
