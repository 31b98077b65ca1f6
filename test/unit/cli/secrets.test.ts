/** Which configured keys the CLI redacts from everything it prints (cli/src/io.ts configuredSecrets). */
import { strict as assert } from 'node:assert';
import { configuredSecrets } from '../../../cli/src/io';
import { fatalText } from '../../../cli/src/main';
import { safeText } from '../../../core/text/safe';

describe('CLI: configured secrets', () => {
  it('covers the service key, the core swap API keys and the --api-key-env variable', () => {
    const env = {
      DLMM_API_KEY: 'sk-service-1234',
      BITFLOW_API_KEY: 'sk-bitflow-5678',
      READONLY_CALL_API_KEY: 'sk-readonly-9012',
      KEEPER_API_KEY: 'sk-keeper-3456',
      MY_KEY: 'sk-custom-7890',
      OTHER: 'not-a-secret-value',
    };
    const secrets = configuredSecrets(env, ['check', '--api-key-env', 'MY_KEY']);
    assert.deepEqual(
      [...secrets].sort(),
      ['sk-bitflow-5678', 'sk-custom-7890', 'sk-keeper-3456', 'sk-readonly-9012', 'sk-service-1234'].sort(),
    );
    const echoed = `HTTP 500 (invalid key ${Object.values(env).join(', ')})`;
    const shown = safeText(echoed, secrets);
    for (const k of secrets) assert.ok(!shown.includes(k), `${k} leaked: ${shown}`);
    assert.ok(shown.includes('not-a-secret-value'));
  });

  it('the last-resort line (a failure of main itself) is redacted and escaped too', () => {
    const env = { DLMM_API_KEY: 'sk-service-1234', MY_KEY: 'sk-custom-7890' };
    const line = fatalText(
      new Error('write EPIPE sk-service-1234 sk-custom-7890 \u001b]0;owned\u0007'),
      ['check', '--api-key-env=MY_KEY'],
      env,
    );
    assert.equal(line, 'dlmm: write EPIPE [redacted] [redacted] \\u001b]0;owned\\u0007\n');
  });
});
