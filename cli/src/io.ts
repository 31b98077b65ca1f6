/** The terminal edge: results to stdout, progress to stderr (SPEC section 3). Injectable for tests. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
};

/** A usage error: exit status 2 with the message on stderr. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Command = (args: string[], io: CliIO) => Promise<number>;
