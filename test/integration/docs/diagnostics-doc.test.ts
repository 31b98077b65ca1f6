/**
 * docs/diagnostics.md and the code list in core/plan/diagnostics.ts stay in step: every code has a section
 * with its severity, when, an example, how to fix it and its quick fix; and every runnable example produces
 * its code (offline, or against the simulated engine over loopback HTTP with the real client).
 *
 * Example markers (an HTML comment right before the example's fenced block):
 *   <!-- example: offline -->                  analyzeOffline
 *   <!-- example: sim -->                      against the default world
 *   <!-- example: sim state={...} -->          after POST /api/admin/state with that JSON
 *   <!-- example: sim world={"dlmm_1":{...}} --> with pool flags changed in the default world
 *   <!-- example: sim no-inventory no-node --> without the client's inventory / node sources
 *   <!-- example: unreachable -->              against a closed port
 *   <!-- example: described -->                prose only (a condition no plan can produce on its own)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createApiClient } from '../../../core/api/client';
import { analyzeOffline, analyzePlan, type Analysis } from '../../../core/check/analyze';
import { defaultSeverity, DIAGNOSTIC_CODES, type DiagnosticCode } from '../../../core/plan/diagnostics';
import { API_ERROR_CODES } from '../../../core/api/errors';
import { RULES } from '../../../core/check/rules';
import { EXPORT_ERROR_CODES } from '../../../core/tx/types';
import { admin, clientFor, startSimulator, worldWithFlags, type RunningSimulator } from '../check/sim';

const DOC = join(__dirname, '../../../docs/diagnostics.md');

interface Section {
  code: string;
  body: string;
}

function sections(text: string): Section[] {
  const out: Section[] = [];
  const re = /^### `([^`]+)`\s*$/gm;
  const heads = [...text.matchAll(re)];
  heads.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < heads.length ? (heads[i + 1]!.index ?? text.length) : text.length;
    out.push({ code: m[1]!, body: text.slice(start, end) });
  });
  return out;
}

function template(code: string): string {
  const sev = DIAGNOSTIC_CODES[code as DiagnosticCode];
  const sevText =
    typeof sev === 'string' ? sev : `${sev[0]} (strict operations and swaps) / ${sev[1]} (simple operations)`;
  return [
    `### \`${code}\``,
    '',
    `**Severity:** ${sevText}`,
    '',
    '**When:** <what triggers it, in words>',
    '',
    '**Example:**',
    '',
    '<!-- example: offline | sim | sim state={...} | described -->',
    '```yaml',
    'version: 1',
    'operations: [...]   # a whole plan that produces the code',
    '```',
    '',
    '**Fix:** <what the user changes>',
    '',
    '**Quick fix:** none. | "<title of the code action>" <what it does>.',
  ].join('\n');
}

const text = readFileSync(DOC, 'utf8');
const docSections = sections(text);
const byCode = new Map(docSections.map((s) => [s.code, s]));
const codes = Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[];

interface Example {
  code: DiagnosticCode;
  mode: string;
  yaml: string | undefined;
  quickFix: boolean;
}

function examples(): Example[] {
  return docSections
    .filter((s) => s.code in DIAGNOSTIC_CODES)
    .map((s) => {
      const mode = /<!-- example: (.+?) -->/.exec(s.body)?.[1]?.trim() ?? '';
      const yaml = /<!-- example: .+? -->\s*```ya?ml\n([\s\S]*?)```/.exec(s.body)?.[1];
      const quickFix = !/\*\*Quick fix:\*\* none\./.test(s.body);
      return { code: s.code as DiagnosticCode, mode, yaml, quickFix };
    });
}

describe('docs/diagnostics.md in step with core/plan/diagnostics.ts', () => {
  it('documents every code of DIAGNOSTIC_CODES, and nothing else', () => {
    const missing = codes.filter((c) => !byCode.has(c));
    assert.deepEqual(
      missing,
      [],
      `docs/diagnostics.md has no section for ${missing.join(', ')}. Add a row to its Index table and, under ` +
        `"## Codes", a section like this for each (the example must produce the code; see the markers at the ` +
        `top of test/integration/docs/diagnostics-doc.test.ts):\n\n${missing.map(template).join('\n\n')}\n`,
    );
    const extra = docSections.map((s) => s.code).filter((c) => !(c in DIAGNOSTIC_CODES));
    assert.deepEqual(
      extra,
      [],
      `docs/diagnostics.md documents codes that core/plan/diagnostics.ts does not have: ${extra.join(', ')}`,
    );
    const indexed = new Set([...text.matchAll(/^\| \[`([^`]+)`\]/gm)].map((m) => m[1]));
    const notIndexed = codes.filter((c) => !indexed.has(c));
    assert.deepEqual(
      notIndexed,
      [],
      `docs/diagnostics.md: add a row to the Index table for ${notIndexed.join(', ')}: ` +
        notIndexed.map((c) => `| [\`${c}\`](#${c}) | <severity> | <yes/no> |`).join(' '),
    );
  });

  it('lists every code a command can print: findings (every rule), export refusals and service errors', () => {
    // Finding codes come from the registry and from the rules themselves (a rule's code must be registered).
    for (const rule of RULES) assert.ok(rule.code in DIAGNOSTIC_CODES, `rule ${rule.code} is not registered`);
    const table = (marker: string): string[] => {
      const at = text.indexOf(`<!-- codes: ${marker} -->`);
      assert.ok(at >= 0, `docs/diagnostics.md has no <!-- codes: ${marker} --> table`);
      const end = text.indexOf('\n## ', at);
      const body = text.slice(at, end < 0 ? text.length : end);
      return [...body.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1]!);
    };
    for (const [marker, fromCode] of [
      ['export', EXPORT_ERROR_CODES],
      ['service', API_ERROR_CODES],
    ] as const) {
      const listed = table(marker);
      const missing = fromCode.filter((c) => !listed.includes(c));
      const extra = listed.filter((c) => !(fromCode as readonly string[]).includes(c));
      assert.deepEqual(missing, [], `docs/diagnostics.md's ${marker} table misses ${missing.join(', ')}`);
      assert.deepEqual(
        extra,
        [],
        `docs/diagnostics.md's ${marker} table lists unknown codes ${extra.join(', ')}`,
      );
    }
  });

  it('gives each code its severity, when, example, fix and quick fix', () => {
    for (const code of codes) {
      const s = byCode.get(code);
      if (!s) continue; // reported above
      const sev = /\*\*Severity:\*\* (.+)/.exec(s.body)?.[1] ?? '';
      const words = [...sev.matchAll(/\b(error|warning|info)\b/g)].map((m) => m[1]);
      const expected = [defaultSeverity(code, true), defaultSeverity(code, false)];
      const declared = DIAGNOSTIC_CODES[code];
      assert.deepEqual(
        words,
        typeof declared === 'string' ? [declared] : expected,
        `docs/diagnostics.md \`${code}\`: the **Severity:** line must read ${typeof declared === 'string' ? declared : `${expected[0]} (strict operations and swaps) / ${expected[1]} (simple operations)`}`,
      );
      for (const part of ['**When:**', '**Example:**', '**Fix:**', '**Quick fix:**'])
        assert.ok(s.body.includes(part), `docs/diagnostics.md \`${code}\`: missing ${part}`);
      assert.match(
        s.body,
        /<!-- example: .+ -->/,
        `docs/diagnostics.md \`${code}\`: the example needs a marker`,
      );
    }
  });

  describe('every runnable example produces its code (and a quick fix when the doc names one)', function () {
    let sim: RunningSimulator;
    before(async () => {
      sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    });
    after(async () => {
      await sim?.close();
    });

    for (const ex of examples()) {
      if (ex.mode === 'described') continue;
      it(`${ex.code} (${ex.mode})`, async () => {
        assert.ok(ex.yaml, `docs/diagnostics.md \`${ex.code}\`: a '${ex.mode}' example needs a yaml block`);
        const analysis = await run(ex, sim);
        const hits = analysis.findings.filter((f) => f.code === ex.code);
        assert.ok(
          hits.length > 0,
          `the example of \`${ex.code}\` gave ${JSON.stringify(analysis.findings.map((f) => f.code))}`,
        );
        if (ex.code !== 'syntax' && ex.code !== 'schema')
          assert.ok(
            !analysis.findings.some((f) => f.code === 'syntax' || f.code === 'schema'),
            `the example of \`${ex.code}\` is not a valid plan: ${analysis.findings.map((f) => f.message).join('; ')}`,
          );
        const hasFix = hits.some((f) => (f.fixes ?? []).length > 0);
        assert.equal(
          hasFix,
          ex.quickFix,
          `docs/diagnostics.md \`${ex.code}\`: the doc says ${ex.quickFix ? 'a quick fix exists' : '"Quick fix: none."'}, the finding ${hasFix ? 'has' : 'has none'}`,
        );
      });
    }
  });
});

async function run(ex: Example, sim: RunningSimulator): Promise<Analysis> {
  const yaml = ex.yaml as string;
  const fileName = 'example.dlmm.yaml';
  if (ex.mode === 'offline') return analyzeOffline(yaml, { fileName });
  if (ex.mode === 'unreachable') {
    const port = await closedPort();
    const api = createApiClient({ baseUrl: `http://127.0.0.1:${port}/api`, timeoutMs: 2000, maxRetries: 0 });
    try {
      return await analyzePlan(yaml, { api, fileName });
    } finally {
      await api.close?.();
    }
  }
  assert.match(ex.mode, /^sim\b/, `unknown example marker '${ex.mode}'`);
  const world = /world=(\{.*\})/.exec(ex.mode)?.[1];
  const state = /state=(\{.*\})/.exec(ex.mode)?.[1];
  const own = world
    ? await startSimulator({ host: '127.0.0.1', port: 0, world: worldWithFlags(JSON.parse(world)) })
    : undefined;
  const target = own ?? sim;
  const api = clientFor(target, {
    inventory: !/\bno-inventory\b/.test(ex.mode),
    node: !/\bno-node\b/.test(ex.mode),
  });
  try {
    if (state) await admin(target, '/state', JSON.parse(state));
    return await analyzePlan(yaml, { api, fileName });
  } finally {
    await api.close?.();
    if (state) await admin(target, '/reset', {});
    await own?.close();
  }
}

/** A loopback port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
