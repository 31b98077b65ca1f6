/** `dlmm export` over real HTTP against the embedded simulator (--sim). */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';

const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const GOOD = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: asks
    op: add
    pool: ${POOL}
    bins:
      - { bin_id: 142, x_amount: 150000, y_amount: 0 }
  - id: out
    op: withdraw
    pool: ${POOL}
    withdrawal_percentage: 50
    bins: [136, 137]
`;
const BAD = GOOD.replace(
  'bin_id: 142, x_amount: 150000, y_amount: 0',
  'bin_id: 130, x_amount: 150000, y_amount: 0',
);

function captureIO(cwd: string): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    env: {} as Record<string, string | undefined>,
    cwd,
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

describe('dlmm export (embedded simulator over HTTP)', function () {
  this.timeout(30_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dlmm-export-'));
    await writeFile(join(dir, 'good.dlmm.yaml'), GOOD);
    await writeFile(join(dir, 'bad.dlmm.yaml'), BAD);
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('prints one stx_callContract request per transaction', async () => {
    const io = captureIO(dir);
    const code = await main(['export', 'good.dlmm.yaml', '--sim', '--format', 'wallet-request'], io);
    assert.equal(code, 0, io.stderr);
    const reqs = JSON.parse(io.stdout) as {
      method: string;
      params: { functionName: string; postConditionMode: string; postConditions: string[] };
    }[];
    assert.deepEqual(
      reqs.map((r) => [r.method, r.params.functionName, r.params.postConditionMode]),
      [
        ['stx_callContract', 'add-liquidity-multi', 'deny'],
        ['stx_callContract', 'withdraw-liquidity-multi', 'deny'],
      ],
    );
    assert.equal(reqs[1]!.params.postConditions.length, 4);
  });

  it('exports one operation as a summary with bounds and post-conditions in words', async () => {
    const io = captureIO(dir);
    const code = await main(['export', 'good.dlmm.yaml', '--sim', '--op', 'out', '--format', 'summary'], io);
    assert.equal(code, 0, io.stderr);
    assert.match(io.stdout, /withdraw-liquidity-multi/);
    assert.match(io.stdout, /sends exactly \d+ pool shares/);
    assert.doesNotMatch(io.stdout, /add-liquidity-multi/);
  });

  it('the summary says what each transaction does executed on the state read (shares minted, tokens received)', async () => {
    const io = captureIO(dir);
    const code = await main(['export', 'good.dlmm.yaml', '--sim', '--format', 'summary'], io);
    assert.equal(code, 0, io.stderr);
    const [add, withdraw] = io.stdout.split(/\n#\d /).slice(1) as [string, string];
    // The add: the executed element minted what the bound expected (nothing moved in between).
    const expected = /expected shares (\d+)/.exec(add)?.[1];
    assert.ok(expected, add);
    assert.match(add, /executed on the state read \(what it does if nothing changes before it is mined\):/);
    assert.match(
      add,
      new RegExp(`bin 142: deposits x 0\\.0015 sBTC \\(150000\\), shares minted ${expected}\\n`),
    );
    assert.match(add, /you send: 0\.0015 sBTC \(150000\); you receive: nothing/);
    // The withdraw: tokens received per bin and in total, equal to the expected amounts of the rows.
    const expY = [...withdraw.matchAll(/^ {4}bin \d+: .*expected y [\d.]+ USDCx \((\d+)\)$/gm)].map((m) =>
      BigInt(m[1]!),
    );
    assert.equal(expY.length, 2, withdraw);
    assert.match(
      withdraw,
      new RegExp(
        `bin 136: shares burned \\d+, receives x 0 sBTC \\(0\\), receives y [\\d.]+ USDCx \\(${expY[0]}\\)`,
      ),
    );
    assert.match(
      withdraw,
      new RegExp(`you send: nothing; you receive: [\\d.]+ USDCx \\(${expY[0]! + expY[1]!}\\)`),
    );
  });

  it('refuses a plan with errors and lists the findings (exit 1)', async () => {
    const io = captureIO(dir);
    const code = await main(['export', 'bad.dlmm.yaml', '--sim', '--format', 'wallet-request'], io);
    assert.equal(code, 1);
    assert.equal(io.stdout, '');
    assert.match(io.stderr, /plan-has-errors/);
    assert.match(io.stderr, /wrong-token-side/);
  });

  it('an --out that cannot be written: exit 2 with a message, never a stack trace', async () => {
    const io = captureIO(dir);
    // The folder itself as the output file (EISDIR).
    const code = await main(
      ['export', 'good.dlmm.yaml', '--sim', '--format', 'wallet-request', '--out', '.'],
      io,
    );
    assert.equal(code, 2);
    assert.equal(io.stdout, '');
    assert.match(io.stderr, /--out file \.: is a folder, not a file \(EISDIR\); nothing was written/);
    assert.doesNotMatch(io.stderr, /internal error|\n\s+at /);
  });

  it('a service that is down: exit 2 (live data unavailable), nothing exported', async () => {
    const io = captureIO(dir);
    const code = await main(
      ['export', 'good.dlmm.yaml', '--api', 'http://127.0.0.1:1/api', '--format', 'wallet-request'],
      io,
    );
    assert.equal(code, 2);
    assert.equal(io.stdout, '');
    assert.match(io.stderr, /api-unreachable/);
    assert.match(io.stderr, /not exported: live data was unavailable/);
  });

  it('tx-hex without --public-key/--nonce/--fee is a usage error (exit 2)', async () => {
    const io = captureIO(dir);
    const code = await main(['export', 'good.dlmm.yaml', '--sim', '--format', 'tx-hex'], io);
    assert.equal(code, 2);
    assert.match(io.stderr, /--public-key/);
  });
});
