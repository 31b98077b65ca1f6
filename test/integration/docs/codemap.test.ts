/**
 * The repository reads alone: ARCHITECTURE.md's codemap names every source file of core (a rule file is named
 * by its finding code: `rules/` holds one file per code), every folder of the faces, and nothing in the
 * repository cites files that live outside it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DIAGNOSTIC_CODES } from '../../../core/plan/diagnostics';

const ROOT = join(__dirname, '../../..');
const tracked = (): string[] =>
  execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

describe('the house reads alone', () => {
  const map = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

  it("ARCHITECTURE.md's codemap names every core source file", () => {
    const codes = new Set<string>(Object.keys(DIAGNOSTIC_CODES));
    const missing = tracked()
      .filter((f) => f.startsWith('core/') && f.endsWith('.ts'))
      .filter((f) => !(f.startsWith('core/check/rules/') && codes.has(basename(f, '.ts'))))
      .filter((f) => !map.includes(basename(f)));
    assert.deepEqual(missing, [], 'name these files in ARCHITECTURE.md');
  });

  it('every folder of core and of the faces is in the codemap', () => {
    const folders = new Set(
      tracked()
        .filter((f) => /^(core|cli|server|client|webview)\//.test(f) && f.endsWith('.ts'))
        .map((f) => f.split('/').slice(0, -1).join('/')),
    );
    const missing = [...folders].filter((d) => !map.includes(d.split('/').pop() + '/') && !map.includes(d));
    assert.deepEqual(missing, [], 'describe these folders in ARCHITECTURE.md');
  });

  it('nothing cites the files beside the repository (DOMAIN.md, STYLE.md, SPEC.md, E2E.md)', () => {
    const outside = /\b(DOMAIN|STYLE|SPEC|E2E)\.md\b/;
    const cites = tracked()
      .filter((f) => /\.(ts|mjs|cjs|js|md|sh|json|ya?ml)$/.test(f) && f !== 'CHANGELOG.md')
      .filter((f) => f !== 'test/integration/docs/codemap.test.ts')
      .filter((f) => outside.test(readFileSync(join(ROOT, f), 'utf8')));
    assert.deepEqual(cites, [], 'these files cite files outside the repository');
  });
});
