/**
 * The debounce holds back only what is published: a change is analysed at once (offline, then live), and
 * its diagnostics are published once the debounce has passed since it arrived. Real language server over
 * stdio JSON-RPC against the simulated engine on loopback. With a 10-minute debounce the test hook
 * `dlmm/test/analysed` (the tests' server, testServer.ts) says, without ending the debounce, when a version's analysis is
 * done and whether anything of it was published. While a version's debounce holds, its analysis reads only
 * what is in memory: nothing goes to the engine before the hold ends (a typing burst asks the engine what
 * one analysis after the pause asks).
 */
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { scalePlan } from '../../bench/lspScale.bench';
import { positionOf, startLsp, testServer, type LspSession } from './harness';
import { TestAnalysedRequest } from './testHooks';

const TEN_MINUTES = 600_000;

describe('language server: the debounce holds the publish, not the analysis', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  const sessions: LspSession[] = [];

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    for (const lsp of sessions) await lsp.close();
    await sim?.close();
  });

  async function server(debounceMs: number, engine: RunningSimulator = sim): Promise<LspSession> {
    const lsp = await startLsp({
      command: testServer(),
      env: { DLMM_API_URL: engine.url, DLMM_NODE_URL: engine.nodeUrl },
      initializationOptions: { debounceMs, statusPollMs: TEN_MINUTES, analysisEvents: true },
    });
    sessions.push(lsp);
    return lsp;
  }

  const plan = scalePlan(0);
  const item = '{ bin_id: 141, x_amount: 1000, y_amount: 0 }';

  it('has a change analysed live at once while nothing of it is published before the debounce ends', async () => {
    const lsp = await server(TEN_MINUTES);
    const uri = 'file:///work/debounce/held.dlmm.yaml';
    // An open is analysed and published at once.
    lsp.open(uri, plan);
    await lsp.live(uri, 1, 30_000);

    const v2 = lsp.change(uri, plan.replace('x_amount: 1000,', 'x_amount: 10001,'));
    const v3text = plan.replace('x_amount: 1000,', 'x_amount: 100012,');
    const v3 = lsp.change(uri, v3text);
    const analysed = await lsp.conn.sendRequest(TestAnalysedRequest, { uri, version: v3 });
    assert.deepEqual(analysed, { live: true, published: false }, 'analysed live, held back');

    // A hover reads the live analysis of the held version, and publishes nothing.
    const hover = (await lsp.conn.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(v3text, 'x_amount: 100012', 2),
    })) as { contents: { value: string } } | null;
    const words = hover?.contents.value ?? '';
    assert.match(words, /Executed on the state read/, words);
    assert.doesNotMatch(words, /live data not read/, words);
    // Diagnostics are written before a reply sent after them: none of v2 or v3 came.
    assert.equal(lsp.publishCount(uri, v2), 0);
    assert.equal(lsp.publishCount(uri, v3), 0);
    assert.deepEqual(lsp.analyses(uri, v3), []);
    assert.deepEqual(await lsp.conn.sendRequest(TestAnalysedRequest, { uri, version: v3 }), {
      live: true,
      published: false,
    });
    // What was shown is still the open's.
    assert.equal(lsp.latest(uri)?.version, 1);
  });

  it("sends nothing to the engine for a typing burst on a swap amount until the hold ends, then the last version's quote", async () => {
    const own = await startSimulator({ host: '127.0.0.1', port: 0, recordRequests: true });
    try {
      const lsp = await server(TEN_MINUTES, own);
      const uri = 'file:///work/debounce/swap.dlmm.yaml';
      lsp.open(uri, plan);
      await lsp.live(uri, 1, 30_000);
      const quotes = (from: number) =>
        own
          .requestLog()
          .slice(from)
          .filter((r) => r.key.startsWith('POST /api/quotes/v2/quote '));
      // The open quoted its swap once (main's count for one analysis of the plan).
      const opened = quotes(0).length;
      assert.ok(opened >= 1, 'the open quoted its swap');
      const from = own.requestLog().length;
      // amount_in typed digit by digit: 1, 12, 123, ... 1234567.
      const digits = '1234567';
      let text = plan;
      let last = 1;
      for (let k = 1; k <= digits.length; k++) {
        text = plan.replace('amount_in: 100000\n', `amount_in: ${digits.slice(0, k)}\n`);
        assert.notEqual(text, plan);
        last = lsp.change(uri, text);
        await delay(20);
      }
      // The held runs read what is in memory (the add's reads at this height) and wait for the rest.
      await delay(500);
      assert.deepEqual(own.requestLog().slice(from), [], 'nothing sent while the debounce holds');
      assert.equal(lsp.publishCount(uri, last), 0);
      // A hover ends the hold: the last version's reads go out, and only those.
      await lsp.conn.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: positionOf(text, `amount_in: ${digits}`, 2),
      });
      await lsp.live(uri, last, 30_000);
      const sent = quotes(from);
      assert.equal(sent.length, 1, sent.map((r) => r.key).join('\n'));
      assert.match(sent[0]!.key, new RegExp(`"amount_in":"?${digits}"?[,}]`));
      // No version before the last one reached the engine.
      for (let k = 1; k < digits.length; k++)
        assert.doesNotMatch(
          own
            .requestLog()
            .slice(from)
            .map((r) => r.key)
            .join('\n'),
          new RegExp(`"amount_in":"?${digits.slice(0, k)}"?[,}]`),
        );
    } finally {
      await own.close();
    }
  });

  it('publishes the same diagnostics per version with a short debounce as when analysed and published at once', async () => {
    const held = await server(30);
    const now = await server(0);
    const uri = 'file:///work/debounce/same.dlmm.yaml';
    const texts = [
      // An add's amount typed on.
      plan.replace('x_amount: 1000,', 'x_amount: 10001,'),
      // An item the engine rejects (x on a bin below the active one).
      plan.replace(item, '{ bin_id: 130, x_amount: 1000, y_amount: 0 }'),
      // A half-typed amount (a schema error) beside the untouched live findings.
      plan.replace(item, '{ bin_id: 130, x_amount: 10x, y_amount: 0 }'),
      // A new swap amount (quoted).
      plan.replace('amount_in: 100000\n', 'amount_in: 1000005\n'),
      plan,
    ];
    const shown = async (lsp: LspSession): Promise<Diagnostic[][]> => {
      lsp.open(uri, plan);
      await lsp.live(uri, 1, 30_000);
      const out: Diagnostic[][] = [];
      for (const text of texts) {
        const v = lsp.change(uri, text);
        await lsp.live(uri, v, 30_000);
        const d = await lsp.diagnostics(uri, (_d, version) => version === v);
        // Every publish of the version was for that version, the last one live.
        assert.equal(lsp.analyses(uri, v).at(-1), true);
        out.push(d.map((x) => ({ ...x, message: String(x.message) })));
      }
      return out;
    };
    const a = await shown(held);
    const b = await shown(now);
    const key = (ds: Diagnostic[][]) =>
      ds.map((d) =>
        d.map((x) => `${String(x.code)} ${x.range.start.line}:${x.range.start.character} ${x.message}`),
      );
    assert.deepEqual(key(a), key(b));
    assert.ok(
      key(a)[1]!.some((line) => line.startsWith('wrong-token-side')),
      `the live finding of the rejected item: ${key(a)[1]!.join('; ')}`,
    );
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
