/**
 * The language server over real JSON-RPC (stdio), against the simulated engine on loopback: diagnostics
 * (offline at once, live after), hover, completion, code actions, lenses, symbols, inlay hints, and
 * revalidation when the engine's state moves (admin shift).
 */
import assert from 'node:assert/strict';
import type {
  CodeAction,
  CompletionItem,
  Diagnostic,
  Hover,
  MarkupContent,
} from 'vscode-languageserver-protocol';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { DEFAULT_SIM_API_KEY, POOL_SBTC_USDCX, SBTC, USDCX } from '../../../core/sim/defaultWorld';
import { createApiClient } from '../../../core/api/client';
import { analyzePlan } from '../../../core/check/analyze';
import { buildTransactions } from '../../../core/tx/build';
import { positionOf, startLsp, startSimLsp, type LspSession, type SimLsp } from './harness';

const PLAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: asks
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: 641, x_amount: 150000, y_amount: 0 }
      - { bin_id: 137, x_amount: 1000, y_amount: 0 }
      - { bin_id: 145, x_amount: 2000, y_amount: 0 }
  - id: sell
    op: swap
    input_token: ${SBTC}
    output_token: ${USDCX}
    amount_in: 100000
`;

const codes = (d: Diagnostic[]) => d.map((x) => String(x.code));
const md = (h: Hover | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

async function admin(sim: RunningSimulator, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${sim.url}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, `admin ${path} answered ${res.status}`);
  return res.json();
}

describe('language server over stdio (simulated engine)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let lsp: LspSession;
  const uri = 'file:///work/plans/asks.dlmm.yaml';

  let fixture: SimLsp | undefined;

  before(async () => {
    fixture = await startSimLsp(uri, PLAN, {
      commands: ['dlmm.getQuote'],
      statusPollMs: 200,
      analysisEvents: true,
    });
    ({ sim, lsp } = fixture);
  });

  after(async () => {
    await fixture?.close();
  });

  it('publishes offline findings, then live ones, with code, source and range', async () => {
    const live = await lsp.diagnostics(uri, (d) => codes(d).includes('wrong-token-side'));
    const unsigned = live.find((d) => d.code === 'unsigned-bin-id');
    assert.ok(unsigned, `expected unsigned-bin-id in ${codes(live)}`);
    assert.equal(unsigned.source, 'dlmm');
    assert.deepEqual(unsigned.range.start, positionOf(PLAN, '641'));
    assert.match(unsigned.message, /141/);
    const side = live.find((d) => d.code === 'wrong-token-side');
    assert.ok(side);
    assert.equal(side.range.start.line, positionOf(PLAN, '137').line);
  });

  it('offers the core quick fix for an unsigned bin id', async () => {
    const diags = await lsp.diagnostics(uri, (d) => codes(d).includes('unsigned-bin-id'));
    const d = diags.find((x) => x.code === 'unsigned-bin-id') as Diagnostic;
    const actions = (await lsp.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] },
    })) as CodeAction[];
    assert.ok(actions.length > 0, 'no code action');
    const edits = actions[0]?.edit?.changes?.[uri] ?? [];
    assert.ok(
      edits.some((e) => e.newText === '141'),
      `edits: ${JSON.stringify(edits)}`,
    );
  });

  it('says the same about a bin twice: known shares are never "unknown" below (one source of truth)', async () => {
    // Bin 137 is below the active bin and the item adds X only: its add reverts, its shares are known.
    const text = md(
      (await lsp.conn.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: positionOf(PLAN, '137', 1),
      })) as Hover,
    );
    const shares = /bin shares: (\d+)/.exec(text);
    assert.ok(shares, `the bin's shares are shown: ${text}`);
    assert.doesNotMatch(text, /bin shares unknown/);
    assert.match(text, /would revert/);
    assert.match(text, /expected minted shares: none: the add reverts/);
  });

  it('hovers a bin with ids, human price, reserves, distance and shares', async () => {
    const h = (await lsp.conn.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(PLAN, '145', 1),
    })) as Hover;
    const text = md(h);
    assert.match(text, /unsigned id 645/);
    assert.match(text, /6 bins above the active bin \(139\)/);
    assert.match(text, /USDCx per sBTC/);
    assert.match(text, /reserves: .*sBTC/);
    assert.match(text, /expected minted shares/);
    assert.match(text, /min-dlp at 1% slippage/);
  });

  it('hovers the pool and the swap', async () => {
    const pool = md(
      (await lsp.conn.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: positionOf(PLAN, 'dlmm-pool', 2),
      })) as Hover,
    );
    assert.match(pool, /bin step: 10/);
    assert.match(pool, /sBTC/);
    assert.match(pool, /quotable: true/);
    const swap = md(
      (await lsp.conn.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: positionOf(PLAN, 'amount_in', 2),
      })) as Hover,
    );
    assert.match(swap, /quote: 0\.001 sBTC → [\d.]+ USDCx/);
    assert.match(swap, /min received at 1%/);
  });

  it('completes pools, tokens, bin ids with prices and field names', async () => {
    const doc = 'file:///work/plans/new.dlmm.yaml';
    const text = `version: 1\noperations:\n  - op: add\n    mode: strict\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n      - { bin_id: , x_amount: 0, y_amount: 1 }\n  - op: swap\n    input_token: \n    \n`;
    lsp.open(doc, text);
    const complete = async (needle: string, delta: number, n = 0) =>
      (await lsp.conn.sendRequest('textDocument/completion', {
        textDocument: { uri: doc },
        position: positionOf(text, needle, delta, n),
      })) as CompletionItem[];
    const bins = await complete('bin_id: ', 8);
    const active = bins.find((i) => i.label === '139');
    assert.ok(active, `bin items: ${bins.slice(0, 5).map((i) => i.label)}`);
    assert.match(active.detail ?? '', /active bin · 76060\.388561 USDCx\/sBTC/);
    const tokens = await complete('input_token: ', 13);
    assert.ok(tokens.some((i) => i.label === SBTC && /sBTC/.test(i.detail ?? '')));
    const pools = await complete('pool: ', 6);
    assert.ok(
      pools.some((i) => i.label === POOL_SBTC_USDCX && /dlmm_1/.test(i.detail ?? '')),
      `pools: ${pools.map((i) => i.label)}`,
    );
    const keys = await complete('input_token: \n    ', 18);
    const labels = keys.map((i) => i.label);
    assert.ok(labels.includes('output_token') && labels.includes('amount_in'), `keys: ${labels}`);
    assert.ok(!labels.includes('input_token'), 'present keys are not offered again');
  });

  it("completes the user's bins in move and withdraw, and hovers a move with its computed amounts", async () => {
    const doc = 'file:///work/plans/move.dlmm.yaml';
    const text = `version: 1\nsender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR\noperations:\n  - op: move\n    pool: ${POOL_SBTC_USDCX}\n    moves:\n      - { from_bin_id: 136, to_bin_id: 130, amount: 1000 }\n  - op: withdraw\n    pool: ${POOL_SBTC_USDCX}\n    bins: [136, ]\n`;
    lsp.open(doc, text);
    // The live result (completion needs the user's bins): published after the offline one, or alone when it
    // was ready in the same turn, so the count of publishes is not what to wait for.
    await lsp.live(doc, 1, 10_000);
    const items = (await lsp.conn.sendRequest('textDocument/completion', {
      textDocument: { uri: doc },
      position: positionOf(text, '136, ', 5, 1),
    })) as CompletionItem[];
    const labels = items.map((i) => i.label);
    for (const id of ['136', '137', '138', '139', '140', '141'])
      assert.ok(labels.includes(id), `user bins: ${labels}`);
    assert.match(items[0]?.detail ?? '', /your liquidity: \d+ shares/);
    const h = md(
      (await lsp.conn.sendRequest('textDocument/hover', {
        textDocument: { uri: doc },
        position: positionOf(text, 'amount: 1000', 3),
      })) as Hover,
    );
    assert.match(h, /\*\*Move\*\* 1000 shares from bin 136 to bin 130/);
    assert.match(h, /computed: .*sBTC.*USDCx/);
  });

  it('hovers simple-mode positions with the min-dlp and fee caps the export writes, and their basis', async () => {
    const doc = 'file:///work/plans/simple.dlmm.yaml';
    const text = `version: 1\nsender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR\noperations:\n  - id: near\n    op: add\n    mode: simple\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n      - { active_bin_offset: 0, x_amount: 20000, y_amount: 15000000 }\n      - { active_bin_offset: 2, x_amount: 30000, y_amount: 0 }\n  - id: up\n    op: move\n    mode: simple\n    pool: ${POOL_SBTC_USDCX}\n    moves:\n      - { from_bin_id: 140, active_bin_offset: 4, amount: 1000000 }\n`;
    lsp.open(doc, text);
    await lsp.live(doc, 1, 10_000);
    const hoverAt = async (needle: string, at: number) =>
      md(
        (await lsp.conn.sendRequest('textDocument/hover', {
          textDocument: { uri: doc },
          position: positionOf(text, needle, at),
        })) as Hover,
      );
    // The export's figures for the same plan on the same state (core, over HTTP).
    const api = createApiClient({
      baseUrl: sim.url,
      nodeUrl: sim.nodeUrl,
      inventoryUrl: sim.inventoryUrl,
      apiKey: DEFAULT_SIM_API_KEY,
    });
    try {
      const built = await buildTransactions(await analyzePlan(text, { api }), { api });
      assert.ok(built.ok, built.ok ? '' : built.error.message);
      const bounds = built.transactions.flatMap((t) => t.rows.map((r) => r.bounds[0]!));
      const atActive = await hoverAt('x_amount: 20000', 3);
      assert.match(
        atActive,
        new RegExp(
          `min-dlp at 1% slippage: ${bounds[0]!.amount} — fewest \\d+ shares over active bins 138\\.\\.140`,
        ),
      );
      assert.match(atActive, /max liquidity fee: .* — largest liquidity fee/);
      const above = await hoverAt('x_amount: 30000', 3);
      assert.match(above, new RegExp(`min-dlp at 1% slippage: ${bounds[1]!.amount} — `));
      assert.match(above, /no liquidity fee is accepted/);
      const move = await hoverAt('amount: 1000000', 3);
      assert.match(
        move,
        new RegExp(`min-dlp at 1% slippage: ${bounds[2]!.amount} — .*a relative move takes no tolerance`),
      );
      assert.ok(
        bounds.every((b) => b.amount > 1n),
        `real bounds: ${bounds.map((b) => b.amount)}`,
      );
    } finally {
      await api.close?.();
    }
  });

  it('gives lenses only for registered commands, symbols and inlay hints', async () => {
    const lenses = (await lsp.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as {
      command?: { command: string };
    }[];
    assert.deepEqual(
      lenses.map((l) => l.command?.command),
      ['dlmm.getQuote'],
    );
    const symbols = (await lsp.conn.sendRequest('textDocument/documentSymbol', {
      textDocument: { uri },
    })) as { name: string }[];
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['add asks', 'swap sell'],
    );
    const hints = (await lsp.conn.sendRequest('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } },
    })) as { label: string }[];
    const labels = hints.map((h) => h.label.trim());
    assert.ok(labels.includes('u645'), `hints: ${labels}`);
    assert.ok(labels.includes('= signed 141?'));
    assert.ok(labels.includes('≈ 0.0015 sBTC'));
  });

  it('revalidates when the engine state moves (active bin shift)', async () => {
    await lsp.diagnostics(uri, (d) => codes(d).includes('wrong-token-side'));
    const version = lsp.latest(uri)?.version ?? 1;
    const lastRun = Math.max(0, ...lsp.runs(uri, version));
    // 139 -> 136: bin 137 is now above the active bin, where x-only is right.
    await admin(sim, `/pools/${POOL_SBTC_USDCX}/shift`, { bins: -3 });
    await lsp.diagnostics(
      uri,
      (d) => !codes(d).includes('wrong-token-side') && codes(d).includes('unsigned-bin-id'),
    );
    // The revalidation's offline publish has no live rule at all: wait for its live analysis, made on the
    // new state, and read what that one published.
    await liveRunAfter(lsp, uri, version, lastRun);
    const after = codes(lsp.latest(uri)?.diagnostics ?? []);
    assert.ok(!after.includes('wrong-token-side'), `live after the shift: ${after.join(', ')}`);
    assert.ok(after.includes('unsigned-bin-id'));
  });

  it('reports tip lag from the engine without any edit', async () => {
    await admin(sim, '/state', { tip_lag: 7, bump_height: 1 });
    const d = await lsp.diagnostics(uri, (x) => codes(x).includes('tip-lag'));
    assert.match(d.find((x) => x.code === 'tip-lag')?.message ?? '', /7/);
    await admin(sim, '/state', { tip_lag: 0, bump_height: 1 });
    await lsp.diagnostics(uri, (x) => !codes(x).includes('tip-lag'));
  });
});

describe('language server settings from the client', function () {
  this.timeout(30_000);
  it('uses workspace/configuration when the client answers it, offline when it has no URL', async () => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    let settings: unknown = { environment: 'custom' };
    const lsp = await startLsp({
      env: {},
      configuration: (section) => (section === 'dlmm' ? settings : null),
      initializationOptions: { debounceMs: 10 },
    });
    try {
      const uri = 'file:///work/x.dlmm.yaml';
      lsp.open(uri, PLAN);
      // Offline only: the unsigned id is found, no live rule runs.
      const off = await lsp.diagnostics(uri, (d) => codes(d).includes('unsigned-bin-id'));
      assert.ok(!codes(off).includes('wrong-token-side'));
      settings = { environment: 'custom', apiUrl: sim.url };
      void lsp.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
      await lsp.diagnostics(uri, (d) => codes(d).includes('wrong-token-side'));
    } finally {
      await lsp.close();
      await sim.close();
    }
  });
});

/** Resolves once a live analysis of `version` from a run after `lastRun` was published (10 s at most). */
async function liveRunAfter(lsp: LspSession, uri: string, version: number, lastRun: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lives = lsp.analyses(uri, version);
    const runs = lsp.runs(uri, version);
    if (runs.some((run, i) => run > lastRun && lives[i] === true)) return;
    if (Date.now() > deadline)
      throw new Error(`no live analysis after run ${lastRun}: runs ${runs.join(',')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
