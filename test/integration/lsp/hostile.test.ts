/**
 * The language server under hostile JSON-RPC input (issue 46; docs/guarantees.md "The language server
 * survives any input"): the real server over stdio, driven by hand. A `didOpen` without a text, a URI with a
 * malformed percent escape, edits starting past the last line (and 150 random edits in the same vein, compared
 * with the protocol's reading of them after every one), a burst of malformed messages and frames, and
 * requests after `shutdown`. The server's copy of a document is read through `dlmm/test/document`
 * (the tests' server, testServer.ts).
 */
import assert from 'node:assert/strict';
import type { Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { startLsp, testServer, type LspSession } from './harness';
import { TestDocumentRequest } from './testHooks';

interface Pos {
  line: number;
  character: number;
}
interface Edit {
  range?: { start: Pos; end: Pos };
  text: string;
}

/**
 * The protocol's reading of `edit` on `text` (LSP 3.17, Position), written apart from the server's: lines end
 * at `\n`, `\r\n` or `\r`; a character past its line's end is the line's end (before the line break); a line
 * past the last one is the end of the text.
 */
function applyEdit(text: string, edit: Edit): string {
  if (!edit.range) return edit.text;
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    if (text[i] === '\n' || text[i] === '\r') starts.push(i + 1);
  }
  const offset = ({ line, character }: Pos): number => {
    if (line >= starts.length) return text.length;
    const start = starts[line]!;
    let end = text.length;
    if (line + 1 < starts.length) {
      end = starts[line + 1]! - 1;
      if (text[end] === '\n' && text[end - 1] === '\r') end--;
    }
    return Math.min(start + character, end);
  };
  const a = offset(edit.range.start);
  const b = offset(edit.range.end);
  return text.slice(0, a) + edit.text + text.slice(b);
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function rng(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const PLAN = 'version: 1\nsender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR\noperations: []';
/** A plan with an operation (hover answers on it offline) and an unknown field. */
const SWAP_PLAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: s
    op: swap
    input_token: SP1.a
    output_token: SP1.b
    amount_in: 100
bogus: 1
`;
const ON_SWAP = { line: 4, character: 6 };
const codes = (d: readonly Diagnostic[]) => d.map((x) => String(x.code));
const md = (h: Hover | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

describe('language server: hostile input', function () {
  this.timeout(60_000);
  let lsp: LspSession;
  const logs: string[] = [];

  beforeEach(async () => {
    logs.length = 0;
    lsp = await startLsp({ command: testServer(), initializationOptions: { debounceMs: 0 } });
    lsp.conn.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
  });
  afterEach(async () => {
    await lsp.close();
  });

  const serverCopy = (uri: string) => lsp.conn.sendRequest(TestDocumentRequest, { uri });
  const alive = () => assert.equal(lsp.child.exitCode, null, `the server exited: ${lsp.stderr()}`);

  it('a didOpen whose text is null, missing or a number: the file is "out of sync", then checked once its text arrives', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['null', { text: null }],
      ['missing', {}],
      ['number', { text: 42 }],
      ['a version that is no version', { text: PLAN, version: 'one' }],
    ];
    for (const [i, [name, fields]] of cases.entries()) {
      const uri = `file:///work/plans/open-${i}.dlmm.yaml`;
      await lsp.conn.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, ...fields },
      });
      const d = await lsp.diagnostics(uri);
      assert.deepEqual(codes(d), ['document-out-of-sync'], name);
      assert.match(d[0]!.message, /not checked: the language server has no exact copy/, name);
      assert.equal(d[0]!.severity, 1, name);
      assert.ok('outOfSync' in ((await serverCopy(uri)) ?? {}), name);
      // Requests on it answer nothing (never an answer about a text the editor does not have).
      assert.equal(
        await lsp.conn.sendRequest('textDocument/hover', {
          textDocument: { uri },
          position: { line: 0, character: 1 },
        }),
        null,
      );
      // An edit of a text it does not have changes nothing; the whole text makes it exact again.
      await lsp.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [
          { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' },
        ],
      });
      assert.ok('outOfSync' in ((await serverCopy(uri)) ?? {}), name);
      await lsp.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 3 },
        contentChanges: [{ text: PLAN }],
      });
      assert.deepEqual(await serverCopy(uri), { version: 3, text: PLAN }, name);
      const checked = await lsp.diagnostics(uri, (_d, v) => v === 3);
      assert.ok(codes(checked).includes('schema'), `${name}: ${codes(checked).join(',')}`);
      alive();
    }
    assert.ok(
      logs.some((l) => /textDocument\.text null, expected a string/.test(l)),
      logs.join('\n'),
    );
  });

  it('a URI with a malformed percent escape gets diagnostics and hover, as the same plan under a plain name', async () => {
    const bad = 'file:///work/plans/x%E0%A4%A.dlmm.yaml';
    const plain = 'file:///work/plans/x.dlmm.yaml';
    lsp.open(bad, SWAP_PLAN);
    lsp.open(plain, SWAP_PLAN);
    const d = await lsp.diagnostics(bad);
    assert.ok(codes(d).includes('schema'), codes(d).join(','));
    assert.deepEqual(d, await lsp.diagnostics(plain));
    const at = ON_SWAP;
    const hovered = (await lsp.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: bad },
      position: at,
    })) as Hover | null;
    assert.ok(md(hovered).length > 0, 'hover answered');
    assert.deepEqual(
      hovered,
      await lsp.conn.sendRequest('textDocument/hover', { textDocument: { uri: plain }, position: at }),
    );
  });

  it('an edit starting past the last line is applied at the end of the document; later edits land where the editor put them', async () => {
    const uri = 'file:///work/plans/past.dlmm.yaml';
    let text = PLAN; // no line break at the end
    lsp.open(uri, text);
    await lsp.diagnostics(uri);
    const edits: Edit[] = [
      // The library's own failure: a range from line 10 to 11 replaced by one line break left holes in its
      // line table, and the next edit at line 3 emptied the document.
      { range: { start: { line: 10, character: 0 }, end: { line: 11, character: 0 } }, text: '\nx: 1' },
      { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'y: 2\n' },
      { range: { start: { line: 4, character: 99 }, end: { line: 40, character: 3 } }, text: '\nz: 3\n' },
      { range: { start: { line: 0, character: 9 }, end: { line: 0, character: 99 } }, text: '1' },
    ];
    let version = 1;
    for (const edit of edits) {
      text = applyEdit(text, edit);
      await lsp.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [edit],
      });
      assert.deepEqual(await serverCopy(uri), { version, text }, JSON.stringify(edit));
    }
    // The findings published are those of the editor's text: the same as for that text opened afresh.
    const fresh = 'file:///work/plans/past-fresh.dlmm.yaml';
    lsp.open(fresh, text);
    const mine = await lsp.diagnostics(uri, (_d, v) => v === version);
    assert.deepEqual(mine, await lsp.diagnostics(fresh));
    assert.deepEqual(
      mine.filter((d) => /unknown field/.test(d.message)).map((d) => d.range.start.line),
      [3, 4, 5],
      JSON.stringify(mine),
    );
  });

  it('150 random edits (ranges past line ends and past the end, CRLF, several changes a message): the copy stays exact', async () => {
    const uri = 'file:///work/plans/random.dlmm.yaml';
    const next = rng(46);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const inserts = ['', 'a', 'x: 1\n', '\r\n', '\n\n', 'é', 'bogus: 2\r\n', '  - z\n', '\r', '😀'];
    let text = 'version: 1\r\noperations: []\r\n';
    lsp.open(uri, text);
    let version = 1;
    for (let n = 0; n < 150; n++) {
      const changes: Edit[] = [];
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--) {
        const lines = text.split(/\r\n|\r|\n/).length;
        const start = { line: Math.floor(next() * (lines + 3)), character: Math.floor(next() * 30) };
        const endLine = start.line + Math.floor(next() * 3);
        const end = {
          line: endLine,
          character:
            endLine === start.line ? start.character + Math.floor(next() * 10) : Math.floor(next() * 30),
        };
        const edit: Edit =
          next() < 0.03 ? { text: pick(inserts) } : { range: { start, end }, text: pick(inserts) };
        changes.push(edit);
        text = applyEdit(text, edit);
      }
      await lsp.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: changes,
      });
      assert.deepEqual(
        await serverCopy(uri),
        { version, text },
        `after message ${n}: ${JSON.stringify(changes)}`,
      );
    }
    alive();
  });

  it('a change that cannot be applied makes the file "out of sync", not a wrong copy', async () => {
    const uri = 'file:///work/plans/badchange.dlmm.yaml';
    lsp.open(uri, PLAN);
    await lsp.diagnostics(uri);
    const bad: unknown[] = [
      [{ text: 5 }],
      [{ range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } }, text: 'a' }],
      [{ range: { start: { line: 0, character: 1.5 }, end: { line: 0, character: 2 } }, text: 'a' }],
      [{ range: null, text: 'a' }],
      'not a list',
    ];
    let version = 1;
    for (const contentChanges of bad) {
      await lsp.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges,
      });
      const d = await lsp.diagnostics(uri, (x) => codes(x).includes('document-out-of-sync'));
      assert.match(d[0]!.message, /a change that cannot be applied/, JSON.stringify(contentChanges));
      await lsp.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [{ text: PLAN }],
      });
      assert.deepEqual(await serverCopy(uri), { version, text: PLAN });
      await lsp.diagnostics(uri, (x, v) => v === version && !codes(x).includes('document-out-of-sync'));
    }
    // Closing clears its diagnostics, in sync or not.
    await lsp.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: ++version },
      contentChanges: [{ text: null }],
    });
    await lsp.diagnostics(uri, (x) => codes(x).includes('document-out-of-sync'));
    await lsp.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await lsp.diagnostics(uri, (x) => x.length === 0);
    assert.equal(await serverCopy(uri), null);
  });

  it('a burst of malformed messages and frames: the server answers afterwards, and refuses requests after shutdown', async () => {
    const uri = 'file:///work/plans/burst.dlmm.yaml';
    lsp.open(uri, SWAP_PLAN);
    await lsp.diagnostics(uri);
    const raw = (bytes: string) =>
      new Promise<void>((resolve, reject) =>
        lsp.child.stdin!.write(bytes, (e) => (e ? reject(e) : resolve())),
      );
    const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const answers: unknown[] = [];
    const request = async (method: string, params: unknown) => {
      try {
        answers.push(await lsp.conn.sendRequest(method, params));
      } catch (e) {
        answers.push({ error: (e as { code?: number }).code });
      }
    };
    const rawRequests: string[] = [];
    for (let round = 0; round < 3; round++) {
      await request('dlmm/unknownMethod', { x: 1 });
      await lsp.conn.sendNotification('dlmm/unknownNotification', [1, 2, 3]);
      await request('textDocument/hover', {
        textDocument: { uri },
        position: { line: 'a', character: null },
      });
      await request('textDocument/hover', { textDocument: 7, position: { line: 0, character: 0 } });
      await request('textDocument/completion', {
        textDocument: { uri },
        position: { line: -1, character: 2 },
      });
      await request('textDocument/codeAction', { textDocument: { uri }, range: 5, context: {} });
      await request('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } },
        context: { diagnostics: [null, 4, { range: 'x', data: { fixes: 'no' } }] },
      });
      await request('textDocument/inlayHint', { textDocument: { uri }, range: { start: {}, end: [] } });
      await request('textDocument/codeLens', null);
      await request('textDocument/documentSymbol', []);
      await request('dlmm/engineStatus/read', 'status please');
      await lsp.conn.sendNotification('textDocument/didOpen', null);
      await lsp.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: 42, text: 'x' } });
      await lsp.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: 'file:///none.dlmm.yaml', version: 2 },
        contentChanges: [],
      });
      await lsp.conn.sendNotification('textDocument/didClose', { textDocument: null });
      await lsp.conn.sendNotification('workspace/didChangeConfiguration', 7);
      await lsp.conn.sendNotification('dlmm/setApiKey', null);
      await lsp.conn.sendNotification('dlmm/visibleDocuments', { uris: 'all' });
      await lsp.conn.sendNotification('$/cancelRequest', { id: { nested: true } });
      // Frames the library alone could not read past: no Content-Length, a length that is not a number,
      // stray bytes before a header, a body that is not JSON, a JSON that is no message, huge and odd ids.
      const hugeId = `"${'9'.repeat(10_000)}"`;
      rawRequests.push(hugeId);
      await raw('X-Nothing: 1\r\n\r\n{"jsonrpc":"2.0","method":"initialized"}');
      await raw('Content-Length: twelve\r\n\r\n{"a":1}');
      await raw('garbage before a frame ');
      await raw(frame('{"jsonrpc":"2.0","id":'));
      await raw(frame('[1,2,3]'));
      await raw(frame('null'));
      await raw(frame('"hello"'));
      await raw(frame(`{"jsonrpc":"2.0","id":1e308,"method":"textDocument/hover","params":null}`));
      await raw(frame(`{"jsonrpc":"2.0","id":${hugeId},"method":"dlmm/unknown"}`));
      await raw(frame(`{"jsonrpc":"2.0","id":{"an":"object"},"method":"shutdown"}`));
      await raw('\r\n\r\n\r\n');
    }
    alive();
    // Every request the client library sent got an answer (a result or an error), and the server still works:
    assert.equal(answers.length, 3 * 10);
    const round = answers.slice(0, 10);
    // Unknown: MethodNotFound; params that name no position or range: InvalidParams; the rest answered.
    assert.deepEqual(round, [
      { error: -32601 },
      { error: -32602 },
      { error: -32602 },
      { error: -32602 },
      { error: -32602 },
      round[5],
      { error: -32602 },
      { error: -32602 },
      { error: -32602 },
      round[9],
    ]);
    assert.equal((round[9] as { state?: string }).state, 'offline');
    assert.ok(Array.isArray(round[5]), JSON.stringify(round[5]));
    const hovered = (await lsp.conn.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: ON_SWAP,
    })) as Hover | null;
    assert.match(md(hovered), /\*\*Swap\*\* 100/, 'hover after the burst');
    lsp.change(uri, `${SWAP_PLAN}other: 2\n`);
    const d = await lsp.diagnostics(uri, (_x, v) => v === 2);
    assert.equal(d.filter((x) => /unknown field/.test(x.message)).length, 2, JSON.stringify(d));
    assert.ok(
      logs.some((l) => /JSON-RPC input: a header block without a valid Content-Length was skipped/.test(l)),
    );

    // After `shutdown`, requests are refused as the protocol asks (InvalidRequest), and `exit` ends it (0).
    await lsp.conn.sendRequest('shutdown');
    await assert.rejects(
      lsp.conn.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: ON_SWAP,
      }),
      (e: { code?: number }) => e.code === -32600,
    );
    const exited = new Promise<number | null>((resolve) => lsp.child.once('exit', (code) => resolve(code)));
    await lsp.conn.sendNotification('exit');
    assert.equal(await exited, 0);
  });
});
