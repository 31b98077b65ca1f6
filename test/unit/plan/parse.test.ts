import assert from 'node:assert/strict';
import { PARSE_LIMITS, parsePlan } from '../../../core/plan/parse';
import { analyzeOffline } from '../../../core/check/analyze';
import { LineIndex } from '../../../core/plan/lineIndex';
import { MAX_UINT128 } from '../../../core/dlmm/bins';
import { assertFindings, plan, POOL1, SBTC, USDCX, type Expect } from './helpers';

const cases: Array<{ name: string; text: string; file?: string; expect: Expect[] }> = [
  {
    name: 'YAML syntax error at its position',
    text: 'version: 1\noperations: [1, 2\nx: 1\n',
    expect: [['syntax', 'error', 'x']],
  },
  {
    name: 'YAML bad indentation',
    text: 'version: 1\n  operations: 2\n',
    expect: [
      ['syntax', 'error', '1'],
      ['syntax', 'error', '1\n  operations'],
    ],
  },
  {
    name: 'YAML duplicate key',
    text: 'version: 1\nversion: 2\noperations: []\n',
    expect: [['syntax', 'error', 'v']],
  },
  {
    name: 'JSON trailing comma reported as JSON',
    file: 'a.dlmm.json',
    text: '{"version": 1, "operations": [],}',
    expect: [['syntax', 'error', '}']],
  },
  {
    name: 'JSON single quotes',
    file: 'a.dlmm.json',
    text: "{'version': 1}",
    expect: [['syntax', 'error', "'"]],
  },
  {
    name: 'unknown root key on the key',
    text:
      'version: 1\nbogus: 2\noperations: [{op: swap, input_token: ' +
      SBTC +
      ', output_token: ' +
      USDCX +
      ', amount_in: 1}]',
    expect: [['schema', 'error', 'bogus']],
  },
  {
    name: 'wrong version',
    text:
      'version: 2\noperations:\n  - { op: swap, input_token: ' +
      SBTC +
      ', output_token: ' +
      USDCX +
      ', amount_in: 1 }',
    expect: [['schema', 'error', '2']],
  },
  {
    name: 'missing operations on the root first line',
    text: 'version: 1\n',
    expect: [['schema', 'error', 'version: 1']],
  },
  {
    name: 'unknown op kind',
    text: plan('  - op: addx\n    pool: dlmm_1\n'),
    expect: [['schema', 'error', 'addx']],
  },
  {
    name: 'negative amount',
    text: plan(
      '  - op: add\n    pool: dlmm_1\n    bins:\n      - { bin_id: 200, x_amount: -5, y_amount: 0 }\n',
    ),
    expect: [['schema', 'error', '-5']],
  },
  {
    name: 'amount above uint128',
    text: plan(
      `  - op: add\n    pool: dlmm_1\n    bins:\n      - { bin_id: 200, x_amount: ${MAX_UINT128 + 1n}, y_amount: 0 }\n`,
    ),
    expect: [['schema', 'error', String(MAX_UINT128 + 1n)]],
  },
  {
    name: 'float amount',
    text: plan(
      '  - op: add\n    pool: dlmm_1\n    bins:\n      - { bin_id: 200, x_amount: 1.5, y_amount: 0 }\n',
    ),
    expect: [['schema', 'error', '1.5']],
  },
  {
    name: 'missing field on the item',
    text: plan('  - op: add\n    pool: dlmm_1\n    bins:\n      - { bin_id: 200, x_amount: 1 }\n'),
    expect: [['schema', 'error', '{ bin_id: 200, x_amount: 1 }']],
  },
  {
    name: 'missing pool on the op first line',
    text: plan('  - op: add\n    bins:\n      - { bin_id: 200, x_amount: 1, y_amount: 0 }\n'),
    expect: [['schema', 'error', 'op: add']],
  },
  {
    name: 'unknown item key',
    text: plan(
      '  - op: add\n    pool: dlmm_1\n    bins:\n      - { bin_id: 200, x_amount: 1, y_amount: 0, z: 1 }\n',
    ),
    expect: [['schema', 'error', 'z']],
  },
  {
    name: 'withdrawal percentage above 100',
    text: plan('  - op: withdraw\n    pool: ' + POOL1 + '\n    withdrawal_percentage: 150\n'),
    expect: [['schema', 'error', '150']],
  },
  {
    name: 'withdraw without sender',
    text: plan('  - op: withdraw\n    pool: ' + POOL1 + '\n', ''),
    expect: [['schema', 'error', 'withdraw']],
  },
  {
    name: 'strict item with offset',
    text: plan(
      '  - op: add\n    pool: dlmm_1\n    bins:\n      - { active_bin_offset: 1, x_amount: 1, y_amount: 0 }\n',
    ),
    expect: [['schema', 'error', 'active_bin_offset']],
  },
  {
    name: 'duplicate op id',
    text: plan(
      '  - { id: a, op: swap, input_token: ' +
        SBTC +
        ', output_token: ' +
        USDCX +
        ', amount_in: 1 }\n  - { id: a, op: swap, input_token: ' +
        SBTC +
        ', output_token: ' +
        USDCX +
        ', amount_in: 2 }\n',
    ),
    expect: [['schema', 'error', 'a']],
  },
  {
    name: 'an explicit op id equal to an unnamed op index collides (both would be operation "1")',
    text: plan(
      '  - { id: 1, op: swap, input_token: ' +
        SBTC +
        ', output_token: ' +
        USDCX +
        ', amount_in: 1 }\n  - { op: swap, input_token: ' +
        SBTC +
        ', output_token: ' +
        USDCX +
        ', amount_in: 2 }\n',
    ),
    expect: [['schema', 'error', '1']],
  },
  {
    name: 'a float amount beyond 2^53 is reported once',
    text: plan('  - { op: swap, input_token: ' + SBTC + ', output_token: ' + USDCX + ', amount_in: 1e30 }\n'),
    expect: [['schema', 'error', '1e30']],
  },
  {
    name: 'a binary file is a syntax error at its first NUL byte',
    text: 'version: 1\noperations: \u0000\u0001\u00ff\n',
    expect: [['syntax', 'error', '\u0000']],
  },
  {
    name: '$schema key and modeline accepted',
    text:
      '# yaml-language-server: $schema=../schemas/dlmm-plan.schema.json\n$schema: x\n' +
      plan('  - { op: swap, input_token: ' + SBTC + ', output_token: ' + USDCX + ', amount_in: 1 }\n', ''),
    expect: [],
  },
  {
    name: 'deep flow nesting is reported',
    text: 'version: 1\noperations: ' + '['.repeat(5000) + ']'.repeat(5000),
    expect: [['syntax', 'error', '[']],
  },
  {
    // The quote in `a 'b` misleads the cheap nesting pre-scan; the fast reader leaves the text to the full
    // parser, which must check its nesting itself.
    name: 'deep flow nesting after a quote in a plain scalar is reported',
    text:
      "version: 1\nnetwork: mainnet\noperations:\n  - op: add\n    id: a 'b\n    pool: p\n    bins:\n      - { bin: 2, x: " +
      '['.repeat(70) +
      ']'.repeat(70) +
      ' }\n',
    expect: [['syntax', 'error', '[']],
  },
  {
    name: 'deep JSON nesting is reported',
    file: 'a.dlmm.json',
    text: '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
    expect: [['syntax', 'error', '[']],
  },
];

describe('plan parsing: syntax and schema findings', () => {
  for (const c of cases) {
    it(c.name, () =>
      assertFindings(analyzeOffline(c.text, c.file ? { fileName: c.file } : {}), c.expect, [
        'syntax',
        'schema',
      ]),
    );
  }

  it('reports an alias bomb instead of expanding it', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++)
      lines.push(
        `${'abcdefgh'[i]}: &${'abcdefgh'[i]} [${Array(9)
          .fill('*' + 'abcdefgh'[i - 1])
          .join(', ')}]`,
      );
    const t0 = Date.now();
    const p = parsePlan(lines.join('\n'));
    assert.ok(Date.now() - t0 < 2000);
    assert.equal(p.findings[0]?.code, 'syntax');
    assert.match(p.findings[0]?.message ?? '', /alias/);
  });

  it('gives a plan over 512 KB that only the full parser reads one finding where it starts, without running it', () => {
    const head = 'version: 1\noperations:\n  - op: add\n    pool: dlmm_1\n    bins:\n';
    const bin = '      - { bin_id: 1, x_amount: 1, y_amount: 0 }\n';
    const bins = (chars: number, odd: (i: number) => string | undefined): string => {
      let t = head;
      for (let i = 0; t.length < chars; i++) t += odd(i) ?? bin;
      return t;
    };
    const over = PARSE_LIMITS.maxFullParserChars + 1000;
    const lineOf = (p: ReturnType<typeof parsePlan>): number =>
      p.text.slice(0, p.findings[0]!.offset).split('\n').length;
    const cases: Array<{ text: string; line: number; message: RegExp }> = [
      // Every bin from the 10th on in a local tag: the first one is named.
      {
        text: bins(over, (i) =>
          i >= 9 ? '      - { bin_id: 1, x_amount: !custom 1, y_amount: 0 }\n' : undefined,
        ),
        line: 15,
        message: /not checked: from line 15 \(a tag outside the core schema: !custom\)/,
      },
      // Tabs as indentation: yaml's own error on that part, at its place.
      {
        text: bins(over, (i) => (i === 20 ? '      - bin_id: 1\n\t x_amount: 1\n' : undefined)),
        line: 27,
        message:
          /^YAML: Tabs are not allowed as indentation\. This 0\.5 MB plan was not checked: from line 27/,
      },
      // A top-level key written twice: the repeat is named, where it is.
      {
        text: bins(over, () => undefined).replace('operations:', 'version: 2\noperations:'),
        line: 2,
        message:
          /^YAML: Map keys must be unique \('version' is repeated\)\. This 0\.5 MB plan was not checked/,
      },
      // A `__proto__` key in every bin from the 10th on: named.
      {
        text: bins(over, (i) =>
          i >= 9 ? '      - { bin_id: 1, __proto__: 1, x_amount: 1, y_amount: 0 }\n' : undefined,
        ),
        line: 15,
        message: /^YAML: a key named '__proto__' is read only by the full YAML parser/,
      },
    ];
    for (const c of cases) {
      const t0 = Date.now();
      const p = parsePlan(c.text);
      assert.ok(Date.now() - t0 < 10_000, `${Date.now() - t0} ms`);
      assert.deepEqual(
        p.findings.map((f) => [f.code, f.severity]),
        [['syntax', 'error']],
      );
      assert.match(p.findings[0]!.message, c.message);
      assert.equal(lineOf(p), c.line);
      assert.equal(p.value, undefined);
    }
    // One odd form is enough: a local tag in the header of a plan over that size is the one finding.
    const tagged = parsePlan('note: !local x\n' + bins(over, () => undefined));
    assert.deepEqual(
      tagged.findings.map((f) => [f.code, lineOf(tagged)]),
      [['syntax', 1]],
    );
    assert.match(
      tagged.findings[0]!.message,
      /not checked: from line 1 \(a tag outside the core schema: !local\)/,
    );
    // Under the size the full parser is given, the same dense file is read by it (its schema findings).
    const under = bins(PARSE_LIMITS.maxFullParserChars - 1000, (i) =>
      i >= 9 ? '      - { bin_id: 1, x_amount: !custom 1, y_amount: 0 }\n' : undefined,
    );
    assert.deepEqual(
      parsePlan(under)
        .findings.filter((f) => f.code === 'syntax')
        .map((f) => f.message),
      [],
    );
  });

  it('stops a YAML flow mapping of more than 2,000 entries where the full parser stops, read by either reader', () => {
    const map = `{${Array.from({ length: 2001 }, (_, i) => `k${i}: 1`).join(', ')}}`;
    const comma = (text: string): number => text.indexOf(', k2000');
    const head = 'version: 1\noperations:\n  - op: add\n    pool: dlmm_1\n    bins:\n';
    const pad = '      - { bin_id: 1, x_amount: 1, y_amount: 0 }\n';
    for (const text of [
      `${head}      - ${map}\n`,
      // Above 512 KB (the fast reader), and with a form only the full parser reads before it.
      `${head}${pad.repeat(14_000)}      - ${map}\n`,
      `${head}      - !local { bin_id: 1 }\n      - ${map}\n`,
      `${map}\n`,
    ]) {
      const p = parsePlan(text);
      assert.deepEqual(
        p.findings.map((f) => [f.offset, f.message]),
        [
          [
            comma(text),
            `YAML: a mapping with more than ${PARSE_LIMITS.maxMapEntries} entries is not read (plan objects have a handful of fields); remove the keys the plan format does not define`,
          ],
        ],
        text.slice(0, 80),
      );
    }
  });

  it('refuses more than 10,000 aliases in a file only the full parser reads (its alias lookup is quadratic)', () => {
    // A local tag sends the file to the full parser (the fast reader takes only the core schema's tags);
    // each anchor is used 49 times (under yaml's limit of 100), the file stays under the size the full
    // parser is given (PARSE_LIMITS.maxFullParserChars).
    const shared = (n: number): string => {
      let t = `version: 1\noperations:\n  - op: add\n    note: !custom 1\n    pool: dlmm_1\n    bins:\n`;
      for (let i = 0; i < n / 49; i++) {
        t += `      - &a${i} { bin_id: 1, x_amount: 1, y_amount: 0 }\n`;
        t += `      - *a${i}\n`.repeat(49);
      }
      return t;
    };
    assert.ok(shared(10_045).length < PARSE_LIMITS.maxFullParserChars);
    const t0 = Date.now();
    const many = parsePlan(shared(10_045));
    assert.ok(Date.now() - t0 < 20_000);
    assert.deepEqual(
      many.findings.map((f) => f.code),
      ['syntax'],
    );
    assert.match(many.findings[0]!.message, /more than 10000 aliases/);
    assert.equal(
      many.text
        .slice(many.findings[0]!.offset, many.findings[0]!.offset + many.findings[0]!.length)
        .startsWith('*a'),
      true,
    );
    const few = parsePlan(shared(490));
    assert.ok(!few.findings.some((f) => /aliases/.test(f.message)));
    // The fast reader has no such limit: without the tag, the same 10,045 aliases are read.
    assert.ok(!parsePlan(shared(10_045).replace('!custom ', '')).findings.some((f) => f.code === 'syntax'));
  });

  it('reads uint128 max exactly from YAML and JSON (no float)', () => {
    const y = parsePlan(
      plan(`  - { op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: ${MAX_UINT128} }\n`),
    );
    const j = parsePlan(
      JSON.stringify({
        version: 1,
        operations: [{ op: 'swap', input_token: SBTC, output_token: USDCX, amount_in: 'X' }],
      }).replace('"X"', MAX_UINT128.toString()),
      { fileName: 'p.dlmm.json' },
    );
    for (const p of [y, j]) {
      const op = p.plan?.operations[0];
      assert.equal(op?.op === 'swap' ? op.amount_in : undefined, MAX_UINT128);
    }
    const s = parsePlan(
      plan(`  - { op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: "${MAX_UINT128}" }\n`),
    );
    const op = s.plan?.operations[0];
    assert.equal(op?.op === 'swap' ? op.amount_in : undefined, MAX_UINT128);
  });

  it('rangeOf, keyRangeOf and operationIndexAt follow the source', () => {
    const text = plan(
      '  - id: first\n    op: add\n    pool: dlmm_1\n    bins:\n      - { bin_id: 140, x_amount: 1, y_amount: 0 }\n  - { op: swap, input_token: ' +
        SBTC +
        ', output_token: ' +
        USDCX +
        ', amount_in: 7 }\n',
    );
    const p = parsePlan(text);
    const r = p.rangeOf(['operations', 0, 'bins', 0, 'bin_id']);
    assert.equal(r && text.slice(r.offset, r.offset + r.length), '140');
    const k = p.keyRangeOf(['operations', 1, 'amount_in']);
    assert.equal(k && text.slice(k.offset, k.offset + k.length), 'amount_in');
    assert.equal(p.operationIndexAt(text.indexOf('140')), 0);
    assert.equal(p.operationIndexAt(text.indexOf('amount_in: 7')), 1);
    assert.equal(p.operationIndexAt(0), undefined);
    assert.equal(p.operationId(0), 'first');
    assert.equal(p.operationId(1), '1');
  });

  it('LineIndex converts offsets to zero-based UTF-16 positions', () => {
    const idx = new LineIndex('a\r\nb😀c\nd');
    assert.deepEqual(idx.positionAt(0), { line: 0, character: 0 });
    assert.deepEqual(idx.positionAt(3), { line: 1, character: 0 });
    assert.deepEqual(idx.positionAt(6), { line: 1, character: 3 });
    assert.deepEqual(idx.positionAt(8), { line: 2, character: 0 });
    assert.equal(idx.offsetAt({ line: 1, character: 3 }), 6);
  });

  it('LineIndex finds the same lines in a text with LF line ends only as with CRLF ones', () => {
    for (const lf of ['', 'a', '\n', 'a\n', '\n\nb\n', 'ab\ncd\n\nef', 'x😀\ny']) {
      const crlf = lf.replace(/\n/g, '\r\n');
      const a = new LineIndex(lf);
      const b = new LineIndex(crlf);
      for (let o = 0; o <= lf.length + 1; o++) {
        const p = a.positionAt(o);
        // The same position in the CRLF text: its offset is one more per line break before it.
        assert.deepEqual(b.positionAt(b.offsetAt(p)), p, JSON.stringify([lf, o]));
        assert.equal(a.offsetAt(p), Math.min(o, lf.length));
      }
      assert.equal(a.positionAt(lf.length).line, lf.split('\n').length - 1);
    }
  });
});

describe('plan parsing: small hostile inputs (issue 10)', () => {
  const swap = (slippage: string): string =>
    plan(
      `  - { op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 5, slippage_tolerance: ${slippage} }\n`,
    );

  it('refuses a slippage tolerance of 100 or more, on the swap and in the policy', () => {
    for (const v of ['100', '150', '"100.0"']) {
      const a = analyzeOffline(swap(v));
      assertFindings(a, [['schema', 'error', v]], ['schema']);
      assert.match(a.findings[0]?.message ?? '', /below 100|< 100/);
    }
    const policy = analyzeOffline(
      `version: 1\npolicy: { slippage_tolerance: 100 }\noperations:\n  - { op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 5 }\n`,
    );
    assertFindings(policy, [['schema', 'error', '100']], ['schema']);
    assertFindings(analyzeOffline(swap('99.9999')), [], ['schema']);
  });

  it('reads a .dlmm.json that starts with a byte order mark, with ranges of the file as written', () => {
    const body = JSON.stringify({
      version: 1,
      operations: [{ op: 'swap', input_token: SBTC, output_token: USDCX, amount_in: 5 }],
    });
    const text = '\uFEFF' + body;
    const p = parsePlan(text, { fileName: 'a.dlmm.json' });
    assert.deepEqual(p.findings, []);
    assert.ok(p.plan);
    const r = p.rangeOf(['operations', 0, 'amount_in']);
    assert.equal(text.slice(r!.offset, r!.offset + r!.length), '5');
  });

  it("speaks of plan files, not of yaml's API, and prints nothing to the console", async () => {
    const warnings: unknown[] = [];
    const onWarning = (w: unknown): void => void warnings.push(w);
    const origWarn = console.warn;
    process.on('warning', onWarning);
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const multi = analyzeOffline('version: 1\noperations: []\n---\nversion: 1\n');
      assert.equal(multi.findings[0]?.code, 'syntax');
      assert.doesNotMatch(multi.findings[0]?.message ?? '', /parseAllDocuments/);
      assert.match(multi.findings[0]?.message ?? '', /one document/);
      analyzeOffline('version: 1\n? [a, b]\n: 1\noperations: []\n');
      analyzeOffline('{"version": 1, "operations": [], {"a": 1}: 2}', { fileName: 'k.dlmm.json' });
      analyzeOffline('version: 1\noperations:\n  - { [x]: 1 }\n');
      // process warnings are emitted on a later tick
      await new Promise((r) => setImmediate(r));
    } finally {
      console.warn = origWarn;
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, []);
  });
});

describe('plan parsing: numbers are read as written (YAML and JSON alike)', () => {
  const swapYaml = (amount: string, slippage: string) =>
    `version: 1\noperations:\n  - op: swap\n    input_token: ${SBTC}\n    output_token: ${USDCX}\n    amount_in: ${amount}\n    slippage_tolerance: ${slippage}\n`;
  const swapJson = (amount: string, slippage: string) =>
    `{"version": 1, "operations": [{"op": "swap", "input_token": "${SBTC}", "output_token": "${USDCX}", "amount_in": ${amount}, "slippage_tolerance": ${slippage}}]}`;
  const both = (amount: string, slippage: string) => [
    parsePlan(swapYaml(amount, slippage), { fileName: 'a.dlmm.yaml' }),
    parsePlan(swapJson(amount, slippage), { fileName: 'a.dlmm.json' }),
  ];

  const refused: Array<[string, string, string]> = [
    // [amount_in, slippage_tolerance, the text the one finding quotes and marks]
    ['1e-400', '1', '1e-400'], // read as 0 by a float reader
    ['1e3', '1', '1e3'], // an integer value, written with an exponent
    ['1000.0', '1', '1000.0'], // a fraction where an integer is required
    ['12345678901234567891e0', '1', '12345678901234567891e0'], // never echoed rounded
    ['1000', '1e1000', '1e1000'], // never "Infinity"
    ['1000', '1e-400', '1e-400'], // not a 0% slippage
    ['1000', '0.50000000000000000001', '0.50000000000000000001'], // not 0.5 after float rounding
  ];
  for (const [amount, slippage, quoted] of refused) {
    it(`refuses amount_in ${amount}, slippage_tolerance ${slippage}, quoting ${quoted}`, () => {
      for (const p of both(amount, slippage)) {
        assert.equal(p.plan, undefined, p.format);
        const errors = p.findings.filter((f) => f.severity === 'error');
        assert.equal(errors.length, 1, `${p.format}: ${JSON.stringify(errors.map((f) => f.message))}`);
        const f = errors[0]!;
        assert.equal(f.code, 'schema');
        assert.equal(p.text.slice(f.offset, f.offset + f.length), quoted, p.format);
        assert.ok(f.message.includes(quoted), `${p.format}: ${f.message}`);
        assert.doesNotMatch(f.message, /Infinity|NaN|e\+\d/, p.format);
        assert.match(f.message, /no exponent/, p.format);
      }
    });
  }

  it('reads plain decimal percents exactly and integer amounts exactly', () => {
    for (const p of both('12345678901234567891', '0.5')) {
      const op = p.plan?.operations[0];
      assert.ok(op?.op === 'swap', `${p.format}: ${JSON.stringify(p.findings.map((f) => f.message))}`);
      assert.equal(op.amount_in, 12345678901234567891n);
      assert.equal(op.slippage_tolerance, 0.5);
    }
  });

  it('refuses .inf and .nan in YAML, and a fraction or exponent in bin ids and policy integers', () => {
    for (const [text, quoted] of [
      [swapYaml('1000', '.inf'), '.inf'],
      [swapYaml('1000', '.nan'), '.nan'],
      [plan(`  - { op: add, pool: ${POOL1}, bins: [{ bin_id: 5.0, x_amount: 1, y_amount: 0 }] }\n`), '5.0'],
      [
        `version: 1\npolicy: { max_tip_lag: 1e1 }\n` +
          `operations:\n  - { op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 1 }\n`,
        '1e1',
      ],
    ] as const) {
      const p = parsePlan(text, { fileName: 'a.dlmm.yaml' });
      const f = p.findings.find((x) => x.severity === 'error');
      assert.ok(f, quoted);
      assert.equal(p.text.slice(f.offset, f.offset + f.length), quoted);
      assert.ok(f.message.includes(quoted), f.message);
    }
  });

  // YAML's other number forms: the `yaml` library reads 0x1000 as 4096 (and 017 as 17, where YAML 1.1 reads
  // octal 15); plans refuse them all, quoting the text, and the fast reader and the full parser agree.
  const forms: Array<[string, RegExp]> = [
    ['0x1000', /hexadecimal/],
    ['0o17', /octal number/],
    ['017', /leading zero \(octal in YAML 1\.1\)/],
    ['-017', /leading zero/],
    ['+5', /plus sign/],
    ['1_000', /_ separators/],
    ['0b101', /binary/],
    ['.inf', /infinity/],
    ['1e3', /exponent/],
    ['!!int 0x10', /hexadecimal/],
  ];
  const addYaml = (field: string, v: string) =>
    `version: 1\noperations:\n  - op: add\n    pool: ${POOL1}\n    bins:\n      - bin_id: ${field === 'bin_id' ? v : '0'}\n        x_amount: ${field === 'x_amount' ? v : '1'}\n        y_amount: 0\n`;
  for (const [written, form] of forms) {
    for (const field of ['x_amount', 'bin_id']) {
      it(`refuses ${field}: ${written}, quoting it, in both YAML readers alike`, () => {
        const text = addYaml(field, written);
        const quoted = written.replace('!!int ', '');
        // A document marker makes the fast reader (lightYaml.ts) hand the whole text to the yaml library.
        const fast = parsePlan(text, { fileName: 'a.dlmm.yaml' });
        const full = parsePlan('---\n' + text, { fileName: 'a.dlmm.yaml' });
        for (const [p, shift] of [
          [fast, 0],
          [full, 4],
        ] as const) {
          assert.equal(p.plan, undefined);
          const errors = p.findings.filter((f) => f.severity === 'error');
          assert.equal(errors.length, 1, JSON.stringify(errors.map((f) => f.message)));
          const f = errors[0]!;
          assert.equal(f.code, 'schema');
          assert.equal(p.text.slice(f.offset, f.offset + f.length), quoted);
          assert.ok(f.message.includes(`"${quoted}"`), f.message);
          assert.match(f.message, form);
          assert.match(f.message, new RegExp(`^operations\\[0\\]\\.bins\\[0\\]\\.${field} is `));
          // Never re-shown as the decimal a YAML reader makes of it.
          assert.doesNotMatch(f.message, / is -?(4096|15|17|16|1000)\b/, f.message);
          assert.equal(f.offset - shift, fast.findings[0]!.offset);
        }
        assert.deepEqual(
          full.findings.map((f) => f.message),
          fast.findings.map((f) => f.message),
        );
      });
    }
  }

  it('a sender written as a number is quoted as written, never shown as a decimal', () => {
    const text = `version: 1\nsender: 0x1234abcd\noperations:\n  - { op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 1 }\n`;
    for (const p of [parsePlan(text), parsePlan('---\n' + text)]) {
      const f = p.findings.find((x) => x.severity === 'error');
      assert.ok(f);
      assert.match(f.message, /^sender is "0x1234abcd"; expected a standard principal/);
      assert.doesNotMatch(f.message, /305441741/);
    }
  });

  it('keeps plain decimal integers, and digit strings without a leading zero, as numbers', () => {
    const p = parsePlan(addYaml('x_amount', '4096'), { fileName: 'a.dlmm.yaml' });
    const op = p.plan?.operations[0];
    assert.ok(op?.op === 'add', JSON.stringify(p.findings));
    assert.equal(op.bins[0]!.x_amount, 4096n);
    const quoted = parsePlan(addYaml('x_amount', '"0"'), { fileName: 'a.dlmm.yaml' });
    assert.equal(quoted.findings.filter((f) => f.severity === 'error').length, 0);
    const padded = parsePlan(addYaml('x_amount', '"0017"'), { fileName: 'a.dlmm.yaml' });
    assert.match(padded.findings[0]?.message ?? '', /"0017" \(a number with a leading zero/);
  });
});
