/** The editor export's pure parts: file naming, input validation, argument parsing, key memory, refusal text. */
import assert from 'node:assert/strict';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import fc from 'fast-check';
import { parseExportArgs } from '../../../../client/src/export/args';
import {
  normalizePublicKey,
  parseUnsignedInteger,
  publicKeyProblem,
  publicKeySenderProblem,
  U64_MAX,
  unsignedIntegerProblem,
} from '../../../../client/src/export/inputs';
import {
  publicKeyStorageKey,
  recallPublicKey,
  rememberPublicKey,
  type KeyValueStore,
} from '../../../../client/src/export/keyMemory';
import { exportFileName, isPlanPath, planStem, safeIdPart } from '../../../../core/tx/naming';
import { toMarkdown } from '../../../../client/src/export/pipeline';
import { describeRefusal, MAX_LISTED_FINDINGS } from '../../../../client/src/export/refusal';
import { operationAtOffset } from '../../../../client/src/export/target';
import { EXPORT_FORMATS } from '../../../../core/tx/formats';
import type { Finding } from '../../../../core/plan/diagnostics';

const KEY = privateKeyToPublic('44'.repeat(32) + '01') as string;
const SENDER = getAddressFromPublicKey(KEY, 'mainnet');

class MemoryStore implements KeyValueStore {
  readonly map = new Map<string, unknown>();
  get(key: string): unknown {
    return this.map.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.map.set(key, value);
  }
}

describe('export-ui: file naming', () => {
  it('writes <stem>.<all|op-ID>.<format>.<ext> next to the plan, never a plan file name', () => {
    assert.equal(exportFileName('/w/plans/asks.dlmm.yaml', undefined, 'summary'), 'asks.all.summary.md');
    assert.equal(
      exportFileName('C:\\w\\asks.dlmm.json', 'seed-asks', 'tx-hex'),
      'asks.op-seed-asks.tx-hex.txt',
    );
    assert.equal(exportFileName('asks.dlmm.yml', '3', 'wallet-request'), 'asks.op-3.wallet-request.json');
    assert.equal(exportFileName('asks.dlmm.yml', 'all', 'json'), 'asks.op-all.json.json');
    for (const f of EXPORT_FORMATS)
      assert.equal(isPlanPath(exportFileName('a.dlmm.yaml', undefined, f)), false);
  });

  it('keeps op ids file-safe and bounded, whatever they contain', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (id) => {
        const part = safeIdPart(id);
        assert.match(part, /^[A-Za-z0-9_-]{1,60}$/);
        const name = exportFileName('p.dlmm.yaml', id, 'json');
        assert.ok(!name.includes('/') && !name.includes('\\') && !name.includes('..'), name);
      }),
      { numRuns: 200 },
    );
    assert.equal(planStem('/x/.dlmm.yaml'), 'plan');
    assert.equal(isPlanPath('/x/a.dlmm.YAML'), true);
    assert.equal(isPlanPath('/x/a.yaml'), false);
  });
});

describe('export-ui: inputs', () => {
  it('accepts a 33-byte compressed key (0x and case tolerated) and explains every other form', () => {
    assert.equal(publicKeyProblem(KEY), undefined);
    assert.equal(publicKeyProblem(`  0x${KEY.toUpperCase()} `), undefined);
    assert.equal(normalizePublicKey(`0x${KEY.toUpperCase()}`), KEY);
    assert.match(publicKeyProblem('')!, /66 hex digits/);
    assert.match(publicKeyProblem('zz')!, /not hex/);
    assert.match(publicKeyProblem('04' + 'ab'.repeat(64))!, /uncompressed/);
    assert.match(publicKeyProblem('02abcd')!, /got 6/);
    assert.match(publicKeyProblem('05' + 'ab'.repeat(32))!, /starts with 02 or 03, got 05/);
  });

  it("checks the key against the plan's sender for immediate feedback", () => {
    assert.equal(publicKeySenderProblem(KEY, SENDER, 'mainnet'), undefined);
    assert.equal(publicKeySenderProblem(KEY, undefined, 'mainnet'), undefined);
    const other = privateKeyToPublic('55'.repeat(32) + '01') as string;
    assert.match(publicKeySenderProblem(other, SENDER, 'mainnet')!, new RegExp(`sender is ${SENDER}`));
    // The same key on the other network is another principal.
    assert.match(publicKeySenderProblem(KEY, SENDER, 'testnet')!, /belongs to ST/);
  });

  it('parses nonce and fee exactly as bigint within u64, and rejects everything else', () => {
    assert.equal(parseUnsignedInteger(' 18446744073709551615 ', 'fee'), U64_MAX);
    assert.equal(parseUnsignedInteger('9007199254740993', 'nonce'), 9007199254740993n);
    assert.match(unsignedIntegerProblem('18446744073709551616', 'fee')!, /at most 18446744073709551615/);
    for (const bad of ['', '-1', '1.5', '1e3', '0x10', '12 3'])
      assert.ok(unsignedIntegerProblem(bad, 'nonce'), bad);
    assert.throws(() => parseUnsignedInteger('-1', 'nonce'), RangeError);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), (n) => {
        assert.equal(unsignedIntegerProblem(n.toString(), 'nonce'), undefined);
        assert.equal(parseUnsignedInteger(n.toString(), 'nonce'), n);
      }),
      { numRuns: 200 },
    );
  });
});

describe('export-ui: command arguments', () => {
  it('reads (uri, opId), the lens object {uri, operation}, a Uri-like, or nothing', () => {
    assert.deepEqual(parseExportArgs(['file:///a.dlmm.yaml', 'seed']), {
      uri: 'file:///a.dlmm.yaml',
      opId: 'seed',
    });
    assert.deepEqual(parseExportArgs(['file:///a.dlmm.yaml']), { uri: 'file:///a.dlmm.yaml' });
    assert.deepEqual(parseExportArgs(['file:///a.dlmm.yaml', 2]), { uri: 'file:///a.dlmm.yaml', opId: '2' });
    assert.deepEqual(parseExportArgs([{ uri: 'file:///b.dlmm.json', operation: 'x' }]), {
      uri: 'file:///b.dlmm.json',
      opId: 'x',
    });
    const uriLike = { scheme: 'file', path: '/c.dlmm.yaml', toString: () => 'file:///c.dlmm.yaml' };
    assert.deepEqual(parseExportArgs([uriLike]), { uri: 'file:///c.dlmm.yaml' });
    assert.deepEqual(parseExportArgs([]), {});
    assert.deepEqual(parseExportArgs([42, { nope: 1 }]), {});
    assert.deepEqual(parseExportArgs(['file:///a.dlmm.yaml', { bad: true }]), { uri: 'file:///a.dlmm.yaml' });
  });
});

describe('export-ui: public key memory', () => {
  it('remembers only a valid public key, per sender, and validates what it reads back', async () => {
    const store = new MemoryStore();
    assert.equal(recallPublicKey(store, SENDER), undefined);
    await rememberPublicKey(store, SENDER, `0x${KEY.toUpperCase()}`);
    assert.equal(recallPublicKey(store, SENDER), KEY);
    assert.equal(recallPublicKey(store, 'SP000000000000000000002Q6VF78'), undefined);
    assert.equal(recallPublicKey(store, undefined), undefined);
    await rememberPublicKey(store, 'SPOTHER', 'not-a-key');
    assert.deepEqual([...store.map.keys()], [publicKeyStorageKey(SENDER)]);
    store.map.set(publicKeyStorageKey('SPX'), { evil: true });
    assert.equal(recallPublicKey(store, 'SPX'), undefined);
  });
});

describe('export-ui: refusal and preview text', () => {
  const text = 'version: 1\noperations:\n  - op: add\n    bins: [{ bin_id: 130 }]\n';
  const finding = (offset: number, code: Finding['code'], severity: Finding['severity'] = 'error'): Finding =>
    ({ code, severity, message: `${code} here`, offset, length: 3, operation: '0' }) as Finding;

  it('lists the error findings with 1-based line:column, code and operation', () => {
    const offset = text.indexOf('130');
    const r = describeRefusal(
      {
        code: 'plan-has-errors',
        message: 'x',
        findings: [finding(offset, 'wrong-token-side'), finding(0, 'slippage-unit', 'warning')],
      },
      text,
      'a.dlmm.yaml',
    );
    assert.match(r.message, /a\.dlmm\.yaml has 1 error\(s\) and is not exported/);
    assert.equal(
      r.detail,
      `line 4:${text.split('\n')[3]!.indexOf('130') + 1} wrong-token-side (operation 0): wrong-token-side here`,
    );
  });

  it('bounds the list and falls back to the exporter message when no finding is attached', () => {
    const many = Array.from({ length: MAX_LISTED_FINDINGS + 5 }, () => finding(0, 'schema'));
    const r = describeRefusal({ code: 'plan-has-errors', message: 'x', findings: many }, text, 'p');
    assert.equal(r.detail.split('\n').length, MAX_LISTED_FINDINGS + 1);
    assert.match(r.detail, /and 5 more/);
    const s = describeRefusal({ code: 'sender-missing', message: 'add sender', findings: [] }, text, 'p');
    assert.deepEqual(s, { message: 'DLMM: p is not exported: add sender', detail: '' });
  });

  it('wraps the summary in a fence longer than any backtick run in it', () => {
    const md = toMarkdown('T\nitle', 'a ``` b\nc');
    assert.ok(md.startsWith('# T itle\n\n````text\na ``` b\nc\n````\n'), md);
    assert.ok(toMarkdown('t', 'plain\n').includes('```text\nplain\n```\n'));
  });

  it('finds the operation under the cursor from the parser source map', () => {
    const plan =
      'version: 1\noperations:\n  - id: first\n    op: withdraw\n    pool: dlmm_1\n  - op: withdraw\n    pool: dlmm_2\n';
    assert.deepEqual(operationAtOffset(plan, 'p.dlmm.yaml', plan.indexOf('dlmm_1')), {
      id: 'first',
      index: 0,
      count: 2,
    });
    assert.deepEqual(operationAtOffset(plan, 'p.dlmm.yaml', plan.indexOf('dlmm_2')), {
      id: '1',
      index: 1,
      count: 2,
    });
    assert.equal(operationAtOffset(plan, 'p.dlmm.yaml', 2), undefined);
  });
});
