import assert from 'node:assert/strict';
import { maxLiquidityFee, minDlp, minReceived } from '../../../core/dlmm/math';
import { contractErrorCode, contractErrorsByCode } from '../../../core/dlmm/contractErrors';
import { percentToPpm } from '../../../core/dlmm/percent';

describe('dlmm math: slippage bounds', () => {
  const onePercent = percentToPpm(1) as bigint;

  it('minDlp floors and never goes below 1', () => {
    assert.equal(minDlp(1_000_000n, onePercent), 990_000n);
    assert.equal(minDlp(50n, onePercent), 49n); // 49.5 floors
    assert.equal(minDlp(1n, 500_000n), 1n);
    assert.equal(minDlp(0n, 0n), 1n);
    assert.equal(minDlp(24_937_577_008n, 0n), 24_937_577_008n);
    assert.equal(minDlp(1_000n, 2_000_000n), 1n); // tolerance above 100%
  });

  it('maxLiquidityFee rounds up and keeps a zero fee at zero', () => {
    assert.equal(maxLiquidityFee(1_666n, onePercent), 1_683n); // 1682.66 rounds up
    assert.equal(maxLiquidityFee(100n, onePercent), 101n);
    assert.equal(maxLiquidityFee(0n, onePercent), 0n);
    assert.equal(maxLiquidityFee(940_778n, 0n), 940_778n);
  });

  it('minReceived floors', () => {
    assert.equal(minReceived(75_680_086n, onePercent), 74_923_285n);
    assert.equal(minReceived(99n, percentToPpm('0.5') as bigint), 98n);
    assert.equal(minReceived(0n, onePercent), 0n);
    assert.equal(minReceived(1_000n, 1_000_000n), 0n);
  });
});

describe('dlmm errors: contract constants', () => {
  it('resolves codes per contract', () => {
    assert.equal(contractErrorCode('ERR_MINIMUM_X_AMOUNT'), 1022);
    assert.equal(contractErrorCode('ERR_MINIMUM_X_AMOUNT', 'dlmm-swap-router-v-1-1'), 2004);
    assert.equal(contractErrorCode('ERR_MINIMUM_X_AMOUNT', 'dlmm-liquidity-router-v-1-1'), 5002);
    assert.equal(contractErrorCode('ERR_INVALID_AMOUNT', 'dlmm-pool'), 3002);
    assert.equal(contractErrorCode('ERR_MINIMUM_RECEIVED'), 2003);
    assert.equal(contractErrorCode('ERR_MATCHING_BIN_ID', 'dlmm-pool'), undefined);
    assert.equal(contractErrorCode('RUNTIME_OVERFLOW'), undefined);
  });

  it('finds names by code', () => {
    assert.deepEqual(contractErrorsByCode(1046), [
      { name: 'ERR_MATCHING_BIN_ID', contract: 'dlmm-core-v-1-1' },
    ]);
    assert.deepEqual(contractErrorsByCode(5007), [
      { name: 'ERR_INVALID_BIN_ID', contract: 'dlmm-liquidity-router-v-1-1' },
      { name: 'ERR_INVALID_BIN_ID', contract: 'dlmm-liquidity-router-v-1-2' },
    ]);
    assert.deepEqual(contractErrorsByCode(2012), [
      { name: 'ERR_DEADLINE_PASSED', contract: 'dlmm-swap-router-v-1-2' },
    ]);
    assert.deepEqual(contractErrorsByCode(9999), []);
  });
});
