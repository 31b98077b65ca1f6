/** Shared by the e2e suites: the one harness of the run, the product's CLI as the oracle, text positions. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './lib/codeServer';
import { startHarness, type Harness } from './harness';

const run = promisify(execFile);
let current: Harness | undefined;
let starting: Promise<Harness> | undefined;

/** The harness of this run, started on first use (one code-server and one browser for every suite). */
export function harness(): Promise<Harness> {
  starting ??= startHarness().then((h) => (current = h));
  return starting;
}

/** Stops the harness if one was started (the runner's root afterAll). */
export async function stopHarness(): Promise<void> {
  const h = current ?? (await starting?.catch(() => undefined));
  current = undefined;
  starting = undefined;
  await h?.stop();
}

/** Runs the built CLI (`node bin/dlmm.js ...`) and returns its stdout; a non-zero exit is not an error here. */
export async function dlmm(args: string[], timeoutMs = 60_000): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'bin', 'dlmm.js'), ...args], {
      cwd: REPO_ROOT,
      timeout: timeoutMs,
      maxBuffer: 16 << 20,
      env: { ...process.env, DLMM_API_URL: '', DLMM_API_KEY: '' },
    });
    return { stdout, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; code?: number | string; stderr?: string };
    if (typeof e.code === 'number' && e.stdout) return { stdout: e.stdout, code: e.code };
    throw new Error(`dlmm ${args.join(' ')} failed: ${String(err)}\n${e.stderr ?? ''}`);
  }
}

/** One diagnostic of `dlmm check --format json` (docs/cli.md). */
export interface CliDiagnostic {
  code: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  operation?: string;
}

/** What the analyzer finds in one file against the embedded simulator, read from the CLI. */
export async function cliFindings(file: string): Promise<CliDiagnostic[]> {
  const { stdout } = await dlmm(['check', '--sim', '--format', 'json', file]);
  const doc = JSON.parse(stdout) as { files: Array<{ path: string; diagnostics: CliDiagnostic[] }> };
  return doc.files.flatMap((f) => f.diagnostics);
}

/** One-based line and column of the `nth` match of `pattern` (group 1 if present) in `text`. */
export function positionOf(
  text: string,
  pattern: RegExp,
  nth = 0,
): { line: number; column: number; offset: number } {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  const matches = [...text.matchAll(new RegExp(pattern.source, `${flags}d`))];
  const m = matches[nth];
  if (!m || m.index === undefined) throw new Error(`pattern ${pattern} (match ${nth}) not found`);
  const offset = m.indices?.[1]?.[0] ?? m.index;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1, offset };
}
