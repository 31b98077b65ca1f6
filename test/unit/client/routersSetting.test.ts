/** The `dlmm.routers` setting: parsed with the shared router schema; a bad value is reported and ignored. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../../client/src/settingsSchema';
import { toRouterOverrides } from '../../../core/chain/routerSettings';
import { routerConfigFor } from '../../../core/chain/deployments';

const T = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const TESTNET = {
  liquidity_router: `${T}.dlmm-liquidity-router-v-1-2`,
  swap_router: `${T}.dlmm-swap-router-v-1-2`,
  version: 'v-1-2',
  stx_wrapper: `${T}.token-stx-v-1-2`,
};

describe('dlmm.routers setting', () => {
  it('defaults to no overrides (package.json default too)', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
    };
    const { config, problems } = parseConfig({});
    assert.deepEqual(problems, []);
    assert.deepEqual(config.routers, {});
    assert.deepEqual(pkg.contributes.configuration.properties['dlmm.routers']?.default, config.routers);
  });

  it('a testnet entry becomes the testnet router config for exports', () => {
    const { config, problems } = parseConfig({ routers: { testnet: TESTNET } });
    assert.deepEqual(problems, []);
    assert.equal(
      routerConfigFor('testnet', toRouterOverrides(config.routers))?.swapRouter,
      TESTNET.swap_router,
    );
  });

  it('a bad value is reported with its field and ignored; the other settings are kept', () => {
    const { config, problems } = parseConfig({
      routers: { testnet: { ...TESTNET, version: 'v-3' } },
      slippageTolerance: 2,
    });
    assert.equal(problems.length, 1, problems.join('; '));
    assert.match(problems[0]!, /^dlmm\.routers\.testnet\.version: expected 'v-1-1' or 'v-1-2'/);
    assert.deepEqual(config.routers, {});
    assert.equal(config.slippageTolerance, 2);
  });
});
