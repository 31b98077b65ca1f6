/**
 * The language server as the extension starts it (dist/server.js with client/src/serverProcess.ts's Node
 * flags, over stdio here): a plan gets its offline and then its live diagnostics; the bundles it loads
 * (the LSP protocol, the engine, the HTTP client, the execution) are written to the V8 code cache when the
 * session ends, and a second session started on that cache answers the same. Also: everything the entry
 * loads is in the VSIX (.vscodeignore's list).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { scalePlan } from '../../bench/lspScale.bench';
import { extensionServer, ROOT, startLsp } from './harness';

describe("language server started as the extension starts it (dist/server.js, the extension's flags)", function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let cacheDir: string;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    cacheDir = mkdtempSync(join(tmpdir(), 'dlmm-lsp-cache-'));
  });

  after(async () => {
    await sim?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  async function session(): Promise<string[]> {
    const lsp = await startLsp({
      command: extensionServer(),
      env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl, DLMM_CACHE_DIR: cacheDir },
      initializationOptions: { debounceMs: 0, statusPollMs: 600_000, analysisEvents: true },
    });
    try {
      // A valid plan (checked live and executed) and one with a schema error (an unknown field).
      const texts = [
        scalePlan(1),
        scalePlan(2).replace('    mode: strict\n', '    mode: strict\n    colour: red\n'),
      ];
      const codes: string[] = [];
      for (const [i, text] of texts.entries()) {
        const uri = `file:///work/entry/plan-${i}.dlmm.yaml`;
        lsp.open(uri, text);
        await lsp.live(uri, 1, 30_000);
        const d = await lsp.diagnostics(uri, () => true, 1000);
        codes.push(
          `${i}: ${d
            .map((x) => String(x.code))
            .sort()
            .join(' ')}`,
        );
      }
      return codes;
    } finally {
      await lsp.close();
    }
  }

  it('publishes live diagnostics, writes the code cache at exit and answers the same from it', async () => {
    const first = await session();
    assert.match(first[1] ?? '', /\S+$/, 'the unknown field is reported');
    const cached = readdirSync(join(cacheDir, 'v8'));
    for (const bundle of ['lazy-lsp-protocol', 'lazy-server-engine', 'lazy-api-client', 'lazy-execute'])
      assert.ok(
        cached.some((f) => f.startsWith(`${bundle}.`) && f.endsWith('.bin')),
        `${bundle} cached (${cached.join(', ')})`,
      );
    assert.deepEqual(await session(), first);
  });

  it('ships every bundle the server entry loads (.vscodeignore)', () => {
    const kept = new Set(
      readFileSync(join(ROOT, '.vscodeignore'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('!dist/'))
        .map((l) => l.slice('!dist/'.length)),
    );
    // Every ./lazy-*.js required by the server's bundles, transitively.
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(ROOT, 'dist', file), 'utf8');
      for (const m of text.matchAll(/require\("\.\/(lazy-[a-z-]+\.js)"\)/g)) visit(m[1] as string);
    };
    visit('server.js');
    assert.ok(seen.has('lazy-server-engine.js') && seen.has('lazy-lsp-protocol.js'), [...seen].join(', '));
    for (const file of seen) assert.ok(kept.has(file), `${file} is not in the VSIX`);
  });
});
