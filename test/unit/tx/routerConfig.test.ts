/** Router configuration: the schema's messages, merging over the mainnet defaults, testnet completeness. */
import assert from 'node:assert/strict';
import { parseRouterSettings, RouterSettingsSchema } from '../../../core/chain/routerSettings';
import { DEFAULT_ROUTERS, routerConfigFor } from '../../../core/chain/deployments';

const T = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const TESTNET = {
  liquidity_router: `${T}.dlmm-liquidity-router-v-1-1`,
  swap_router: `${T}.dlmm-swap-router-v-1-1`,
  version: 'v-1-1',
  stx_wrapper: `${T}.token-stx-v-1-2`,
};

function problems(value: unknown): string[] {
  const r = parseRouterSettings(value, 'routers.json');
  assert.equal(r.ok, false, 'expected the configuration to be refused');
  return r.ok ? [] : r.problems;
}

describe('router configuration (core/tx/routerConfig)', () => {
  it('accepts a full testnet entry and makes it the testnet config', () => {
    const r = parseRouterSettings({ testnet: TESTNET }, 'routers.json');
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(routerConfigFor('testnet', r.overrides), {
      liquidityRouter: TESTNET.liquidity_router,
      swapRouter: TESTNET.swap_router,
      version: 'v-1-1',
      stxWrapper: TESTNET.stx_wrapper,
    });
    // Mainnet is untouched by a testnet-only file.
    assert.deepEqual(routerConfigFor('mainnet', r.overrides), DEFAULT_ROUTERS.mainnet);
  });

  it('merges a partial mainnet entry over the defaults', () => {
    const r = parseRouterSettings({ mainnet: { version: 'v-1-1' } }, 'routers.json');
    assert.ok(r.ok);
    const merged = routerConfigFor('mainnet', r.overrides);
    assert.equal(merged?.version, 'v-1-1');
    assert.equal(merged?.liquidityRouter, DEFAULT_ROUTERS.mainnet!.liquidityRouter);
    assert.equal(merged?.stxWrapper, DEFAULT_ROUTERS.mainnet!.stxWrapper);
  });

  it('an empty object changes nothing; testnet stays unconfigured', () => {
    const r = parseRouterSettings({}, 'routers.json');
    assert.ok(r.ok);
    assert.deepEqual(r.overrides, {});
    assert.equal(routerConfigFor('testnet', r.overrides), undefined);
  });

  it('a partial testnet entry names the missing fields (testnet has no defaults)', () => {
    const [p] = problems({ testnet: { liquidity_router: TESTNET.liquidity_router } });
    assert.match(p!, /^testnet: .*swap_router, version, stx_wrapper/);
  });

  it('names the field of a bad contract id, a bad version, an unknown key and an unknown network', () => {
    assert.match(
      problems({ testnet: { ...TESTNET, swap_router: 'not-a-contract' } })[0]!,
      /^testnet\.swap_router: expected a contract id ADDR\.name/,
    );
    assert.match(
      problems({ mainnet: { version: 'v-2' } })[0]!,
      /^mainnet\.version: expected 'v-1-1' or 'v-1-2'/,
    );
    assert.match(
      problems({ mainnet: { liquidityRouter: 'x' } })[0]!,
      /^mainnet: unknown field\(s\) liquidityRouter \(expected liquidity_router, swap_router, version, stx_wrapper\)/,
    );
    assert.match(problems({ devnet: {} })[0]!, /unknown field\(s\) devnet \(expected mainnet, testnet\)/);
    assert.match(problems([1])[0]!, /expected an object keyed by network/);
    assert.match(problems({ testnet: 'x' })[0]!, /^testnet: expected an object/);
  });

  it('refuses a contract of the other network', () => {
    const p = problems({ mainnet: { swap_router: `${T}.dlmm-swap-router-v-1-2` } });
    assert.match(
      p[0]!,
      /^mainnet\.swap_router: ST\S+ is not a mainnet contract \(mainnet addresses start with SP or SM\)/,
    );
  });

  it('the message names the source', () => {
    const r = parseRouterSettings({ mainnet: { version: 1 } }, 'DLMM_ROUTERS=/tmp/r.json');
    assert.ok(!r.ok);
    assert.match(r.message, /^DLMM_ROUTERS=\/tmp\/r\.json: invalid router configuration: mainnet\.version/);
  });

  it('the schema is what the settings and the simulator body use (round trip of the parsed form)', () => {
    const parsed = RouterSettingsSchema.parse({ testnet: TESTNET });
    assert.deepEqual(RouterSettingsSchema.parse(JSON.parse(JSON.stringify(parsed))), parsed);
  });
});
