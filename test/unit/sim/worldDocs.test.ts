/** docs/world.md's own example is a valid world (read as `dlmm sim --world` reads it: integers as bigint). */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWorld } from '../../../core/sim/world';

describe('world file docs example', () => {
  it('loads the example of docs/world.md (version: 1, integer share_percent)', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/world.md'), 'utf8');
    const block = /## World file[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(block, 'docs/world.md has a yaml example under "World file"');
    assert.match(block, /^version: 1$/m);
    assert.match(block, /share_percent: 30\b/);
    const world = loadWorld(block, 'docs/world.md');
    assert.equal(world.version, 1);
    assert.equal(world.pools[0]?.alias, 'dlmm_1');
  });

  it('refuses another version with a clear message', () => {
    assert.throws(
      () => loadWorld('version: 2\ntokens: []\npools: []\n', 'w.yaml'),
      /version: expected version 1/,
    );
  });
});
