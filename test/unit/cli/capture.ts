/** A CliIO that keeps what a command writes, with no environment (so no service is configured). */
import type { CliIO } from '../../../cli/src/io';

export function capture(): CliIO & { text: () => { out: string; err: string } } {
  let out = '';
  let err = '';
  return {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env: {},
    cwd: process.cwd(),
    text: () => ({ out, err }),
  };
}
