/**
 * Which service a `dlmm` environment means: the one resolution of `environment` into URLs, used by the
 * language server for every editor and by the VS Code extension for its own reads. No I/O: a simulator's
 * endpoints are given by the caller that runs it.
 */

/** The environments of the `dlmm.environment` setting (docs/editors.md). */
export const ENVIRONMENTS = ['production', 'development', 'custom', 'simulator'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * Service base of the hosted production environment (the interface document's {base_url}), as public
 * integrations use it. The development service ({dev_base_url}) has no public address: `development` uses
 * `apiUrl`, and runs offline checks only until it is set (never a guessed host).
 */
export const PRODUCTION_API_URL = 'https://bff.bitflowapis.finance/api';

/** What the settings say (empty strings: not set). */
export interface ServiceChoice {
  environment: Environment;
  apiUrl?: string;
  inventoryUrl?: string;
  nodeUrl?: string;
}

/** Endpoints of a running simulated engine (core/sim/server.ts `RunningSimulator`). */
export interface SimulatorEndpoints {
  url: string;
  inventoryUrl?: string;
  nodeUrl?: string;
}

/** The service to read; without `apiUrl`, `noService` says why there is none and what to set. */
export interface ServiceEndpoints {
  apiUrl?: string;
  inventoryUrl?: string;
  nodeUrl?: string;
  noService?: string;
}

/**
 * The endpoints an environment means: `production` the hosted service (its inventory and node URLs as
 * set), `development` and `custom` the URLs set, `simulator` the running simulator's (none running: no
 * service, and why).
 */
export function resolveService(choice: ServiceChoice, simulator?: SimulatorEndpoints): ServiceEndpoints {
  const urls = (apiUrl: string, inventoryUrl?: string, nodeUrl?: string): ServiceEndpoints => ({
    apiUrl,
    ...(given(inventoryUrl) ? { inventoryUrl: given(inventoryUrl) } : {}),
    ...(given(nodeUrl) ? { nodeUrl: given(nodeUrl) } : {}),
  });
  switch (choice.environment) {
    case 'production':
      return urls(PRODUCTION_API_URL, choice.inventoryUrl, choice.nodeUrl);
    case 'development':
    case 'custom': {
      const apiUrl = given(choice.apiUrl);
      return apiUrl
        ? urls(apiUrl, choice.inventoryUrl, choice.nodeUrl)
        : {
            noService: `dlmm.environment is ${choice.environment} and dlmm.apiUrl is empty: set dlmm.apiUrl to the service base (ending in /api)`,
          };
    }
    case 'simulator':
      return simulator
        ? urls(simulator.url, simulator.inventoryUrl, simulator.nodeUrl)
        : { noService: 'dlmm.environment is simulator and no simulator is running' };
  }
}

function given(url: string | undefined): string | undefined {
  const t = url?.trim();
  return t ? t : undefined;
}
