/**
 * The product's docs run: every plan example of docs/plan-format.md goes through `dlmm check --sim` (the
 * ones marked clean must pass with exit 0), the world example of docs/world.md is served by
 * `dlmm sim --world` and a plan is checked against it over loopback HTTP, and the docs link only to files
 * that exist in the repository (never outside it).
 *
 * Markers (an HTML comment right before a fenced block): `<!-- docs-example: clean -->` a plan with no
 * finding; `<!-- docs-example: world -->` a world file.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { serve } from '../../../cli/src/commands/sim';
import type { CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';

const ROOT = join(__dirname, '../../..');
const DOCS = join(ROOT, 'docs');

interface Block {
  doc: string;
  marker: string;
  lang: string;
  body: string;
}

function blocks(doc: string): Block[] {
  const text = readFileSync(join(DOCS, doc), 'utf8');
  return [...text.matchAll(/<!-- docs-example: (\w+) -->\s*```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    doc,
    marker: m[1]!,
    lang: m[2]!,
    body: m[3]!,
  }));
}

async function dlmm(argv: string[], cwd: string, env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('the docs run', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dlmm-docs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const plans = blocks('plan-format.md');
  it('docs/plan-format.md has its examples', () => {
    assert.ok(plans.length >= 5, `found ${plans.length}`);
  });
  plans.forEach((b, i) => {
    it(`docs/plan-format.md example ${i + 1} (${b.lang}, ${b.marker}) passes dlmm check --sim`, async () => {
      const file = join(dir, `example-${i + 1}.dlmm.${b.lang === 'json' ? 'json' : 'yaml'}`);
      writeFileSync(file, b.body);
      const r = await dlmm(['check', '--sim', '--format', 'json', file], dir);
      const doc = JSON.parse(r.out) as {
        files: Array<{ diagnostics: Array<{ code: string; message: string }> }>;
      };
      const found = doc.files[0]!.diagnostics;
      assert.deepEqual(found, [], `${b.doc} example ${i + 1}: ${JSON.stringify(found)}`);
      assert.equal(r.code, 0, r.err);
    });
  });

  it('docs/world.md: the world example is served by dlmm sim --world and answers a check', async () => {
    const worlds = blocks('world.md').filter((b) => b.marker === 'world');
    assert.equal(worlds.length, 1);
    const file = join(dir, 'small.yaml');
    writeFileSync(file, worlds[0]!.body);
    let out = '';
    let err = '';
    let up!: () => void;
    const listening = new Promise<void>((r) => (up = r));
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const io: CliIO = {
      out: (t) => {
        out += t;
        up();
      },
      err: (t) => void (err += t),
      env: {},
      cwd: dir,
    };
    const served = serve(['--port', '0', '--world', 'small.yaml'], io, () => stopped);
    const result = await Promise.race([
      listening.then(() => 'up'),
      served.then((c) => `exited ${c}: ${err}`),
    ]);
    assert.equal(result, 'up');
    try {
      const env: Record<string, string> = {};
      for (const m of err.matchAll(/^ {2}export (DLMM_[A-Z_]+)=(\S+)$/gm)) env[m[1]!] = m[2]!;
      writeFileSync(
        join(dir, 'w.dlmm.yaml'),
        'version: 1\nsender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR\noperations:\n  - op: withdraw\n    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10\n    bins: [138, 139]\n',
      );
      const r = await dlmm(['check', '--format', 'json', 'w.dlmm.yaml'], dir, env);
      const codes = (
        JSON.parse(r.out) as { files: Array<{ diagnostics: Array<{ code: string }> }> }
      ).files[0]!.diagnostics.map((d) => d.code);
      // Bin 139 is not among the user's positions in this world (138 and 140 are).
      assert.deepEqual(codes, ['no-user-liquidity'], out + err);
    } finally {
      stop();
      assert.equal(await served, 0);
    }
  });

  it('the docs and the README link only to files in the repository', () => {
    const files = [
      join(ROOT, 'README.md'),
      ...readdirSync(DOCS)
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(DOCS, f)),
    ];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(
        text,
        /\.\.\/shared|SPEC\.md|interface document/,
        `${file} points outside the product`,
      );
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        assert.ok(existsSync(resolve(dirname(file), target)), `${file}: link to ${target} leads nowhere`);
      }
    }
  });
});
