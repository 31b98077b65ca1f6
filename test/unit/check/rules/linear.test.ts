/**
 * Rules on a plan of many operations: the work is linear in the plan (bin-not-found, the unchecked-operation
 * pass). The rule runs on a real parse
 * with a live pool built here (a unit test of one rule: the simulator's pools list 1,001 bins, so a real
 * read could not show a short list); the prepared list and the bin list count how often they are read.
 */
import assert from 'node:assert/strict';
import { parsePlan } from '../../../../core/plan/parse';
import type { LiveData, LivePool } from '../../../../core/live/live';
import type { PreparedOperation } from '../../../../core/prepare/prepared';
import { binNotFound } from '../../../../core/check/rules/bin-not-found';
import type { RuleContext } from '../../../../core/check/rules/rule';
import { uncheckedOperationFindings } from '../../../../core/check/unchecked';
import type { Finding } from '../../../../core/plan/diagnostics';
import { plan, POOL1 } from '../../plan/helpers';

/** A bin list by id that counts how often its ids are walked. */
class CountingBins extends Map<number, never> {
  walks = 0;
  override keys(): MapIterator<number> {
    this.walks++;
    return super.keys();
  }
}

function context(ops: number, target: (i: number) => number) {
  const text = plan(
    Array.from(
      { length: ops },
      (_, i) =>
        `  - { op: add, pool: ${POOL1}, bins: [{ bin_id: ${target(i)}, x_amount: 1, y_amount: 0 }] }\n`,
    ).join(''),
  );
  const parsed = parsePlan(text);
  assert.ok(parsed.plan, parsed.findings.map((f) => f.message).join('\n'));
  const bins = new CountingBins();
  for (let id = -10; id <= 10; id++) bins.set(id, undefined as never);
  const lp = { bins: { bins: [] }, activeBinId: 0, binById: bins } as unknown as LivePool;
  const live = { byPool: new Map([[POOL1, lp]]) } as unknown as LiveData;
  let reads = 0;
  const list = Array.from({ length: ops }, (_, i) => ({ index: i, op: 'add' }) as PreparedOperation);
  const prepared = new Proxy(list, {
    get(t, k, r) {
      if (typeof k === 'string' && /^\d+$/.test(k)) reads++;
      return Reflect.get(t, k, r) as unknown;
    },
  });
  const ctx: RuleContext = { parsed, plan: parsed.plan, live, prepared, maxTipLag: 3 };
  return { ctx, bins, reads: () => reads };
}

describe('bin-not-found: linear in the number of operations', () => {
  it('reads each prepared operation once and walks the bin list once, for 4,000 operations with a finding each', () => {
    const { ctx, bins, reads } = context(4000, (i) => 100 + (i % 300));
    const found = binNotFound.run(ctx);
    assert.equal(found.length, 4000);
    // The message is what it was: the list's count, span and active bin.
    assert.equal(
      found[0]!.message,
      "bin 100 is not in the pool's bin list (21 bins, -10..10, active 0); target a listed bin",
    );
    assert.ok(reads() <= 4000, `${reads()} reads of the prepared list (quadratic: ~8,000,000)`);
    assert.ok(bins.walks <= 1, `${bins.walks} walks of the bin list`);
  });

  it('never walks the bin list when every target is listed', () => {
    const { ctx, bins } = context(500, (i) => (i % 21) - 10);
    assert.deepEqual(binNotFound.run(ctx), []);
    assert.equal(bins.walks, 0);
  });
});

describe('unchecked operations: linear in operations and findings', () => {
  it('reads the findings a few times in all, not once per operation (3,000 operations, 3,000 findings)', () => {
    const { ctx } = context(3000, () => 0);
    let reads = 0;
    const list: Finding[] = Array.from({ length: 3000 }, () => ({
      code: 'zero-amount',
      severity: 'info',
      message: 'm',
      offset: 0,
      length: 0,
      operation: 'elsewhere',
    }));
    const findings = new Proxy(list, {
      get(t, k, r) {
        if (typeof k === 'string' && /^\d+$/.test(k)) reads++;
        return Reflect.get(t, k, r) as unknown;
      },
    });
    // Nothing prepared: every operation is unchecked and says so.
    const found = uncheckedOperationFindings({ ...ctx, prepared: [] }, findings);
    assert.equal(found.length, 3000);
    assert.ok(reads <= 4 * 3000, `${reads} reads of the findings (quadratic: ~9,000,000)`);
  });
});
