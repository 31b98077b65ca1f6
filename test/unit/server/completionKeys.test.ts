/** Completion never throws on keys that name Object.prototype members (the enum table is a Map). */
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeOffline } from '../../../core/check/analyze';
import { completion } from '../../../server/src/features/completion';
import type { AnalysisResult } from '../../../server/src/planService';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

describe('completion on keys named like Object.prototype members', () => {
  for (const name of NAMES) {
    it(`'${name}: ' completes without throwing`, async () => {
      const text = `version: 1\noperations:\n  - op: add\n    pool: dlmm_1\n    ${name}: `;
      const doc = TextDocument.create('file:///w/p.dlmm.yaml', 'yaml', 1, text);
      const result = {
        version: 1,
        analysis: analyzeOffline(text, { fileName: 'p.dlmm.yaml' }),
        live: false,
        settings: {},
        api: undefined,
      } as unknown as AnalysisResult;
      const items = await completion(doc, result, text.length);
      assert.ok(Array.isArray(items));
      assert.deepEqual(items, []);
    });
  }
});
