/**
 * A second client: the language server under Debian's Neovim (0.7, its built-in LSP client), headless, set
 * up as docs/editors.md says (`vim.lsp.start_client`, settings in `settings.dlmm`). On the examples against
 * the simulated engine its diagnostics equal `dlmm check --format json`'s; hover, completion and a quick fix
 * answer; with no service every plan shows the `live-unchecked` notice beside `dlmm check --offline`'s
 * findings. Neovim runs nvim-init.lua, which polls for the results with a timeout (vim.wait) and writes them
 * as JSON. Under CI (CI=true) it must run; elsewhere it is skipped, saying why, only when nvim is absent.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { skipBecause } from '../../skip';

const ROOT = join(__dirname, '../../..');
const INIT = join(__dirname, 'nvim-init.lua');
const EXAMPLES = [
  'examples/add-ladder.dlmm.yaml',
  'examples/simple-rebalance.dlmm.yaml',
  'examples/swap.dlmm.json',
  'examples/mistakes/unknown-pool-token.dlmm.yaml',
  'examples/mistakes/user-liquidity.dlmm.yaml',
  'examples/mistakes/wrong-side.dlmm.yaml',
];
const SEVERITY = ['', 'error', 'warning', 'info'] as const;

interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface LspDiagnostic {
  code: string;
  severity: 1 | 2 | 3;
  message: string;
  range: Range;
}
interface CheckDiagnostic {
  code: string;
  severity: string;
  message: string;
  range: Range;
}
interface NvimResult {
  errors: string[];
  nvim: { major: number; minor: number };
  files: Record<string, { uri: string; diagnostics: LspDiagnostic[] | null; shown: number }>;
  probes: Array<{ method: string; file: string; answer: { result?: unknown; error?: string } }>;
}

/** Where `needle` first occurs in a file, as an LSP position. */
function positionIn(file: string, needle: string): { line: number; character: number } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`'${needle}' not in ${file}`);
  const before = text.slice(0, at);
  return { line: before.split('\n').length - 1, character: at - (before.lastIndexOf('\n') + 1) };
}

/** Runs Neovim headless with nvim-init.lua and returns what it wrote. */
async function runNeovim(opts: {
  settings: Record<string, unknown>;
  env: Record<string, string>;
  expect: 'live' | 'first';
  probes: Array<{ method: string; file: string; position: { line: number; character: number } }>;
}): Promise<NvimResult> {
  const dir = mkdtempSync(join(tmpdir(), 'dlmm-nvim-'));
  const out = join(dir, 'result.json');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = execFile(
        'nvim',
        ['--headless', '--clean', '-n', '-i', 'NONE', '-u', INIT],
        {
          cwd: ROOT,
          timeout: 60_000,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: dir,
            XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(dir, 'cache'),
            XDG_CONFIG_HOME: join(dir, 'config'),
            XDG_DATA_HOME: join(dir, 'data'),
            XDG_STATE_HOME: join(dir, 'state'),
            DLMM_NVIM_OUT: out,
            DLMM_NVIM_CMD: JSON.stringify([process.execPath, join(ROOT, 'bin', 'dlmm.js'), 'lsp', '--stdio']),
            DLMM_NVIM_FILES: JSON.stringify(EXAMPLES),
            DLMM_NVIM_SETTINGS: JSON.stringify(opts.settings),
            DLMM_NVIM_PROBES: JSON.stringify(opts.probes),
            DLMM_NVIM_EXPECT: opts.expect,
            DLMM_NVIM_TIMEOUT_MS: '20000',
            ...opts.env,
          },
        },
        (error, _stdout, stderr) => {
          if (error && !existsSync(out)) reject(new Error(`nvim failed: ${error.message}\n${stderr}`));
          else resolve();
        },
      );
      child.stdin?.end();
    });
    return JSON.parse(readFileSync(out, 'utf8')) as NvimResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `dlmm check --format json` on the examples, in-process. */
async function check(
  args: string[],
  env: Record<string, string> = {},
): Promise<Map<string, CheckDiagnostic[]>> {
  let out = '';
  const io: CliIO = { out: (t) => void (out += t), err: () => undefined, env, cwd: ROOT };
  await main(['check', '--format', 'json', ...args, ...EXAMPLES], io);
  const doc = JSON.parse(out) as { files: Array<{ path: string; diagnostics: CheckDiagnostic[] }> };
  return new Map(doc.files.map((f) => [f.path, f.diagnostics]));
}

/** A diagnostic as both faces give it, for comparison. */
function comparable(d: LspDiagnostic | CheckDiagnostic): string {
  const severity = typeof d.severity === 'number' ? SEVERITY[d.severity] : d.severity;
  const { start, end } = d.range;
  return JSON.stringify([start.line, start.character, end.line, end.character, d.code, severity, d.message]);
}

describe('a second client: Neovim (built-in LSP client), headless', function () {
  this.timeout(120_000);
  let sim: RunningSimulator | undefined;

  before(function () {
    const found = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
    if (found.error || found.status !== 0) {
      const why =
        "nvim is not installed (Debian's package: apt-get install neovim; scripts/install-e2e-deps.sh installs it)";
      if (process.env.CI === 'true') throw new Error(`${why}: under CI this test must run`);
      skipBecause(this, why);
    }
    if (!existsSync(join(ROOT, 'dist', 'cli.js')))
      throw new Error('dist/cli.js is missing: run `node esbuild.mjs` first');
  });
  after(async () => sim?.close());

  it('on the examples the diagnostics equal dlmm check; hover, completion and a quick fix answer', async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    const probes = [
      { method: 'textDocument/hover', file: EXAMPLES[0]!, position: positionIn(EXAMPLES[0]!, '145') },
      {
        method: 'textDocument/completion',
        file: EXAMPLES[0]!,
        position: positionIn(EXAMPLES[0]!, 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool'),
      },
      { method: 'textDocument/codeAction', file: EXAMPLES[5]!, position: positionIn(EXAMPLES[5]!, '135') },
    ];
    const [nvim, expected] = await Promise.all([
      runNeovim({
        settings: {
          dlmm: {
            environment: 'custom',
            apiUrl: sim.url,
            inventoryUrl: sim.inventoryUrl,
            nodeUrl: sim.nodeUrl,
          },
        },
        env: {},
        expect: 'live',
        probes,
      }),
      check(['--api', sim.url], { DLMM_INVENTORY_URL: sim.inventoryUrl, DLMM_NODE_URL: sim.nodeUrl }),
    ]);
    assert.deepEqual(nvim.errors, []);
    assert.equal(nvim.nvim.major, 0);
    for (const file of EXAMPLES) {
      const got = nvim.files[file];
      assert.ok(got?.diagnostics, `${file}: no diagnostics in Neovim`);
      const want = expected.get(file);
      assert.ok(want, `${file}: not in dlmm check's report`);
      assert.deepEqual(got.diagnostics.map(comparable).sort(), want.map(comparable).sort(), file);
      assert.equal(got.shown, want.length, `${file}: what Neovim shows`);
      assert.ok(!want.some((d) => d.code === 'live-unchecked'), `${file}: checked live`);
    }
    assert.ok(
      expected.get(EXAMPLES[5]!)?.some((d) => d.code === 'wrong-token-side'),
      'the wrong-side example shows its live finding',
    );

    const [hover, completion, actions] = nvim.probes.map((p) => p.answer);
    const hoverText = JSON.stringify(hover?.result ?? null);
    assert.match(hoverText, /145/, `hover: ${hoverText.slice(0, 300)}`);
    const items = completion?.result as { items?: unknown[] } | unknown[] | null | undefined;
    const list = Array.isArray(items) ? items : (items?.items ?? []);
    assert.ok(list.length > 0, `completion: ${JSON.stringify(completion).slice(0, 300)}`);
    const fixes = (actions?.result ?? []) as Array<{ kind?: string; diagnostics?: Array<{ code?: string }> }>;
    assert.ok(
      fixes.some((a) => a.kind === 'quickfix' && a.diagnostics?.[0]?.code === 'wrong-token-side'),
      `code actions: ${JSON.stringify(actions).slice(0, 400)}`,
    );
  });

  it('with no service every plan shows the live-unchecked notice beside the offline findings', async () => {
    const [nvim, expected] = await Promise.all([
      runNeovim({ settings: {}, env: {}, expect: 'first', probes: [] }),
      check(['--offline']),
    ]);
    assert.deepEqual(nvim.errors, []);
    // The same findings as `dlmm check --offline`, whose notice gives its own reason (offline by choice).
    const withoutNotice = (d: Array<LspDiagnostic | CheckDiagnostic>) =>
      d
        .filter((x) => x.code !== 'live-unchecked')
        .map(comparable)
        .sort();
    for (const file of EXAMPLES) {
      const got = nvim.files[file]?.diagnostics;
      assert.ok(got, `${file}: no diagnostics in Neovim`);
      const notices = got.filter((d) => d.code === 'live-unchecked');
      assert.equal(notices.length, 1, `${file}: one notice`);
      assert.equal(notices[0]!.severity, 2, 'a warning');
      assert.match(notices[0]!.message, /the live rules did not run: no service configured/);
      assert.deepEqual(withoutNotice(got), withoutNotice(expected.get(file) ?? []), file);
    }
  });
});
