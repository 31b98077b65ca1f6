/** Fuzz: random and mutated plans never crash the analyzer and always come back with diagnostics in range. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyzeOffline } from '../../../core/check/analyze';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const EXAMPLES = join(__dirname, '../../../examples');
const seeds = [
  ...readdirSync(EXAMPLES).map((f) => join(EXAMPLES, f)),
  ...readdirSync(join(EXAMPLES, 'mistakes')).map((f) => join(EXAMPLES, 'mistakes', f)),
]
  .filter((f) => /\.dlmm\.(ya?ml|json)$/.test(f))
  .map((f) => ({ text: readFileSync(f, 'utf8'), fileName: f }));

function checkInvariants(text: string, fileName?: string): void {
  const a = analyzeOffline(text, fileName ? { fileName } : {});
  assert.deepEqual(a.internalErrors, []);
  for (const f of a.findings) {
    assert.ok(
      f.offset >= 0 && f.length >= 0 && f.offset + f.length <= text.length,
      `${f.code} range out of the text`,
    );
    assert.ok(f.message.length > 0);
  }
  if (!a.plan)
    assert.ok(
      a.findings.some((f) => f.code === 'syntax' || f.code === 'schema'),
      'a rejected plan says why',
    );
}

describe('analyzer fuzz (bounded)', function () {
  this.timeout(60_000);

  it('random text never crashes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (t) => checkInvariants(t)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (t) => checkInvariants(t, 'x.dlmm.json')),
      { numRuns: 200 },
    );
  });

  it('mutated example plans never crash and always return diagnostics for broken ones', () => {
    const mutation = fc.record({
      seed: fc.nat({ max: seeds.length - 1 }),
      at: fc.nat(),
      cut: fc.nat({ max: 20 }),
      insert: fc.oneof(
        fc.constantFrom(
          '',
          ':',
          '- ',
          '{',
          ']',
          '"',
          '&a ',
          '*a',
          '\t',
          '\n  ',
          '-1',
          '1e400',
          '0x10',
          'null',
          '~',
          '  bin_id: 9999\n',
        ),
        fc.string({ maxLength: 8 }),
      ),
    });
    fc.assert(
      fc.property(mutation, ({ seed, at, cut, insert }) => {
        const s = seeds[seed] as { text: string; fileName: string };
        const i = at % (s.text.length + 1);
        checkInvariants(s.text.slice(0, i) + insert + s.text.slice(i + cut), s.fileName);
      }),
      { numRuns: 400 },
    );
  });

  it('random structured plans: amounts stay exact bigints', () => {
    const amount = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });
    fc.assert(
      fc.property(
        fc.array(fc.record({ bin: fc.integer({ min: -600, max: 1100 }), x: amount, y: amount }), {
          minLength: 1,
          maxLength: 20,
        }),
        (items) => {
          const bins = items
            .map((b) => `      - { bin_id: ${b.bin}, x_amount: ${b.x}, y_amount: "${b.y}" }`)
            .join('\n');
          const text = `version: 1\noperations:\n  - op: add\n    pool: dlmm_1\n    bins:\n${bins}\n`;
          const a = analyzeOffline(text);
          const op = a.plan?.operations[0];
          assert.ok(op && op.op === 'add');
          op.bins.forEach((b, i) => {
            assert.equal(b.x_amount, items[i]?.x);
            assert.equal(b.y_amount, items[i]?.y);
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
