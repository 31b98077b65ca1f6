/**
 * The user's path through the built CLI (bin/dlmm.js -> dist/cli.js): `dlmm sim --port 0` in a child process,
 * `dlmm export --format tx-hex` against it, then `dlmm sim apply` of each transaction: exit 0 when applied,
 * 1 when reverted (the strict add after a 1-bin shift), with the simulator's JSON answer on stdout.
 * Every child process is killed / awaited before the suite ends.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Cl,
  getAddressFromPublicKey,
  makeUnsignedContractCall,
  privateKeyToPublic,
} from '@stacks/transactions';
import { parseJsonExact } from '../../../core/api/json';
import { DEFAULT_WORLD_INPUT, POOL_SBTC_USDCX, SBTC, USDCX } from '../../../core/sim/defaultWorld';

const ROOT = join(__dirname, '../../..');
const BIN = join(ROOT, 'bin/dlmm.js');
/**
 * Not a secret: a fixed test key; an add needs no prior position, so any signer with the tokens works: the
 * simulator's world gives it the default user's balances (`--world`).
 */
const PUBLIC_KEY = privateKeyToPublic('33'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the built CLI to completion (bounded by a timeout). */
function dlmm(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 30_000, maxBuffer: 8 << 20 },
      (error, out, err) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, out, err });
      },
    );
  });
}

/** Builds dist/ once; a failure caused by another area's half-written file is retried once. */
async function build(): Promise<void> {
  let last: Run | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    last = await new Promise<Run>((resolve) =>
      execFile(process.execPath, ['esbuild.mjs'], { cwd: ROOT, timeout: 120_000 }, (e, out, err) =>
        resolve({ code: e ? 1 : 0, out, err }),
      ),
    );
    if (last.code === 0) return;
  }
  throw new Error(`node esbuild.mjs failed twice:\n${last?.err ?? ''}`);
}

/** Resolves with the first stdout line of the child (the listening line). */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`dlmm sim exited (${code}) before listening`)));
  });
}

function planText(active: number): string {
  return `version: 1
sender: ${USER}
operations:
  - id: strict
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: ${active}, x_amount: 20000, y_amount: 15000000 }
  - id: simple
    op: add
    mode: simple
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { active_bin_offset: 0, x_amount: 20000, y_amount: 15000000 }
`;
}

type Rec = Record<string, unknown>;

describe('dlmm sim apply (built CLI, child processes)', function () {
  this.timeout(180_000);
  let sim: ChildProcess | undefined;
  let simExit: Promise<unknown[]> | undefined;
  let api = '';
  let dir = '';
  let env: Record<string, string> = {};

  before(async function () {
    await build();
    dir = await mkdtemp(join(tmpdir(), 'dlmm-sim-apply-'));
    const worldFile = join(dir, 'world.json');
    const input = structuredClone(DEFAULT_WORLD_INPUT);
    input.users = [...(input.users ?? []), { ...input.users![0]!, address: USER, positions: [] }];
    await writeFile(worldFile, JSON.stringify(input));
    sim = spawn(process.execPath, [BIN, 'sim', '--host', '127.0.0.1', '--port', '0', '--world', worldFile], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    simExit = once(sim, 'exit');
    const line = await firstLine(sim);
    const m = /^dlmm sim listening on (http:\/\/127\.0\.0\.1:(\d+)\/api)$/.exec(line);
    assert.ok(m, `unexpected listening line: ${line}`);
    assert.notEqual(m[2], '0', '--port 0 prints the port actually bound');
    api = m[1]!;
    // The node proxy sits beside /api on the same origin (bin shares for min-dlp).
    env = { DLMM_NODE_URL: api.replace(/\/api$/, '/node') };
  });

  after(async () => {
    if (sim && sim.exitCode === null && sim.signalCode === null) sim.kill('SIGTERM');
    if (simExit) {
      const [code] = (await simExit) as [number | null];
      assert.equal(code, 0, 'dlmm sim stops cleanly on SIGTERM');
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function activeBin(): Promise<number> {
    const res = await fetch(`${api}/quotes/v2/bins/${POOL_SBTC_USDCX}`, {
      signal: AbortSignal.timeout(10_000),
    });
    return Number((parseJsonExact(await res.text()) as Rec).active_bin_id);
  }

  /** `dlmm export --format tx-hex --out F` of one operation; returns the file and its single line. */
  async function exportOp(plan: string, op: string, nonce: number): Promise<{ file: string; hex: string }> {
    const file = join(dir, `${op}-${nonce}.txt`);
    const r = await dlmm(
      [
        'export',
        plan,
        '--op',
        op,
        '--api',
        api,
        '--format',
        'tx-hex',
        '--public-key',
        PUBLIC_KEY,
        '--nonce',
        String(nonce),
        '--fee',
        '1000',
        '--out',
        file,
      ],
      env,
    );
    assert.equal(r.code, 0, r.err);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^[0-9a-f]+$/);
    return { file, hex: lines[0]! };
  }

  it('applies an exported strict add (exit 0) and prints the answer as JSON', async () => {
    const active = await activeBin();
    const plan = join(dir, 'first.dlmm.yaml');
    await writeFile(plan, planText(active));
    const { hex } = await exportOp(plan, 'strict', 0);
    const r = await dlmm(['sim', 'apply', hex, '--api', api]);
    assert.equal(r.code, 0, r.err + r.out);
    const answer = parseJsonExact(r.out) as Rec;
    assert.equal(answer.ok, true);
    assert.equal(answer.functionName, 'add-liquidity-multi');
    assert.equal(answer.sender, USER);
    assert.ok(Array.isArray(answer.movements) && answer.movements.length >= 2, r.out);
  });

  it('after a 1-bin shift: the strict add reverts (exit 1, error name), the simple add applies (exit 0)', async () => {
    const active = await activeBin();
    const plan = join(dir, 'second.dlmm.yaml');
    await writeFile(plan, planText(active));
    const strict = await exportOp(plan, 'strict', 1);
    const simple = await exportOp(plan, 'simple', 2);

    const shift = await fetch(`${api}/admin/pools/${POOL_SBTC_USDCX}/shift`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ bins: 1 }),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(shift.status, 200);
    assert.equal(await activeBin(), active + 1);

    const reverted = await dlmm(['sim', 'apply', strict.hex, '--api', api]);
    assert.equal(reverted.code, 1, reverted.err + reverted.out);
    const r1 = parseJsonExact(reverted.out) as Rec;
    assert.equal(r1.ok, false);
    assert.equal(r1.error, 'ERR_INVALID_X_AMOUNT');
    assert.equal(await activeBin(), active + 1);

    // --file reads the first transaction of a tx-hex file, as `dlmm export --out` writes it.
    const applied = await dlmm(['sim', 'apply', '--file', simple.file, '--api', api]);
    assert.equal(applied.code, 0, applied.err + applied.out);
    const r2 = parseJsonExact(applied.out) as Rec;
    assert.equal(r2.ok, true);
    assert.equal(r2.functionName, 'add-relative-liquidity-same-multi');
  });

  it("a swap signed by a key that holds nothing reverts with the token's (err u1) and is mined; with a fee it is not accepted", async () => {
    // Built directly: `dlmm export` refuses a plan whose sender cannot pay (insufficient-balance).
    const key = privateKeyToPublic('44'.repeat(32) + '01') as string;
    const swap = (fee: bigint, nonce: number) =>
      makeUnsignedContractCall({
        contractAddress: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD',
        contractName: 'dlmm-swap-router-v-1-2',
        functionName: 'swap-x-for-y-simple-multi',
        functionArgs: [
          Cl.contractPrincipal(...(POOL_SBTC_USDCX.split('.') as [string, string])),
          Cl.contractPrincipal(...(SBTC.split('.') as [string, string])),
          Cl.contractPrincipal(...(USDCX.split('.') as [string, string])),
          Cl.uint(10_000),
          Cl.uint(1),
          Cl.none(),
        ],
        publicKey: key,
        nonce,
        fee,
        network: 'mainnet',
        postConditionMode: 'allow',
      }).then((tx) => tx.serialize());
    const before = await activeBin();

    const reverted = await dlmm(['sim', 'apply', await swap(0n, 0), '--api', api]);
    assert.equal(reverted.code, 1, reverted.err + reverted.out);
    const r = parseJsonExact(reverted.out) as Rec;
    assert.equal(r.ok, false);
    // The simple swap folds over 350 steps: the router reports ERR_NO_RESULT_DATA over the token's u1.
    assert.equal(r.error, 'ERR_NO_RESULT_DATA');
    assert.equal(r.cause, 'ERR_INSUFFICIENT_BALANCE');
    assert.equal(r.cause_code, 1);
    assert.match(String(r.detail), /holds 0 of .*sbtc-token and the transfer needs 10000/);
    assert.equal(await activeBin(), before);
    // A reverted call is mined: it used nonce 0 (and paid its fee of 0).
    assert.equal(r.mined, true);

    const refused = await dlmm(['sim', 'apply', await swap(1000n, 1), '--api', api]);
    assert.equal(refused.code, 1, refused.err + refused.out);
    const f = parseJsonExact(refused.out) as Rec;
    assert.equal(f.error, 'NOT_ENOUGH_FUNDS');
    assert.equal(f.mined, false);
    assert.match(String(f.detail), /holds 0 micro-STX and the transaction's fee is 1000/);
  });

  it('a transaction that is not a transaction is a usage error (exit 2, never 1 "reverted"), with a reason', async () => {
    const r = await dlmm(['sim', 'apply', '00deadbeef', '--api', api]);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(
      r.err,
      /'00deadbeef' is not a serialized Stacks transaction \(.+\); pass what `dlmm export --format tx-hex` prints/,
    );
  });
});
