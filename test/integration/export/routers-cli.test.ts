/**
 * Router configuration on the command line: DLMM_ROUTERS names a JSON file of router contracts per network.
 * A testnet plan exports against a simulator serving the default world on testnet addresses, with the configured contract ids and version;
 * without the file it is refused with `router-config-missing`; a bad file is a usage error (exit 2). The
 * exported transaction dry-runs on the simulator only when the apply request carries the same routers.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { parseJsonExact } from '../../../core/api/json';
import { POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { onTestnet, testnetPrincipal } from '../../testnet';
import { worldForUser } from '../check/sim';

/** Not secrets: fixed test keys (the signer, and a deployer for the testnet routers). */
const PUBLIC_KEY = privateKeyToPublic('44'.repeat(32) + '01') as string;
const SENDER = getAddressFromPublicKey(PUBLIC_KEY, 'testnet');
const DEPLOYER = getAddressFromPublicKey(privateKeyToPublic('55'.repeat(32) + '01') as string, 'testnet');
const TESTNET = {
  liquidity_router: `${DEPLOYER}.dlmm-liquidity-router-v-1-1`,
  swap_router: `${DEPLOYER}.dlmm-swap-router-v-1-1`,
  version: 'v-1-1',
  stx_wrapper: `${DEPLOYER}.token-stx-v-1-2`,
};

const PLAN = `version: 1
network: testnet
sender: ${SENDER}
operations:
  - id: simple
    op: add
    mode: simple
    pool: ${testnetPrincipal(POOL_SBTC_USDCX)}
    bins:
      - { active_bin_offset: 0, x_amount: 20000, y_amount: 15000000 }
      - { active_bin_offset: 2, x_amount: 30000, y_amount: 0 }
`;

function captureIO(
  cwd: string,
  env: Record<string, string> = {},
): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    env: { ...env } as Record<string, string | undefined>,
    cwd,
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

type Rec = Record<string, unknown>;

describe('DLMM_ROUTERS (dlmm export / dlmm sim apply)', function () {
  this.timeout(60_000);
  let dir: string;
  let sim: RunningSimulator;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dlmm-routers-'));
    // A testnet plan names testnet contracts: the simulator serves the default world on testnet addresses,
    // and the signer holds the default user's balances (a transaction's fee and transfers are paid from them).
    sim = await startSimulator({
      port: 0,
      world: worldForUser(SENDER, 'testnet routers world', (input) =>
        Object.assign(input, onTestnet({ ...input })),
      ),
    });
    await writeFile(join(dir, 'testnet.dlmm.yaml'), PLAN);
    await writeFile(join(dir, 'routers.json'), JSON.stringify({ testnet: TESTNET }));
    await writeFile(
      join(dir, 'bad.json'),
      JSON.stringify({ testnet: { ...TESTNET, swap_router: 'SP.not-a-router' } }),
    );
  });
  after(async () => {
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exports a testnet plan with the configured contract ids and version', async () => {
    // Against the test's simulator, whose world funds the testnet signer (the embedded --sim world's
    // funded user is the default one: this signer would hold nothing there, and the add would not check).
    const io = captureIO(dir, { DLMM_ROUTERS: 'routers.json', DLMM_NODE_URL: sim.nodeUrl });
    const code = await main(
      ['export', 'testnet.dlmm.yaml', '--api', sim.url, '--format', 'wallet-request'],
      io,
    );
    assert.equal(code, 0, io.stderr);
    const reqs = JSON.parse(io.stdout) as {
      params: { contract: string; functionName: string; functionArgs: string[]; network: string };
    }[];
    assert.ok(reqs.length >= 1);
    for (const r of reqs) {
      assert.equal(r.params.contract, TESTNET.liquidity_router);
      assert.equal(r.params.network, 'testnet');
    }
    // v-1-1: positions, pool, x token, y token, active-bin tolerance; no trailing deadline (v-1-2 has 6).
    assert.equal(reqs[0]!.params.functionName, 'add-relative-liquidity-same-multi');
    assert.equal(reqs[0]!.params.functionArgs.length, 5);
  });

  it('without DLMM_ROUTERS a testnet plan is refused with router-config-missing (exit 1)', async () => {
    const io = captureIO(dir, { DLMM_NODE_URL: sim.nodeUrl });
    const code = await main(
      ['export', 'testnet.dlmm.yaml', '--api', sim.url, '--format', 'wallet-request'],
      io,
    );
    assert.equal(code, 1, io.stderr);
    assert.equal(io.stdout, '');
    assert.match(io.stderr, /router-config-missing/);
    assert.match(io.stderr, /no router contracts are configured for testnet/);
    assert.match(io.stderr, /DLMM_ROUTERS/);
    assert.match(io.stderr, /dlmm\.routers/);
  });

  it('a bad or missing file is a usage error (exit 2) naming the file and the field', async () => {
    const bad = captureIO(dir, { DLMM_ROUTERS: 'bad.json' });
    assert.equal(
      await main(['export', 'testnet.dlmm.yaml', '--api', sim.url, '--format', 'summary'], bad),
      2,
    );
    assert.match(bad.stderr, /DLMM_ROUTERS=bad\.json: invalid router configuration: testnet\.swap_router: /);
    const missing = captureIO(dir, { DLMM_ROUTERS: 'nowhere.json' });
    assert.equal(
      await main(['export', 'testnet.dlmm.yaml', '--api', sim.url, '--format', 'summary'], missing),
      2,
    );
    assert.match(
      missing.stderr,
      /router configuration file \(DLMM_ROUTERS\) nowhere\.json: no such file \(ENOENT\)/,
    );
  });

  it('the dry-run applies the testnet transaction only with the routers in the request', async () => {
    const env = { DLMM_ROUTERS: 'routers.json', DLMM_NODE_URL: sim.nodeUrl };
    const exp = captureIO(dir, env);
    const args = ['export', 'testnet.dlmm.yaml', '--api', sim.url, '--format', 'tx-hex'];
    const signing = ['--public-key', PUBLIC_KEY, '--nonce', '0', '--fee', '1000'];
    assert.equal(await main([...args, ...signing], exp), 0, exp.stderr);
    const hex = exp.stdout.trim().split('\n')[0]!;

    const without = captureIO(dir);
    assert.equal(await main(['sim', 'apply', hex, '--api', sim.url], without), 1, without.stderr);
    const refused = parseJsonExact(without.stdout) as Rec;
    assert.equal(refused.error, 'NOT_A_ROUTER_CALL');
    assert.match(String(refused.detail), /not a configured testnet router/);

    const withRouters = captureIO(dir, { DLMM_ROUTERS: 'routers.json' });
    assert.equal(await main(['sim', 'apply', hex, '--api', sim.url], withRouters), 0, withRouters.stdout);
    const applied = parseJsonExact(withRouters.stdout) as Rec;
    assert.equal(applied.ok, true);
    assert.equal(applied.contract, TESTNET.liquidity_router);
    assert.equal(applied.sender, SENDER);
  });

  it('POST /admin/apply refuses a bad routers object with a 400 naming the field', async () => {
    const res = await fetch(`${sim.url}/admin/apply`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ tx_hex: '00', routers: { testnet: { version: 'v-9' } } }),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /routers: invalid router configuration: testnet\.version/);
  });
});
