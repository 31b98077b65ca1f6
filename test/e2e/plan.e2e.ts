/**
 * A plan with mistakes, as a user meets it: the analyzer's findings in the Problems panel (the same ones the
 * CLI reports for that file), a hover on a bin, and a quick fix that repairs the file.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProblemEntry } from './lib/workbench';
import { cliFindings, harness, positionOf, type CliDiagnostic } from './support';

const PLAN = 'wrong-side.dlmm.yaml';
const PLAN_PATH = join('mistakes', PLAN);

/** One finding as `code severity @line:column` (one-based), the way both sides are compared. */
function key(code: string, severity: string, line: number, column: number): string {
  return `${code} ${severity} @${line}:${column}`;
}
const fromCli = (d: CliDiagnostic): string =>
  key(d.code, d.severity, d.range.start.line + 1, d.range.start.character + 1);
const fromPanel = (p: ProblemEntry): string => key(p.code, p.severity, p.line, p.column);
const sameList = (a: string[], b: string[]): boolean =>
  JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

describe(`plan in the editor: ${PLAN_PATH}`, function () {
  let file: string;
  let expected: CliDiagnostic[];

  before(async () => {
    const h = await harness();
    file = join(h.workspace, PLAN_PATH);
    // The oracle: what the analyzer reports for this very file against the embedded simulator.
    expected = (await cliFindings(file)).filter((d) => d.severity !== 'hint');
    assert.ok(
      expected.length > 0,
      `the CLI finds nothing in ${PLAN_PATH}; this suite needs an example with findings`,
    );
    await h.workbench.openFile(PLAN);
  });

  it('shows the analyzer findings in the Problems panel', async () => {
    const { workbench } = await harness();
    const want = expected.map(fromCli);
    const entries = await workbench.waitForProblems(
      (all) => sameList(all.filter((p) => p.file === PLAN).map(fromPanel), want),
      90_000,
    );
    await workbench.screenshot('10-problems');
    const shown = entries.filter((p) => p.file === PLAN);
    assert.deepEqual(shown.map(fromPanel).sort(), [...want].sort());
    // Each entry shows the message the analyzer wrote, from the extension's source.
    for (const d of expected) {
      const entry = shown.find((p) => fromPanel(p) === fromCli(d));
      assert.ok(
        entry?.message.startsWith(d.message.slice(0, 40).replace(/\s+/g, ' ')),
        `message of ${d.code}: '${entry?.message}'`,
      );
    }
  });

  it('hovers a bin and shows what the editor knows about it', async () => {
    const { workbench } = await harness();
    const text = readFileSync(file, 'utf8');
    const m = /bin_id:\s*(\d+)/.exec(text);
    assert.ok(m?.[1], 'plan has a bin_id');
    const bin = m[1];
    const at = positionOf(text, /bin_id:\s*(\d+)/);
    const hover = await workbench.hoverAt(at.line, at.column + 1, new RegExp(`\\b${bin}\\b`));
    await workbench.screenshot('11-hover-bin');
    await workbench.escape();
    assert.match(hover, new RegExp(`\\b${bin}\\b`), `hover text: ${hover}`);
    assert.match(hover, /bin/i, `hover text: ${hover}`);
  });

  it('applies the unsigned-bin-id quick fix and the finding goes away', async () => {
    const { workbench } = await harness();
    const target = expected.find((d) => d.code === 'unsigned-bin-id');
    assert.ok(target, `expected an unsigned-bin-id finding in ${PLAN_PATH}`);
    const before = readFileSync(file, 'utf8');
    const unsigned = Number(
      /-?\d+/.exec(
        before.split('\n')[target.range.start.line]?.slice(target.range.start.character) ?? '',
      )?.[0],
    );
    const signed = unsigned - 500; // docs/contracts.md: unsigned id = signed id + 500
    const title = await workbench.applyQuickFix(
      target.range.start.line + 1,
      target.range.start.character + 1,
      new RegExp(`\\b${signed}\\b`),
    );
    await workbench.save();
    const after = readFileSync(file, 'utf8');
    assert.notEqual(after, before, `quick fix '${title}' changed nothing on disk`);
    assert.match(after.split('\n')[target.range.start.line] ?? '', new RegExp(`bin_id:\\s*${signed}\\b`));
    // The editor and the CLI agree on the repaired file.
    const want = (await cliFindings(file)).filter((d) => d.severity !== 'hint').map(fromCli);
    assert.ok(!want.some((k) => k.startsWith('unsigned-bin-id')), 'CLI still reports unsigned-bin-id');
    const entries = await workbench.waitForProblems(
      (all) => sameList(all.filter((p) => p.file === PLAN).map(fromPanel), want),
      60_000,
    );
    await workbench.screenshot('12-after-quick-fix');
    assert.deepEqual(
      entries
        .filter((p) => p.file === PLAN)
        .map(fromPanel)
        .sort(),
      [...want].sort(),
    );
  });

  it('offers the unsigned export command while a plan is open', async () => {
    const { workbench } = await harness();
    const titles = await workbench.commandTitles('DLMM: Export');
    // The issue names it "Export Unsigned Transactions"; the singular title is accepted too.
    assert.ok(
      titles.some((t) => /^DLMM: Export Unsigned Transactions?$/.test(t)),
      `palette shows: ${titles.join(' | ') || 'none'}`,
    );
  });

  after(async () => {
    const { workbench } = await harness();
    await workbench.closeAllEditors().catch(() => undefined);
  });
});
