/**
 * Distributions in the editor, over real JSON-RPC against the simulated engine: hover on `distribution`
 * shows the expanded table, the "Expand into bins" refactor writes the same items as explicit bins (and the
 * rewritten plan prepares the same items), completion knows the new fields.
 */
import assert from 'node:assert/strict';
import type {
  CodeAction,
  CompletionItem,
  Hover,
  MarkupContent,
  TextEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createApiClient } from '../../../core/api/client';
import { analyzePlan } from '../../../core/check/analyze';
import { DEFAULT_SIM_API_KEY, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { positionOf, startLsp, type LspSession } from './harness';

const PLAN = `version: 1
operations:
  - id: curve
    op: add
    mode: simple
    pool: ${POOL_SBTC_USDCX}
    distribution:
      shape: curve
      from: -3
      to: 3
      x_amount: 100000000
      y_amount: 76000000000
`;

const md = (h: Hover | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

describe('language server: distributions (simulated engine)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let lsp: LspSession;
  const uri = 'file:///work/plans/curve.dlmm.yaml';

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    lsp = await startLsp({
      env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
      initializationOptions: { commands: [], debounceMs: 30, statusPollMs: 200 },
    });
    lsp.open(uri, PLAN);
    await lsp.diagnostics(uri, () => true);
  });
  after(async () => {
    await lsp?.close();
    await sim?.close();
  });

  it('hover on distribution: the expanded table (bin, price, x, y, expected shares) and totals', async () => {
    let text = '';
    // The first answer may come before the live analysis; ask until the table is there.
    for (let i = 0; i < 50 && !/\| 139 \(active\)/.test(text); i++)
      text = md(
        (await lsp.conn.sendRequest('textDocument/hover', {
          textDocument: { uri },
          position: positionOf(PLAN, 'distribution', 2),
        })) as Hover,
      );
    assert.match(text, /\*\*Distribution\*\* bins 136\.\.142 · 7 bins with liquidity/);
    assert.match(text, /\| bin \| price \(USDCx\/sBTC\) \| x \(sBTC\) \| y \(USDCx\) \| expected shares \|/);
    assert.match(text, /\| 139 \(active\) \| 76060\.388561 \|/);
    assert.match(text, /total 1 sBTC \(100000000\) \+ 76000 USDCx \(76000000000\)/);
    assert.equal((text.match(/^\| -?\d+/gm) ?? []).length, 7);
  });

  it('"Expand into bins" replaces the distribution with the same items, which prepare identically', async () => {
    const actions = (await lsp.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: positionOf(PLAN, 'shape'), end: positionOf(PLAN, 'shape') },
      context: { diagnostics: [] },
    })) as CodeAction[];
    const expand = actions.find((a) => a.title.startsWith('Expand into bins'));
    assert.ok(expand, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.equal(expand.kind, 'refactor.rewrite');
    const edits = expand.edit?.changes?.[uri] as TextEdit[];
    const rewritten = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, PLAN), edits);
    assert.doesNotMatch(rewritten, /distribution/);
    assert.match(rewritten, /\n {4}bins:\n {6}- \{ active_bin_offset: -3, x_amount: 0, y_amount: \d+ \}\n/);
    const api = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, apiKey: DEFAULT_SIM_API_KEY });
    try {
      const [before, after] = await Promise.all([
        analyzePlan(PLAN, { api }),
        analyzePlan(rewritten, { api }),
      ]);
      const rows = (a: typeof before) =>
        a.prepared
          .flatMap((p) => (p.op === 'add' ? p.items : []))
          .map((i) => [i.bin_id, i.x_amount, i.y_amount]);
      assert.deepEqual(rows(after), rows(before));
      assert.equal(rows(before).length, 7);
      assert.deepEqual(
        after.findings.filter((f) => f.severity === 'error'),
        [],
      );
    } finally {
      await api.close?.();
    }
  });

  it('completes the distribution fields and the shapes', async () => {
    const doc = 'file:///work/plans/new-shape.dlmm.yaml';
    const text = `version: 1\noperations:\n  - op: add\n    mode: simple\n    pool: ${POOL_SBTC_USDCX}\n    distribution:\n      shape: \n      \n`;
    lsp.open(doc, text);
    const at = (needle: string, delta: number) =>
      lsp.conn.sendRequest('textDocument/completion', {
        textDocument: { uri: doc },
        position: positionOf(text, needle, delta),
      }) as Promise<CompletionItem[]>;
    const shapes = (await at('shape: ', 7)).map((i) => i.label);
    assert.deepEqual(shapes, ['spot', 'curve', 'bid-ask']);
    const lines = text.split('\n');
    const keys = (await lsp.conn.sendRequest('textDocument/completion', {
      textDocument: { uri: doc },
      position: { line: lines.length - 2, character: 6 },
    })) as CompletionItem[];
    assert.deepEqual(
      keys.map((k) => k.label),
      ['from', 'to', 'x_amount', 'y_amount'],
    );
  });
});
