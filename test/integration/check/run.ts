/** Runs a program of the built package as a child process, for the code cache tests. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** The repository (the built package: bin/, dist/). */
export const ROOT = join(__dirname, '../../..');

export interface Run {
  /** Null when the process was killed (the 55 s bound). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `file` with `args` in `cwd`, with exactly the environment `env`; 55 s at most. */
export function run(file: string, args: string[], env: Record<string, string>, cwd = ROOT): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: 55_000 }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: number | null }).code : 0;
      resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}
