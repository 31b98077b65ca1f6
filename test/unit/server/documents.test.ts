/**
 * The server's document store (server/src/documents.ts) without a connection: file names of URIs with
 * malformed escapes, and the notifications it refuses. The same store over JSON-RPC, with the protocol's
 * reading of edits compared after every one, is test/integration/lsp/hostile.test.ts.
 */
import assert from 'node:assert/strict';
import { decodeEscapes, PlanDocuments, uriFileName } from '../../../server/src/documents';

describe('document URIs', () => {
  const names: [string, string][] = [
    ['file:///work/plans/x%E0%A4%A.dlmm.yaml', 'x%E0%A4%A.dlmm.yaml'],
    ['file:///work/plans/a%20b.dlmm.yaml', 'a b.dlmm.yaml'],
    ['file:///w/%C3%A9t%C3%A9.dlmm.json', 'été.dlmm.json'],
    ['file:///w/%41%E0%A4%42.dlmm.yml', 'A%E0%A4B.dlmm.yml'],
    ['file:///w/%FF%F0%9F%98%80.dlmm.yaml', '%FF😀.dlmm.yaml'],
    ['untitled:Untitled-1.dlmm.yaml', 'untitled:Untitled-1.dlmm.yaml'],
    ['vscode-remote://ssh-remote%2Bhost/home/p.dlmm.yaml?x=1#f', 'p.dlmm.yaml'],
  ];
  for (const [uri, name] of names) it(`${uri} -> ${name}`, () => assert.equal(uriFileName(uri), name));

  it('decodes valid escapes and keeps the rest as written, never throwing', () => {
    assert.equal(decodeEscapes('%'), '%');
    assert.equal(decodeEscapes('%%41'), '%A');
    assert.equal(decodeEscapes('%E0%A4%A'), '%E0%A4%A');
  });
});

describe('PlanDocuments', () => {
  function store() {
    const docs = new PlanDocuments();
    const events: string[] = [];
    docs.onDidOpen((e) => events.push(`open ${e.document.uri} v${e.document.version}`));
    docs.onDidClose((e) => events.push(`close ${e.uri}`));
    docs.onDidLoseSync((e) => events.push(`lost ${e.uri}: ${e.reason}`));
    const logs: string[] = [];
    docs.log = (l) => logs.push(l);
    return { docs, events, logs };
  }

  it('keeps nothing from a notification that names no document, and says so in the log', () => {
    const { docs, events, logs } = store();
    for (const p of [
      null,
      5,
      [],
      {},
      { textDocument: null },
      { textDocument: { uri: 7, text: 'x', version: 1 } },
    ])
      docs.open(p);
    docs.change({ textDocument: { uri: 'file:///a.dlmm.yaml', version: 2 }, contentChanges: [] });
    docs.close({ textDocument: {} });
    assert.deepEqual(events, []);
    assert.equal(docs.all().length, 0);
    assert.equal(logs.length, 8);
    assert.match(logs[0]!, /didOpen ignored: textDocument\.uri missing, expected a string/);
  });

  it('a reopened document replaces the copy; a document out of sync is closed for the analysis first', () => {
    const { docs, events } = store();
    const uri = 'file:///a.dlmm.yaml';
    docs.open({ textDocument: { uri, languageId: 'yaml', version: 1, text: 'a' } });
    docs.open({ textDocument: { uri, languageId: 'yaml', version: 1, text: null } });
    assert.equal(docs.get(uri), undefined);
    assert.match(docs.outOfSync(uri)?.reason ?? '', /textDocument\.text null, expected a string/);
    docs.change({
      textDocument: { uri, version: 2 },
      contentChanges: [
        { text: 'b' },
        { range: { start: { line: 0, character: 1 }, end: { line: 0, character: 1 } }, text: 'c' },
      ],
    });
    assert.equal(docs.get(uri)?.getText(), 'bc');
    assert.deepEqual(events, [
      `open ${uri} v1`,
      `close ${uri}`,
      `lost ${uri}: the editor opened it with textDocument.text null, expected a string`,
      `open ${uri} v2`,
    ]);
  });
});
