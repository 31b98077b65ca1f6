/**
 * A skipped test says why: the reason is printed beside the suite's output (mocha's reporter shows a
 * pending test by its title only), then the test (or, from a hook, its suite) is skipped.
 */
export function skipBecause(ctx: Mocha.Context, reason: string): never {
  const where = ctx.currentTest?.fullTitle() ?? ctx.test?.parent?.fullTitle() ?? '';
  console.log(`    skipped${where ? ` (${where})` : ''}: ${reason}`);
  return ctx.skip();
}
