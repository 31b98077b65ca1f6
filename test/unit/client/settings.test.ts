/** Settings schema <-> package.json, parsing with fallbacks, and resolution per environment. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ENVIRONMENTS,
  parseConfig,
  resolveServerSettings,
  sectionForServer,
  SETTING_KEYS,
} from '../../../client/src/settingsSchema';
import { PRODUCTION_API_URL } from '../../../core/api/environment';
import { DlmmSectionSchema } from '../../../protocol/schemas';
import { resolveSection } from '../../../server/src/settings';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: {
    configuration: { properties: Record<string, { default?: unknown; enum?: string[] }> };
    commands: { command: string; title: string }[];
  };
};

describe('client settings', () => {
  it('package.json contributes exactly the schema keys, with the same defaults', () => {
    const props = pkg.contributes.configuration.properties;
    assert.deepEqual(Object.keys(props).sort(), SETTING_KEYS.map((k) => `dlmm.${k}`).sort());
    const defaults = parseConfig({}).config;
    assert.equal(props['dlmm.environment']?.default, defaults.environment);
    assert.deepEqual(props['dlmm.environment']?.enum, [...ENVIRONMENTS]);
    assert.equal(props['dlmm.slippageTolerance']?.default, defaults.slippageTolerance);
    assert.equal(props['dlmm.policy.maxTipLag']?.default, defaults.policy.maxTipLag);
    assert.equal(props['dlmm.apiUrl']?.default, defaults.apiUrl);
  });

  it('dlmm.export.folder: a folder of the workspace, chosen once; anything else falls back to beside the plan', () => {
    const cases: [unknown, string, boolean][] = [
      [undefined, '', false],
      ['', '', false],
      ['exports', 'exports', false],
      [' out/dlmm ', 'out/dlmm', false],
      ['../elsewhere', '', true],
      ['exports/../..', '', true],
      ['/tmp/exports', '', true],
      ['C:\\exports', '', true],
      [42, '', true],
    ];
    for (const [raw, folder, problem] of cases) {
      const { config, problems } = parseConfig({ 'export.folder': raw });
      assert.equal(config.export.folder, folder, `${JSON.stringify(raw)}`);
      assert.equal(
        problems.some((p) => p.startsWith('dlmm.export.folder')),
        problem,
        `${JSON.stringify(raw)}: ${problems.join('; ')}`,
      );
    }
    assert.equal(pkg.contributes.configuration.properties['dlmm.export.folder']?.default, '');
  });

  it('keeps the command titles the e2e suite drives', () => {
    const titles = new Map(pkg.contributes.commands.map((c) => [c.command, c.title]));
    assert.equal(titles.get('dlmm.getQuote'), 'DLMM: Get Quote');
    assert.equal(titles.get('dlmm.showEngineStatus'), 'DLMM: Show Engine Status');
    assert.equal(titles.get('dlmm.setApiKey'), 'DLMM: Set API Key');
    assert.equal(titles.get('dlmm.startSimulator'), 'DLMM: Start Simulator');
    assert.equal(titles.get('dlmm.newPlan'), 'DLMM: New Plan');
    assert.equal(titles.get('dlmm.sendToWallet'), 'DLMM: Send to Wallet');
    assert.equal(titles.get('dlmm.recentreLiquidity'), 'DLMM: Re-centre Liquidity');
  });

  const table: {
    name: string;
    raw: Record<string, unknown>;
    expect: Record<string, unknown>;
    problems: number;
  }[] = [
    {
      name: 'defaults',
      raw: {},
      expect: { environment: 'production', apiUrl: PRODUCTION_API_URL },
      problems: 0,
    },
    {
      name: 'custom with URLs',
      raw: { environment: 'custom', apiUrl: 'http://127.0.0.1:9/api', nodeUrl: 'http://127.0.0.1:9/node' },
      expect: { apiUrl: 'http://127.0.0.1:9/api', nodeUrl: 'http://127.0.0.1:9/node' },
      problems: 0,
    },
    {
      name: 'custom without URL is offline',
      raw: { environment: 'custom' },
      expect: { apiUrl: undefined },
      problems: 0,
    },
    {
      name: 'bad URL falls back with a message',
      raw: { environment: 'custom', apiUrl: 'ftp:/x' },
      expect: { apiUrl: undefined },
      problems: 1,
    },
    {
      name: 'bad environment falls back to production',
      raw: { environment: 'staging' },
      expect: { environment: 'production' },
      problems: 1,
    },
    {
      name: 'maxTipLag passes through',
      raw: { 'policy.maxTipLag': 3 },
      expect: { maxTipLag: 3 },
      problems: 0,
    },
    {
      name: 'negative maxTipLag rejected',
      raw: { 'policy.maxTipLag': -1 },
      expect: { maxTipLag: null },
      problems: 1,
    },
    {
      name: 'simulator before it runs is offline',
      raw: { environment: 'simulator' },
      expect: { environment: 'simulator', apiUrl: undefined },
      problems: 0,
    },
  ];
  for (const row of table) {
    it(`resolves: ${row.name}`, async () => {
      const { config, problems } = parseConfig(row.raw);
      assert.equal(problems.length, row.problems, problems.join('; '));
      const s = resolveServerSettings(config, undefined);
      for (const [k, v] of Object.entries(row.expect))
        assert.deepEqual((s as Record<string, unknown>)[k], v, k);
      // The server accepts the section the extension sends, and resolves it to the same service.
      const section = DlmmSectionSchema.safeParse(sectionForServer(config, undefined));
      assert.ok(section.success, 'the server accepts what the client sends');
      const onServer = await resolveSection(section.data, { environment: 'env' }, () =>
        Promise.reject(new Error('the server starts no simulator of its own for the extension')),
      );
      for (const k of ['apiUrl', 'inventoryUrl', 'nodeUrl', 'maxTipLag', 'slippageTolerance'] as const)
        assert.deepEqual(onServer[k], s[k], k);
      assert.equal(onServer.apiUrl === undefined, onServer.noService !== undefined, 'no service says why');
    });
  }

  it('simulator endpoints replace the URLs when it runs', () => {
    const { config } = parseConfig({ environment: 'simulator', apiUrl: 'http://ignored/api' });
    const s = resolveServerSettings(config, {
      url: 'http://127.0.0.1:5000/api',
      inventoryUrl: 'http://127.0.0.1:5000/api/mm/v1',
      nodeUrl: 'http://127.0.0.1:5000/node',
    });
    assert.equal(s.apiUrl, 'http://127.0.0.1:5000/api');
    assert.equal(s.inventoryUrl, 'http://127.0.0.1:5000/api/mm/v1');
  });

  it('never carries an API key', () => {
    const { config } = parseConfig({
      environment: 'custom',
      apiUrl: 'http://127.0.0.1:9/api',
      apiKey: 'secret',
    } as Record<string, unknown>);
    assert.ok(!JSON.stringify(resolveServerSettings(config, undefined)).includes('secret'));
  });
});
