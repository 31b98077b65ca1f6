/**
 * "DLMM: Start Simulator": starts the embedded simulated engine on a free loopback port and points this
 * session at it (settings stay untouched; `dlmm.environment: simulator` makes it the default).
 */
import type { SimulatorHost } from '../simulator';
import { describeError, withReadProgress } from './common';
import { notify } from '../notify';

/** Starts the simulator (if needed) and switches the session to it. */
export async function startSimulatorCommand(
  sim: SimulatorHost,
  useSimulator: () => void,
  quiet = false,
): Promise<boolean> {
  try {
    const ep = await withReadProgress('DLMM: starting the simulator…', () => sim.start());
    useSimulator();
    if (!quiet) void notify.info(`DLMM: simulator running at ${ep.url}; plan files are checked against it.`);
    return true;
  } catch (e) {
    void notify.error(`DLMM: the simulator did not start: ${describeError(e)}`);
    return false;
  }
}
