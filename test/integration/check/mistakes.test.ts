/**
 * Every plan under examples/mistakes/ shows the findings it is named after, on the default world (`dlmm check
 * --sim`, the simulated engine over loopback): NAMED_AFTER holds each file's name -> the codes its name
 * promises, and each file's `shows:` comment lists the codes it demonstrates, all of which it must produce.
 * A new example must be added here (and say what it shows), so no example is named after what it never shows.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';
import { DIAGNOSTIC_CODES } from '../../../core/plan/diagnostics';

const ROOT = join(__dirname, '../../..');
const MISTAKES = join(ROOT, 'examples', 'mistakes');

/** File name -> the codes its name is after. */
const NAMED_AFTER: Record<string, string[]> = {
  'unknown-pool-token.dlmm.yaml': ['pool-not-found', 'token-unknown'],
  'user-liquidity.dlmm.yaml': ['no-user-liquidity', 'amount-exceeds-user-liquidity'],
  'wrong-side.dlmm.yaml': ['wrong-token-side'],
};

async function check(file: string): Promise<{ code: number; codes: string[]; out: string }> {
  let out = '';
  const io: CliIO = { out: (t) => void (out += t), err: () => undefined, env: {}, cwd: ROOT };
  const code = await main(['check', '--sim', '--format', 'json', file], io);
  const doc = JSON.parse(out) as { files: Array<{ diagnostics: Array<{ code: string }> }> };
  return { code, codes: doc.files[0]!.diagnostics.map((d) => d.code), out };
}

describe('examples/mistakes: each plan shows the findings it is named after (default world)', function () {
  this.timeout(60_000);
  const files = readdirSync(MISTAKES).filter((f) => /\.dlmm\.(ya?ml|json)$/.test(f));

  it('every example is listed here and says what it shows', () => {
    assert.deepEqual(files.sort(), Object.keys(NAMED_AFTER).sort());
    for (const f of files) {
      const shows = /^#.*\bshows: ([a-z-]+(?:, [a-z-]+)*)/m.exec(readFileSync(join(MISTAKES, f), 'utf8'));
      assert.ok(shows, `${f}: add a "# shows: code, code" comment`);
      const listed = shows[1]!.split(', ');
      for (const c of listed) assert.ok(c in DIAGNOSTIC_CODES, `${f}: ${c} is not a diagnostic code`);
      for (const c of NAMED_AFTER[f]!) assert.ok(listed.includes(c), `${f}: its shows: line omits ${c}`);
    }
  });

  for (const f of Object.keys(NAMED_AFTER)) {
    it(`${f} produces what it shows`, async () => {
      const text = readFileSync(join(MISTAKES, f), 'utf8');
      const listed = /^#.*\bshows: ([a-z-]+(?:, [a-z-]+)*)/m.exec(text)?.[1]?.split(', ') ?? [];
      const r = await check(join('examples', 'mistakes', f));
      assert.equal(r.code, 1, `a mistake has error findings: ${r.out}`);
      for (const c of new Set([...NAMED_AFTER[f]!, ...listed]))
        assert.ok(r.codes.includes(c), `${f} does not produce ${c}: ${r.codes.join(', ')}`);
    });
  }
});
