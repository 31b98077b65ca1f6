/** World files and the default world: validation messages, geometric prices, consistent positions. */
import assert from 'node:assert/strict';
import { BIN_ID_OFFSET } from '../../../core/dlmm/bins';
import { SimEngine } from '../../../core/sim/engine';
import { geometricBinPrices } from '../../../core/sim/prices';
import { DEFAULT_USER, SBTC, STX_WRAPPER } from '../../../core/sim/defaultWorld';
import { WorldError, loadWorld } from '../../../core/sim/world';
import { defaultWorld } from '../../../core/sim/defaultWorld';

const MINIMAL = `
tokens:
  - { contract: SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token, symbol: sBTC, decimals: 8, asset_name: sbtc-token }
  - { contract: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx, symbol: USDCx, decimals: 6, asset_name: usdcx-token }
pools:
  - id: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10
    alias: dlmm_1
    token_x: SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token
    token_y: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx
    bin_step: 10
    fees: { x_protocol: 25, x_provider: 25, y_protocol: 25, y_provider: 25 }
    active_bin: 0
    active_price: 340282366920938463463374607431768211455
    bins:
      - { bin_id: -1, reserve_x: 0, reserve_y: 1000000 }
`;

function problemsOf(text: string): string[] {
  try {
    loadWorld(text, 'w.yaml');
  } catch (e) {
    assert.ok(e instanceof WorldError);
    return e.problems;
  }
  assert.fail('expected a WorldError');
}

describe('sim world', () => {
  it('reads a minimal YAML world with integers beyond 2^64 exactly and defaults filled in', () => {
    const w = loadWorld(MINIMAL);
    assert.equal(w.pools[0]!.active_price, 2n ** 128n - 1n);
    assert.equal(w.status.tip_lag, 0);
    assert.equal(w.limits.requests_per_second, 50);
  });

  it('reports each problem with its path', () => {
    const table: [string, RegExp][] = [
      [MINIMAL.replace('alias: dlmm_1', 'alias: pool one'), /pools\.0\.alias/],
      [MINIMAL.replace('bin_step: 10', 'bin_step: ten'), /pools\.0\.bin_step/],
      [
        MINIMAL.replace('reserve_x: 0, reserve_y: 1000000', 'reserve_x: 5, reserve_y: 1000000'),
        /below the active bin hold only Y/,
      ],
      [
        MINIMAL.replace(
          'token_y: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx',
          'token_y: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.nope',
        ),
        /not in tokens/,
      ],
      [MINIMAL + 'surprise: 1\n', /surprise|Unrecognized/i],
      ['tokens: [', /not valid YAML/],
    ];
    for (const [text, re] of table) {
      let message = '';
      try {
        loadWorld(text, 'w.yaml');
      } catch (e) {
        message = e instanceof Error ? e.message : '';
      }
      assert.match(message, re);
      assert.match(message, /^w\.yaml/);
    }
  });

  it('rejects users owning more shares than a bin has', () => {
    const w = defaultWorld();
    w.users[0]!.positions[0]!.bins.push({ bin_id: 136, share_percent: 900_000n });
    assert.throws(() => new SimEngine(w), /above its total/);
    assert.ok(
      problemsOf(MINIMAL + 'users: [{ address: alice }]\n').some((p) => p.startsWith('users.0.address')),
    );
  });

  it('computes prices by the exact geometric rule around the active bin', () => {
    const prices = geometricBinPrices(139, 76060388561n, 10);
    assert.equal(prices[139 + BIN_ID_OFFSET], 76060388561n);
    for (const b of [140, 145, 500, 138, 100, -500]) {
      const n = BigInt(Math.abs(b - 139));
      const expected =
        b > 139 ? (76060388561n * 10010n ** n) / 10000n ** n : (76060388561n * 10000n ** n) / 10010n ** n;
      assert.equal(prices[b + BIN_ID_OFFSET], expected, `bin ${b}`);
    }
  });

  it('ships a default world: mainnet sBTC/USDCx, bin steps 1/10/20, the STX wrapper, a user with positions', () => {
    const w = defaultWorld();
    assert.deepEqual(new Set(w.pools.map((p) => p.bin_step)), new Set([1, 10, 20]));
    assert.equal(w.tokens.find((t) => t.contract === STX_WRAPPER)?.asset_name, null);
    assert.ok(w.api_keys.length > 0);
    const engine = new SimEngine(w);
    let poolsWithPositions = 0;
    for (const pool of engine.pools()) {
      assert.ok(engine.binsWithReserves(pool).length >= 40, `${pool.alias} has tens of bins`);
      const mine = engine.userBins(pool, DEFAULT_USER);
      if (mine.length >= 2) poolsWithPositions++;
      for (const { binId, shares } of mine) {
        assert.ok(shares > 0n && shares <= engine.bin(pool, binId).shares);
      }
    }
    assert.ok(poolsWithPositions >= 2);
  });

  it("reads users' balances by token contract (the STX wrapper is native STX); an unknown token is refused", () => {
    const engine = new SimEngine(defaultWorld());
    assert.equal(engine.balanceOf(DEFAULT_USER, STX_WRAPPER), 10_000_000_000_000n);
    assert.equal(engine.balanceOf(DEFAULT_USER, SBTC), 1_000_000_000n);
    // 1,000,000 sBTC is beyond what the default user holds; any other principal holds nothing.
    assert.ok(engine.balanceOf(DEFAULT_USER, SBTC) < 100_000_000_000_000n);
    assert.equal(engine.balanceOf('SP000000000000000000002Q6VF78', SBTC), 0n);
    const withBalances = `${MINIMAL}users:
  - address: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
    balances: { SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token: 340282366920938463463374607431768211455 }
`;
    const big = new SimEngine(loadWorld(withBalances, 'w.yaml'));
    assert.equal(big.balanceOf(DEFAULT_USER, SBTC), 340282366920938463463374607431768211455n);
    assert.throws(
      () => loadWorld(withBalances.replace('sbtc-token: 3', 'nothing: 3'), 'w.yaml'),
      /users\.0\.balances\.SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4\.nothing: .* is not in tokens/,
    );
  });

  it("holds the core's minimum shares (launch values by default) and users' nonces; refuses what the core refuses", () => {
    const w = loadWorld(MINIMAL);
    assert.deepEqual(w.core, { minimum_bin_shares: 10_000n, minimum_burnt_shares: 1_000n });
    const engine = new SimEngine(w);
    assert.deepEqual(engine.minimumShares, { binShares: 10_000n, burntShares: 1_000n });
    assert.equal(engine.nonceOf(DEFAULT_USER), 0n);
    const raised = loadWorld(
      `${MINIMAL}core: { minimum_bin_shares: 20000, minimum_burnt_shares: 5000 }
users:
  - { address: ${DEFAULT_USER}, nonce: 12 }
`,
    );
    const e2 = new SimEngine(raised);
    assert.deepEqual(e2.minimumShares, { binShares: 20_000n, burntShares: 5_000n });
    assert.deepEqual(e2.pools()[0]!.minimumShares, { binShares: 20_000n, burntShares: 5_000n });
    assert.equal(e2.nonceOf(DEFAULT_USER), 12n);
    // set-minimum-shares asserts both > 0 and bin > burnt.
    assert.deepEqual(
      problemsOf(`${MINIMAL}core: { minimum_bin_shares: 1000, minimum_burnt_shares: 1000 }\n`),
      [
        'core.minimum_bin_shares: must be above core.minimum_burnt_shares (set-minimum-shares refuses otherwise)',
      ],
    );
    assert.match(
      problemsOf(`${MINIMAL}core: { minimum_bin_shares: 1000, minimum_burnt_shares: 0 }\n`).join(' '),
      /core\.minimum_burnt_shares: must be > 0/,
    );
  });
});
