/**
 * `npm ci` and `npm install` leave package-lock.json as committed: the lock's root entry says what
 * package.json says (npm rewrites the lock when they differ, e.g. a bin path changed in one only).
 * npm records a bin path without its leading "./".
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const read = (name: string) => JSON.parse(readFileSync(join(ROOT, name), 'utf8')) as Record<string, unknown>;

function npmBin(bin: unknown): Record<string, string> | undefined {
  if (bin === undefined) return undefined;
  const entries = Object.entries(bin as Record<string, string>);
  return Object.fromEntries(entries.map(([k, v]) => [k, v.replace(/^\.\//, '')]));
}

describe('package-lock.json matches package.json', () => {
  const pkg = read('package.json');
  const lock = read('package-lock.json');
  const root = (lock.packages as Record<string, Record<string, unknown>>)[''] ?? {};

  it('names the same package and version', () => {
    assert.equal(lock.name, pkg.name);
    assert.equal(lock.version, pkg.version);
    assert.equal(root.name, pkg.name);
    assert.equal(root.version, pkg.version);
    assert.equal(root.license, pkg.license);
  });

  it('records the same bin, engines and dependencies', () => {
    assert.deepEqual(root.bin, npmBin(pkg.bin));
    assert.deepEqual(root.engines, pkg.engines);
    assert.deepEqual(root.dependencies, pkg.dependencies);
    assert.deepEqual(root.devDependencies, pkg.devDependencies);
  });

  it('locks every dev dependency', () => {
    const locked = lock.packages as Record<string, unknown>;
    for (const name of Object.keys(pkg.devDependencies as Record<string, string>))
      assert.ok(locked[`node_modules/${name}`], `${name} is not in the lock`);
  });
});
