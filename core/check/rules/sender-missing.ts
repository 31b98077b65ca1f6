import { finding, type Rule } from './rule';

/**
 * A plan without `sender` that export would refuse (core/tx/build.ts `sender-missing`): every transaction's
 * post-conditions name the signer. Said by `check` before export is tried. A withdraw or move without a
 * sender is already a `schema` error (it cannot even be checked), so this is for adds and swaps.
 */
export const senderMissing: Rule = {
  code: 'sender-missing',
  needsLive: false,
  run(ctx) {
    if (ctx.plan.sender !== undefined) return [];
    const ops = ctx.plan.operations.filter((op) => op.op === 'add' || op.op === 'swap');
    if (ops.length === 0) return [];
    return [
      finding(
        ctx,
        'sender-missing',
        { path: [], key: true },
        `the plan has no \`sender\`: \`dlmm export\` needs the signer principal for the post-conditions of its ${ops.length === 1 ? 'transaction' : `${ops.length} transactions`} and refuses without it; add \`sender: SP...\` (the generators take --sender), and check again: the sender's balances are checked only when it is known`,
      ),
    ];
  },
};
