/**
 * The embedded simulated engine for the `simulator` environment: started in the extension host on a free
 * loopback port (core/sim/server.ts), stopped with the extension.
 */
import * as vscode from 'vscode';
import type { RunningSimulator } from '../../core/sim/server';
import type { SimulatorEndpoints } from './settingsSchema';

export class SimulatorHost implements vscode.Disposable {
  private running: RunningSimulator | undefined;
  private starting: Promise<RunningSimulator> | undefined;
  private readonly changed = new vscode.EventEmitter<SimulatorEndpoints | undefined>();
  /** Fires when the simulator started or stopped. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: (line: string) => void) {}

  /** Endpoints of the running simulator, if any. */
  get endpoints(): SimulatorEndpoints | undefined {
    const r = this.running;
    return r ? { url: r.url, inventoryUrl: r.inventoryUrl, nodeUrl: r.nodeUrl } : undefined;
  }

  /** Starts the simulator (once) on 127.0.0.1 and a free port. */
  async start(): Promise<SimulatorEndpoints> {
    if (!this.running) {
      // Loaded on demand: the simulator is not part of activation unless the environment asks for it.
      this.starting ??= import('../../core/sim/server').then((m) =>
        m.startSimulator({ host: '127.0.0.1', port: 0 }),
      );
      try {
        this.running = await this.starting;
      } finally {
        this.starting = undefined;
      }
      this.log(`simulator listening on ${this.running.url}`);
      this.changed.fire(this.endpoints);
    }
    return this.endpoints as SimulatorEndpoints;
  }

  async stop(): Promise<void> {
    const r = this.running;
    this.running = undefined;
    if (r) {
      await r.close();
      this.log('simulator stopped');
      this.changed.fire(undefined);
    }
  }

  dispose(): void {
    void this.stop();
    this.changed.dispose();
  }
}
