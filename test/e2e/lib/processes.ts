/** Child processes for the e2e harness: started in their own process group, stopped by pid, waited on with bounds. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

/** A process the harness started; its output is kept for waits and copied to a log file. */
export interface Started {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything the process printed so far (stdout and stderr interleaved). */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects on exit or after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
}

/** Starts `command` detached (its own process group) so stopProcess can end it and its children by pid. */
export function startProcess(
  command: string,
  args: string[],
  logFile: string,
  opts: SpawnOptions = {},
): Started {
  const child = spawn(command, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const log: WriteStream = createWriteStream(logFile);
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    log.write(chunk);
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  child.on('exit', () => {
    log.end();
    for (const l of listeners) l();
  });
  return {
    child,
    pid: child.pid,
    output: () => text,
    waitForOutput: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const m = text.match(pattern);
          if (m) return finish(() => resolve(m));
          if (child.exitCode !== null || child.signalCode !== null) {
            finish(() =>
              reject(
                new Error(
                  `${command} exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}; output:\n${tail(text)}`,
                ),
              ),
            );
          }
        };
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new Error(
                  `timed out after ${timeoutMs} ms waiting for ${pattern} from ${command}; output:\n${tail(text)}`,
                ),
              ),
            ),
          timeoutMs,
        );
        const finish = (settle: () => void): void => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      }),
  };
}

/** Ends the process group led by `pid`: SIGTERM, then SIGKILL if it is still alive after `graceMs`. */
export async function stopProcess(started: Started, graceMs = 5000): Promise<void> {
  const { child, pid } = started;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  if ((await Promise.race([exited, timer])) === 'timeout') {
    signalGroup(pid, 'SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs).unref())]);
  }
  // Children that left the group's leader behind still belong to the group: make sure none survive.
  signalGroup(pid, 'SIGKILL');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function tail(text: string, lines = 30): string {
  return text.split('\n').slice(-lines).join('\n');
}
