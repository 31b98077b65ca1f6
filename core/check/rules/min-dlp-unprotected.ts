import type { Finding } from '../../plan/diagnostics';
import type { WeakBound } from '../../tx/types';
import { finding, type Rule, type RuleContext } from './rule';

/**
 * Strict adds: bin shares unknown (v2 list liquidity is null, no other source), so min-dlp falls back to 1.
 * Every other min-dlp of 1 is the build's to judge (a simple position's bounds cover the active-bin
 * window): see `weakBoundFindings`, which the check runs on its build (core/check/execute.ts).
 */
export const minDlpUnprotected: Rule = {
  code: 'min-dlp-unprotected',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    for (const p of ctx.prepared) {
      if (p.op !== 'add' || p.mode === 'simple') continue;
      // An empty bin has zero shares (known); a bin with reserves needs its total shares.
      const unknown = p.items.filter(
        (it) => it.bin_shares_known === undefined && (it.reserve_x > 0n || it.reserve_y > 0n),
      );
      if (unknown.length === 0) continue;
      const ids = unknown.map((it) => it.bin_id);
      out.push(
        finding(
          ctx,
          'min-dlp-unprotected',
          {
            op: p.index,
            path: [
              'operations',
              p.index,
              ctx.parsed.rangeOf(['operations', p.index, 'bins']) ? 'bins' : 'distribution',
            ],
            key: true,
          },
          `bin shares are unknown for ${unknown.length} of ${p.items.length} bins (${shown(ids)}): the v2 bin list has liquidity null and no node or inventory source gave them, so min-dlp falls back to 1 (no protection against a share-price change); configure DLMM_NODE_URL or an inventory source`,
        ),
      );
    }
    return out;
  },
};

const shown = (xs: readonly (string | number)[], max = 8): string =>
  xs.length > max ? `${xs.slice(0, max).join(', ')}, ...` : xs.join(', ');

/**
 * Positions whose min-dlp the check's build wrote as 1, whatever the reason (a bin of a simple position's
 * active-bin window whose price or shares were not read, no landing, a strict move's unknown shares, or
 * expected shares that slippage takes below 1): one finding per operation, on the position when there is
 * one, naming each.
 */
export function weakBoundFindings(ctx: RuleContext, weak: readonly WeakBound[]): Finding[] {
  const byOp = new Map<number, WeakBound[]>();
  for (const w of weak) byOp.set(w.opIndex, [...(byOp.get(w.opIndex) ?? []), w]);
  const out: Finding[] = [];
  for (const [index, list] of byOp) {
    const op = ctx.plan.operations[index];
    if (!op || op.op === 'swap') continue;
    const items = op.op === 'move' ? op.moves.length : (op.bins?.length ?? 0);
    const key = op.op === 'move' ? 'moves' : 'bins';
    const first = list[0] as WeakBound;
    // One position of the plan's own list: the finding sits on it; else on the list (or the distribution).
    const onItem = list.length === 1 && !first.fromDistribution && first.item < items;
    const path = onItem
      ? ['operations', index, key, first.item]
      : ['operations', index, ctx.parsed.rangeOf(['operations', index, key]) ? key : 'distribution'];
    const what = list.map((w) => `${w.label}: ${w.why}`);
    out.push(
      finding(
        ctx,
        'min-dlp-unprotected',
        { op: index, path, key: !onItem },
        `min-dlp is 1 for ${list.length} position${list.length === 1 ? '' : 's'} (no protection against fewer shares minted than expected): ${shown(what, 4)}`,
      ),
    );
  }
  return out;
}
