/**
 * The test-only requests (testHooks.ts) live in the tests' own server, dist/server-test.js: no bundle the
 * VSIX (.vscodeignore) or the npm package (.npmignore) ships holds them, and neither ships that entry.
 * Reads the built dist/ (`node esbuild.mjs`).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness';

/** The dist/ files a whitelist keeps: its `!` lines under dist/, `*` matching within a name. */
function kept(file: string, prefix: string): (name: string) => boolean {
  const patterns = readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith(prefix))
    .map((l) => new RegExp(`^${l.slice(prefix.length).replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`));
  assert.ok(patterns.length > 0, `${file} keeps no ${prefix} files`);
  return (name) => patterns.some((p) => p.test(name));
}

describe('shipped bundles hold no test-only request', () => {
  const dist = join(ROOT, 'dist');
  const whitelists: [string, (name: string) => boolean][] = [
    ['.vscodeignore', kept('.vscodeignore', '!dist/')],
    ['.npmignore', kept('.npmignore', '!/dist/')],
  ];

  before(() => {
    if (!existsSync(join(dist, 'server-test.js')))
      throw new Error('dist/server-test.js is missing: run `node esbuild.mjs` first');
  });

  it("the tests' server answers them, and neither package ships it", () => {
    assert.ok(readFileSync(join(dist, 'server-test.js'), 'utf8').includes('dlmm/test/'));
    for (const [file, ships] of whitelists)
      assert.ok(!ships('server-test.js'), `${file} ships server-test.js`);
  });

  it("no bundle either package ships contains 'dlmm/test/'", () => {
    const scripts = readdirSync(dist).filter((f) => f.endsWith('.js'));
    for (const [file, ships] of whitelists) {
      const shipped = scripts.filter(ships);
      assert.ok(
        shipped.includes(file === '.npmignore' ? 'cli.js' : 'server.js'),
        `${file}: ${shipped.join(', ')}`,
      );
      for (const name of shipped) {
        const text = readFileSync(join(dist, name), 'utf8');
        assert.ok(!text.includes('dlmm/test/'), `dist/${name} (shipped by ${file}) contains 'dlmm/test/'`);
        assert.ok(
          !text.includes('DLMM_TEST_HOOKS'),
          `dist/${name} (shipped by ${file}) contains DLMM_TEST_HOOKS`,
        );
      }
    }
  });
});
