/** `dlmm wallet` refusals and usage, over the embedded simulator (no browser: nothing gets served). */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { DEFAULT_USER } from '../../../core/sim/defaultWorld';

const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const plan = (bin: number) => `version: 1
sender: ${DEFAULT_USER}
operations:
  - id: asks
    op: add
    pool: ${POOL}
    bins:
      - { bin_id: ${bin}, x_amount: 150000, y_amount: 0 }
`;

function captureIO(cwd: string) {
  const io = {
    stdout: '',
    stderr: '',
    env: {} as Record<string, string | undefined>,
    cwd,
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io satisfies CliIO;
}

describe('dlmm wallet: refusals and usage', function () {
  this.timeout(30_000);
  let dir: string;
  let busy: Server;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dlmm-wallet-cli-'));
    await writeFile(join(dir, 'good.dlmm.yaml'), plan(142));
    // x on a bin below the active bin: the wrong token side, an error finding.
    await writeFile(join(dir, 'bad.dlmm.yaml'), plan(130));
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
  });
  after(async () => {
    await new Promise<void>((r) => busy.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a plan with errors before serving anything (exit 1, no URL)', async () => {
    const io = captureIO(dir);
    assert.equal(await main(['wallet', 'bad.dlmm.yaml', '--sim', '--no-open'], io), 1);
    assert.doesNotMatch(io.stdout, /open http/);
    assert.match(io.stderr, /dlmm wallet: not exported \(plan-has-errors\)/);
  });

  it('says when the chosen port is taken (exit 2)', async () => {
    const io = captureIO(dir);
    const port = (busy.address() as AddressInfo).port;
    const code = await main(['wallet', 'good.dlmm.yaml', '--sim', '--no-open', '--port', String(port)], io);
    assert.equal(code, 2);
    assert.match(io.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)`));
    assert.doesNotMatch(io.stdout, /open http/);
  });

  it('rejects a bad --port, a --format and a missing plan as usage errors (exit 2)', async () => {
    for (const args of [
      ['wallet', 'good.dlmm.yaml', '--sim', '--port', '70000'],
      ['wallet', 'good.dlmm.yaml', '--sim', '--port', 'x'],
      ['wallet', 'good.dlmm.yaml', '--sim', '--format', 'json'],
      ['wallet', '--sim'],
    ]) {
      const io = captureIO(dir);
      assert.equal(await main(args, io), 2, args.join(' '));
      assert.match(io.stderr, /dlmm wallet: /, args.join(' '));
      assert.equal(io.stdout, '', args.join(' '));
    }
  });
});
