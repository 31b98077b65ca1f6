import type { CliIO } from '../io';

/** `dlmm status`: placeholder until its issue lands (replaced, not extended). */
export async function run(_args: string[], io: CliIO): Promise<number> {
  io.err('dlmm status: not available in this build yet\n');
  return 2;
}
