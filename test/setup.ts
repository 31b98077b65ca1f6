/**
 * Loaded by mocha before every suite (.mocharc.json). The processes the tests start (CLI, language server)
 * keep their per-user caches (compiled code, node bin facts) in the platform's cache folder; the suite points
 * that folder at a temporary one, so a test run never writes into the developer's own cache or reads what an
 * earlier build left there. DLMM_CACHE_DIR is left alone: tests that want a disk cache set it themselves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'dlmm-test-cache-'));
process.env.XDG_CACHE_HOME = dir;
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
