/** core/api/environment.ts: each environment to its service, or to why there is none (one table). */
import assert from 'node:assert/strict';
import {
  PRODUCTION_API_URL,
  resolveService,
  type ServiceChoice,
  type ServiceEndpoints,
  type SimulatorEndpoints,
} from '../../../core/api/environment';

const SIM: SimulatorEndpoints = {
  url: 'http://127.0.0.1:5000/api',
  inventoryUrl: 'http://127.0.0.1:5000/api/mm/v1',
  nodeUrl: 'http://127.0.0.1:5000/node',
};

const table: Array<{
  name: string;
  choice: ServiceChoice;
  simulator?: SimulatorEndpoints;
  expect: ServiceEndpoints | RegExp;
}> = [
  {
    name: 'production: the hosted service, whatever apiUrl says',
    choice: { environment: 'production', apiUrl: 'http://elsewhere/api', nodeUrl: ' http://node/ ' },
    expect: { apiUrl: PRODUCTION_API_URL, nodeUrl: 'http://node/' },
  },
  {
    name: 'custom: the URLs set',
    choice: { environment: 'custom', apiUrl: 'http://h:1/api', inventoryUrl: 'http://h:1/api/mm/v1' },
    expect: { apiUrl: 'http://h:1/api', inventoryUrl: 'http://h:1/api/mm/v1' },
  },
  {
    name: 'custom without apiUrl: none, and what to set',
    choice: { environment: 'custom', apiUrl: '  ' },
    expect: /^dlmm\.environment is custom and dlmm\.apiUrl is empty: set dlmm\.apiUrl/,
  },
  {
    name: 'development without apiUrl: never a guessed host',
    choice: { environment: 'development' },
    expect: /^dlmm\.environment is development and dlmm\.apiUrl is empty/,
  },
  {
    name: 'simulator: the running one, whatever apiUrl says',
    choice: { environment: 'simulator', apiUrl: 'http://ignored/api' },
    simulator: SIM,
    expect: { apiUrl: SIM.url, inventoryUrl: SIM.inventoryUrl!, nodeUrl: SIM.nodeUrl! },
  },
  {
    name: 'simulator not running: none, and why',
    choice: { environment: 'simulator' },
    expect: /^dlmm\.environment is simulator and no simulator is running$/,
  },
];

describe('resolveService: an environment to its service', () => {
  for (const row of table)
    it(row.name, () => {
      const got = resolveService(row.choice, row.simulator);
      if (row.expect instanceof RegExp) {
        assert.equal(got.apiUrl, undefined);
        assert.match(got.noService ?? '', row.expect);
      } else assert.deepEqual(got, row.expect);
    });
});
