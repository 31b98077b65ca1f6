/** Export time for a 350-position plan, including serialization to tx-hex (budget <= 50 ms). */
import { buildTransactions } from '../../core/tx/build';
import { formatWalletRequest, txHexes } from '../../core/tx/formats';
import type { PreparedOperation } from '../../core/prepare/prepared';
import { POOL_SBTC_USDCX } from '../../core/sim/defaultWorld';
import { addItem, analysisOf, PUBLIC_KEY, snapshot, testEngine } from '../unit/tx/fixtures';
import type { BenchRow } from './types';

export async function bench(): Promise<BenchRow[]> {
  const engine = testEngine();
  const p = engine.poolByPrincipal(POOL_SBTC_USDCX)!;
  const items = Array.from({ length: 350 }, (_, i) =>
    addItem(engine, p, i, p.activeBinId + 1 + (i % 200), 1000n + BigInt(i), 0n),
  );
  const op: PreparedOperation = {
    id: 'bench',
    index: 0,
    op: 'add',
    mode: 'strict',
    pool: snapshot(engine, p),
    items,
  };
  const analysis = analysisOf(engine, [op]);
  const once = async () => {
    const r = await buildTransactions(analysis, {
      publicKey: PUBLIC_KEY,
      nonce: 1n,
      fee: 1000n,
      now: () => 0,
    });
    if (!r.ok) throw new Error(r.error.message);
    await txHexes(r.transactions, { publicKey: PUBLIC_KEY, nonce: 1n, fee: 1000n });
    formatWalletRequest(r.transactions);
  };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)]!;
  return [
    {
      name: 'export 350-position add (build + tx-hex + wallet-request, p50)',
      value: p50,
      unit: 'ms',
      budget: '<= 50 ms',
      ok: p50 <= 50,
    },
  ];
}
