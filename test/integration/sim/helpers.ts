/** Shared helpers of the simulator contract tests: a simulator per suite and exact-JSON HTTP calls. */
import { parseJsonExact } from '../../../core/api/json';
import { DEFAULT_SIM_API_KEY } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import type { World } from '../../../core/sim/world';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  // Tests read many different bodies; each assertion names the field it expects.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Calls `url` with the simulator's key (unless `key` is null) and reads the body as exact JSON. */
export async function call(
  url: string,
  init: { method?: string; body?: unknown; key?: string | null } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  const key = init.key === undefined ? DEFAULT_SIM_API_KEY : init.key;
  if (key !== null) headers['X-API-Key'] = key;
  let body: string | undefined;
  if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  }
  const res = await fetch(url, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = parseJsonExact(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Starts a simulator for a mocha suite; `sim()` gives the running one. */
export function useSimulator(world?: () => World): () => RunningSimulator {
  let sim: RunningSimulator | undefined;
  before(async () => {
    sim = await startSimulator({ world: world?.() });
  });
  after(async () => {
    await sim?.close();
  });
  return () => {
    if (!sim) throw new Error('simulator not started');
    return sim;
  };
}

/**
 * A real unsigned transaction the simulator reverts: a call of a function no contract of the world has
 * (for tests of `dlmm sim apply` that need a transaction, not a particular one).
 */
export async function revertingTxHex(): Promise<string> {
  const { makeUnsignedContractCall, privateKeyToPublic } = await import('@stacks/transactions');
  const tx = await makeUnsignedContractCall({
    contractAddress: 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR',
    contractName: 'no-such-contract',
    functionName: 'no-such-function',
    functionArgs: [],
    publicKey: privateKeyToPublic('66'.repeat(32) + '01') as string,
    network: 'mainnet',
    fee: 1000,
    nonce: 0,
  });
  return tx.serialize();
}
