/**
 * `--out` files of `dlmm export` (issue 26 items 4-5; docs/guarantees.md "Output files"): never the plan or
 * another input of the run (exit 2, the plan untouched), through a link only because the user named it, and a
 * write that fails leaves the old file and says so. Real simulator over loopback (--sim); the failing write is
 * a real one: the built `dlmm` run with a 1 KiB file-size limit (RLIMIT_FSIZE), so the write stops with EFBIG.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { ROOT, run } from '../check/run';
import { skipBecause } from '../../skip';

const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const PLAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: asks
    op: add
    pool: ${POOL}
    bins:
      - { bin_id: 142, x_amount: 150000, y_amount: 0 }
`;

async function dlmm(cwd: string, args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd };
  const code = await main(args, io);
  return { code, out, err };
}

describe('dlmm export --out: never an input, never half a file', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dlmm-outfile-'));
    writeFileSync(join(dir, 'x.dlmm.yaml'), PLAN);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the reproduction: --out the plan itself is refused (exit 2), the plan unchanged', async () => {
    const r = await dlmm(dir, ['export', 'x.dlmm.yaml', '--sim', '--out', 'x.dlmm.yaml']);
    assert.equal(r.code, 2, r.err);
    assert.match(
      r.err,
      /--out x\.dlmm\.yaml is the plan file of this run .*nothing was written: give --out another file name/,
    );
    assert.equal(readFileSync(join(dir, 'x.dlmm.yaml'), 'utf8'), PLAN);
  });

  it('--out through a link to the plan, or to the DLMM_ROUTERS file, is refused as well', async () => {
    symlinkSync('x.dlmm.yaml', join(dir, 'summary.txt'));
    const r = await dlmm(dir, ['export', 'x.dlmm.yaml', '--sim', '--out', 'summary.txt']);
    assert.equal(r.code, 2);
    assert.match(r.err, /is the plan file of this run/);
    assert.equal(readFileSync(join(dir, 'x.dlmm.yaml'), 'utf8'), PLAN);
    writeFileSync(join(dir, 'routers.json'), '{}');
    const r2 = await dlmm(dir, ['export', 'x.dlmm.yaml', '--sim', '--out', 'routers.json'], {
      DLMM_ROUTERS: 'routers.json',
    });
    assert.equal(r2.code, 2);
    assert.match(r2.err, /--out routers\.json is an input file of this run/);
    assert.equal(readFileSync(join(dir, 'routers.json'), 'utf8'), '{}');
  });

  it('a link the user names is followed: its target gets the export, the link stays', async () => {
    writeFileSync(join(dir, 'target.txt'), 'old');
    symlinkSync('target.txt', join(dir, 'named-link.txt'));
    const r = await dlmm(dir, ['export', 'x.dlmm.yaml', '--sim', '--out', 'named-link.txt']);
    assert.equal(r.code, 0, r.err);
    assert.match(readFileSync(join(dir, 'target.txt'), 'utf8'), /add-liquidity-multi/);
    assert.ok(lstatSync(join(dir, 'named-link.txt')).isSymbolicLink());
  });

  it('a write that fails (file-size limit: EFBIG) keeps the old file and says so, exit 2', async function () {
    if (!existsSync(join(ROOT, 'dist/cli.js'))) skipBecause(this, 'needs the built package (npm run build)');
    writeFileSync(join(dir, 'x.dlmm.yaml'), PLAN);
    const old = 'the previous export, complete\n';
    writeFileSync(join(dir, 'out.json'), old);
    const r = await run(
      '/bin/sh',
      [
        '-c',
        `ulimit -f 2 && exec "${join(ROOT, 'bin/dlmm.js')}" export x.dlmm.yaml --sim --format json --out out.json`,
      ],
      { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, DLMM_CACHE_DIR: 'off' },
      dir,
    );
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /--out file out\.json: the file size limit was reached \(EFBIG\); the old content is unchanged/,
    );
    assert.equal(readFileSync(join(dir, 'out.json'), 'utf8'), old);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });
});
