import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';

/** Bin shares unknown for an add (v2 list liquidity is null, no other source): min-dlp falls back to 1. */
export const minDlpUnprotected: Rule = {
  code: 'min-dlp-unprotected',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    for (const p of ctx.prepared) {
      if (p.op !== 'add') continue;
      // An empty bin has zero shares (known); a bin with reserves needs its total shares.
      const unknown = p.items.filter(
        (it) => it.bin_shares_known === undefined && (it.reserve_x > 0n || it.reserve_y > 0n),
      );
      if (unknown.length === 0) continue;
      const ids = unknown.map((it) => it.bin_id);
      const shown = ids.length > 8 ? `${ids.slice(0, 8).join(', ')}, ...` : ids.join(', ');
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
          `bin shares are unknown for ${unknown.length} of ${p.items.length} bins (${shown}): the v2 bin list has liquidity null and no node or inventory source gave them, so min-dlp falls back to 1 (no protection against a share-price change); configure DLMM_NODE_URL or an inventory source`,
        ),
      );
    }
    return out;
  },
};
