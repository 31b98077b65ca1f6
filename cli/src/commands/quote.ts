import type { CliIO } from '../io';

/** `dlmm quote`: placeholder until its issue lands (replaced, not extended). */
export async function run(_args: string[], io: CliIO): Promise<number> {
  io.err('dlmm quote: not available in this build yet\n');
  return 2;
}
