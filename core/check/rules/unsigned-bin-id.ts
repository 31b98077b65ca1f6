import { finding, replaceScalar, type Rule } from './rule';
import { looksUnsigned, writtenBinIds } from './written';

/** A bin id in 501..1000 is almost surely written in the unsigned domain (signed + 500). */
export const unsignedBinId: Rule = {
  code: 'unsigned-bin-id',
  needsLive: false,
  run(ctx) {
    return writtenBinIds(ctx.plan, looksUnsigned).map((b) => {
      const signed = b.id - 500;
      const edit = replaceScalar(ctx.parsed, b.path, signed);
      return finding(
        ctx,
        'unsigned-bin-id',
        {
          op: b.op,
          path: b.path,
          fixes: edit ? [{ title: `Use the signed bin id ${signed}`, edits: [edit], preferred: true }] : [],
        },
        `bin id ${b.id} is outside the signed range -500..500 and looks like an unsigned id (signed + 500); the signed id is ${signed}`,
      );
    });
  },
};
