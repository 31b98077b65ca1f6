/**
 * Error constants of the Bitflow DLMM contracts (BitflowFinance/bitflow-dlmm, clarity/contracts, read
 * 2026 at commit c561b4b), with their `(err uNNNN)` codes and the contract that defines them. Names repeat
 * across contracts with different codes (ERR_MINIMUM_X_AMOUNT is u1022 in core, u2004 in the swap router,
 * u5002 in the liquidity router), so a name alone does not fix the code: use `contractErrorCode`.
 *
 * Facts recorded from the contracts (reading aid for whoever reproduces their behaviour):
 *
 * Pool read-only `get-bin-balances (id uint)` takes the UNSIGNED bin id (signed + 500) and returns
 *   `(ok {x-balance: uint, y-balance: uint, bin-shares: uint})`, defaulting to all u0 for a bin never
 *   written (it never returns err). Clarity serializes tuple keys sorted: bin-shares, x-balance, y-balance.
 *   Pool `get-active-bin-id` returns `(ok int)` (signed). `get-total-supply (token-id uint)` is the bin's
 *   bin-shares.
 *
 * Core `add-liquidity` (and `move-liquidity`'s add half) order of failure:
 *   let-bindings (evaluated first, in order): ERR_NO_POOL_DATA, ERR_INVALID_POOL, bin price
 *   (ERR_NO_BIN_FACTORS / ERR_INVALID_BIN_FACTOR / ERR_INVALID_BIN_PRICE), then any u128 overflow in the
 *   value arithmetic (runtime abort), then, for an empty bin (bin-shares == 0), intended = sqrti(value post
 *   fees) must be >= minimum-bin-shares else ERR_MINIMUM_LP_AMOUNT, and minimum-burnt-shares are minted to the
 *   burn address (pool-mint asserts amount > 0: pool ERR_INVALID_AMOUNT u3002).
 *   body: ERR_POOL_DISABLED, ERR_INVALID_X_TOKEN, ERR_INVALID_Y_TOKEN, ERR_INVALID_AMOUNT (x + y > 0),
 *   ERR_INVALID_X_AMOUNT (bin below active with x > 0), ERR_INVALID_Y_AMOUNT (bin above active with y > 0),
 *   ERR_INVALID_MIN_DLP_AMOUNT (min-dlp > 0), ERR_MINIMUM_LP_AMOUNT (dlp >= min-dlp),
 *   ERR_MAXIMUM_X_LIQUIDITY_FEE, ERR_MAXIMUM_Y_LIQUIDITY_FEE, then token transfers.
 *   The liquidity router checks each bin id against -500..500 first (ERR_INVALID_BIN_ID u5007) and, after
 *   the fold, ERR_EMPTY_POSITIONS_LIST; add-relative-liquidity-same-multi then ERR_ACTIVE_BIN_TOLERANCE.
 *
 * Core `withdraw-liquidity`: let: ERR_NO_POOL_DATA, ERR_INVALID_POOL, ERR_NO_BIN_SHARES (bin-shares > 0),
 *   x = amount * x-balance / bin-shares, y likewise, balances minus x/y (runtime underflow if amount >
 *   bin-shares). body: ERR_INVALID_X_TOKEN, ERR_INVALID_Y_TOKEN, ERR_INVALID_AMOUNT (amount > 0),
 *   ERR_INVALID_AMOUNT (min-x + min-y > 0), ERR_INVALID_AMOUNT (x + y > 0), ERR_MINIMUM_X_AMOUNT (x >= min-x),
 *   ERR_MINIMUM_Y_AMOUNT (y >= min-y); then the pool burn asserts amount <= caller's balance (pool u3002).
 *   withdraw-liquidity-same-multi checks totals after the fold: ERR_MINIMUM_X_AMOUNT / _Y_ (router u5002/u5003).
 *
 * Core `move-liquidity`: let: ERR_NO_POOL_DATA, ERR_INVALID_POOL, ERR_NO_BIN_SHARES (from bin), x/y floor as
 *   in withdraw, to-bin price, add arithmetic, first-deposit ERR_MINIMUM_LP_AMOUNT (to bin empty) — so a dust
 *   move into an empty bin fails with ERR_MINIMUM_LP_AMOUNT, not ERR_INVALID_AMOUNT.
 *   body: ERR_POOL_DISABLED, ERR_INVALID_X_TOKEN, ERR_INVALID_Y_TOKEN, ERR_INVALID_AMOUNT (amount > 0),
 *   ERR_INVALID_AMOUNT (x + y > 0), ERR_MATCHING_BIN_ID (from != to), ERR_INVALID_X_AMOUNT, ERR_INVALID_Y_AMOUNT
 *   (placement on the to bin), ERR_INVALID_MIN_DLP_AMOUNT, ERR_MINIMUM_LP_AMOUNT, ERR_MAXIMUM_X_LIQUIDITY_FEE,
 *   ERR_MAXIMUM_Y_LIQUIDITY_FEE; then pool burn (amount <= balance, pool u3002). The router checks from and to
 *   ids against -500..500 first (u5007).
 *
 * Core `swap-x-for-y` / `swap-y-for-x`: let: ERR_NO_POOL_DATA, ERR_INVALID_POOL, ERR_INVALID_BIN_PRICE,
 *   ERR_NO_UNCLAIMED_PROTOCOL_FEES_DATA. body: ERR_POOL_DISABLED, ERR_INVALID_X_TOKEN, ERR_INVALID_Y_TOKEN,
 *   ERR_INVALID_AMOUNT (amount > 0), ERR_NOT_ACTIVE_BIN (bin-id == active). Returns (ok {in, out}).
 *   Swap router simple-multi: folds 350 times; each fold with remaining input > 0 swaps in the current
 *   active bin; after the fold ERR_MINIMUM_RECEIVED (u2003) if out < min. swap-multi: per step
 *   ERR_INVALID_BIN_ID (u2009), ERR_MINIMUM_RECEIVED per step, then ERR_EMPTY_SWAPS_LIST, ERR_BIN_SLIPPAGE
 *   (unfavorable bins > max-unfavorable-bins).
 *
 * Pool fees: every setter asserts protocol + provider + variable < 10000 (ERR_INVALID_FEE u1029).
 */

/**
 * Contract that defines an error constant. `token` is a SIP-010 token's (or native STX's) transfer, whose
 * `(err u1)` is "insufficient balance". The v-1-2 routers (the published mainnet ones: the same functions
 * with a trailing deadline) keep the v-1-1 codes and add ERR_DEADLINE_PASSED (u2012 on the swap router);
 * their codes are recorded from the HODLMM error-triage runbook (k9dreamer-graphite-elan/
 * guides-for-ai-bitcoin-agents, public/hodlmm/runbooks/hodlmm-error-triage-runbook.md, commit 945a83f,
 * "built from deployed contract source"), whose tables list u2001–u2006, u2012 and u5001–u5008 by name and
 * u2007–u2011 only as "list/bin/step parameter errors": u2007–u2009 are entered with their v-1-1 names, and
 * u2010 / u2011 (no name published) are not. No source we read gives the liquidity router v-1-2's deadline
 * code, so its ERR_DEADLINE_PASSED carries none.
 */
export type ErrorContract =
  | 'dlmm-core-v-1-1'
  | 'dlmm-liquidity-router-v-1-1'
  | 'dlmm-liquidity-router-v-1-2'
  | 'dlmm-swap-router-v-1-1'
  | 'dlmm-swap-router-v-1-2'
  | 'dlmm-pool'
  | 'token';

/** Every contract in ErrorContract, in the order `dlmm explain` lists them. */
export const ERROR_CONTRACTS: readonly ErrorContract[] = [
  'dlmm-core-v-1-1',
  'dlmm-swap-router-v-1-1',
  'dlmm-swap-router-v-1-2',
  'dlmm-pool',
  'dlmm-liquidity-router-v-1-1',
  'dlmm-liquidity-router-v-1-2',
  'token',
];

interface ErrorEntry {
  code: number;
  contract: ErrorContract;
}

const core = (code: number): ErrorEntry => ({ code, contract: 'dlmm-core-v-1-1' });
const pool = (code: number): ErrorEntry => ({ code, contract: 'dlmm-pool' });

/**
 * A router constant: the swap router's code and the liquidity router's (undefined where that router does not
 * define it), each in v-1-1 and in v-1-2, which keeps the v-1-1 codes (see ErrorContract).
 */
function routers(swap: number | undefined, liquidity: number | undefined): ErrorEntry[] {
  const entries: ErrorEntry[] = [];
  for (const v of ['v-1-1', 'v-1-2'] as const) {
    if (swap !== undefined) entries.push({ code: swap, contract: `dlmm-swap-router-${v}` });
    if (liquidity !== undefined) entries.push({ code: liquidity, contract: `dlmm-liquidity-router-${v}` });
  }
  return entries;
}

/**
 * Every error constant of the contracts (core's 59, both routers' in v-1-1 and v-1-2, the pool's), by name,
 * with one entry per defining contract; `dlmm explain` has an entry for each (core/dlmm/explain.ts).
 */
export const CONTRACT_ERRORS = {
  // dlmm-core-v-1-1
  ERR_NOT_AUTHORIZED: [core(1001), pool(3001)],
  ERR_INVALID_AMOUNT: [core(1002), pool(3002)],
  ERR_INVALID_PRINCIPAL: [core(1003), pool(3003)],
  ERR_NO_POOL_DATA: [core(1008)],
  ERR_POOL_NOT_CREATED: [core(1009)],
  ERR_POOL_DISABLED: [core(1010)],
  ERR_INVALID_POOL: [core(1012)],
  ERR_INVALID_X_TOKEN: [core(1018)],
  ERR_INVALID_Y_TOKEN: [core(1019)],
  ERR_INVALID_X_AMOUNT: [core(1020)],
  ERR_INVALID_Y_AMOUNT: [core(1021)],
  ERR_MINIMUM_X_AMOUNT: [core(1022), ...routers(2004, 5002)],
  ERR_MINIMUM_Y_AMOUNT: [core(1023), ...routers(2005, 5003)],
  ERR_MINIMUM_LP_AMOUNT: [core(1024)],
  ERR_MAXIMUM_X_AMOUNT: [core(1025)],
  ERR_MAXIMUM_Y_AMOUNT: [core(1026)],
  ERR_INVALID_MIN_DLP_AMOUNT: [core(1027)],
  ERR_INVALID_LIQUIDITY_VALUE: [core(1028)],
  ERR_INVALID_FEE: [core(1029)],
  ERR_MAXIMUM_X_LIQUIDITY_FEE: [core(1030)],
  ERR_MAXIMUM_Y_LIQUIDITY_FEE: [core(1031)],
  ERR_NO_UNCLAIMED_PROTOCOL_FEES_DATA: [core(1032)],
  ERR_MINIMUM_BURN_AMOUNT: [core(1033)],
  ERR_INVALID_MIN_BURNT_SHARES: [core(1034)],
  ERR_INVALID_BIN_STEP: [core(1035)],
  ERR_NO_BIN_FACTORS: [core(1038)],
  ERR_INVALID_BIN_FACTOR: [core(1039)],
  ERR_INVALID_BIN_PRICE: [core(1045)],
  ERR_MATCHING_BIN_ID: [core(1046)],
  ERR_NOT_ACTIVE_BIN: [core(1047)],
  ERR_NO_BIN_SHARES: [core(1048)],
  // dlmm-swap-router-v-1-1 (ERR_NO_RESULT_DATA, ERR_RESULTS_LIST_OVERFLOW, ERR_INVALID_BIN_ID and
  // ERR_NO_ACTIVE_BIN_DATA also exist in the liquidity router with 5xxx codes)
  ERR_NO_RESULT_DATA: routers(2001, 5001),
  ERR_BIN_SLIPPAGE: routers(2002, undefined),
  ERR_MINIMUM_RECEIVED: routers(2003, undefined),
  ERR_NO_ACTIVE_BIN_DATA: routers(2006, 5004),
  ERR_EMPTY_SWAPS_LIST: routers(2007, undefined),
  ERR_RESULTS_LIST_OVERFLOW: routers(2008, 5006),
  ERR_INVALID_BIN_ID: routers(2009, 5007),
  // dlmm-liquidity-router-v-1-1
  ERR_EMPTY_POSITIONS_LIST: routers(undefined, 5005),
  ERR_ACTIVE_BIN_TOLERANCE: routers(undefined, 5008),
  // dlmm-swap-router-v-1-2 only (see ErrorContract)
  ERR_DEADLINE_PASSED: [{ code: 2012, contract: 'dlmm-swap-router-v-1-2' }],
  // a token's transfer: SIP-010 tokens and native STX fail an overdrawn transfer with (err u1)
  ERR_INSUFFICIENT_BALANCE: [{ code: 1, contract: 'token' }],
  // dlmm-core-v-1-1 admin and pool-creation functions (no plan operation calls them)
  ERR_ALREADY_ADMIN: [core(1004)],
  ERR_ADMIN_LIMIT_REACHED: [core(1005)],
  ERR_ADMIN_NOT_IN_LIST: [core(1006)],
  ERR_CANNOT_REMOVE_CONTRACT_DEPLOYER: [core(1007)],
  ERR_POOL_ALREADY_CREATED: [core(1011)],
  ERR_INVALID_POOL_URI: [core(1013)],
  ERR_INVALID_POOL_SYMBOL: [core(1014)],
  ERR_INVALID_POOL_NAME: [core(1015)],
  ERR_INVALID_TOKEN_DIRECTION: [core(1016)],
  ERR_MATCHING_TOKEN_CONTRACTS: [core(1017)],
  ERR_ALREADY_BIN_STEP: [core(1036)],
  ERR_BIN_STEP_LIMIT_REACHED: [core(1037)],
  ERR_INVALID_FIRST_BIN_FACTOR: [core(1040)],
  ERR_INVALID_CENTER_BIN_FACTOR: [core(1041)],
  ERR_UNSORTED_BIN_FACTORS_LIST: [core(1042)],
  ERR_INVALID_BIN_FACTORS_LENGTH: [core(1043)],
  ERR_INVALID_INITIAL_PRICE: [core(1044)],
  ERR_INVALID_POOL_CODE_HASH: [core(1049)],
  ERR_INVALID_VERIFIED_POOL_CODE_HASH: [core(1050)],
  ERR_ALREADY_VERIFIED_POOL_CODE_HASH: [core(1051)],
  ERR_VERIFIED_POOL_CODE_HASH_LIMIT_REACHED: [core(1052)],
  ERR_VERIFIED_POOL_CODE_HASH_NOT_IN_LIST: [core(1053)],
  ERR_VARIABLE_FEES_COOLDOWN: [core(1054)],
  ERR_VARIABLE_FEES_MANAGER_FROZEN: [core(1055)],
  ERR_INVALID_DYNAMIC_CONFIG: [core(1056)],
  ERR_INVALID_CORE_MIGRATION_COOLDOWN: [core(1057)],
  ERR_CORE_MIGRATION_COOLDOWN: [core(1058)],
  ERR_CORE_ADDRESS_ALREADY_MIGRATED: [core(1059)],
  // pool contracts (dlmm-pool-*): SIP-013 transfer errors u1..u4 and ERR_MAX_NUMBER_OF_BINS
  ERR_INSUFFICIENT_BALANCE_SIP_013: [pool(1)],
  ERR_MATCHING_PRINCIPALS_SIP_013: [pool(2)],
  ERR_INVALID_AMOUNT_SIP_013: [pool(3)],
  ERR_NOT_AUTHORIZED_SIP_013: [pool(4)],
  ERR_NOT_POOL_CONTRACT_DEPLOYER: [pool(3004)],
  ERR_MAX_NUMBER_OF_BINS: [pool(3005)],
} as const satisfies Record<string, readonly ErrorEntry[]>;

/**
 * Runtime aborts that have no error constant: Clarity stops the transaction on u128 overflow or
 * underflow (e.g. y-amount * 1e8 above 2^128 - 1). Reported with these pseudo-names.
 */
export type RuntimeAbortName = 'RUNTIME_OVERFLOW' | 'RUNTIME_UNDERFLOW';

/** Name of a contract error constant (or a runtime abort pseudo-name). */
export type ContractErrorName = keyof typeof CONTRACT_ERRORS | RuntimeAbortName;

/**
 * The `(err uNNNN)` code of `name` as raised by `contract` (default: the first defining contract, core
 * for the shared names). Undefined for runtime aborts and for a contract that does not define the name.
 */
export function contractErrorCode(name: ContractErrorName, contract?: ErrorContract): number | undefined {
  if (name === 'RUNTIME_OVERFLOW' || name === 'RUNTIME_UNDERFLOW') return undefined;
  const entries: readonly ErrorEntry[] = CONTRACT_ERRORS[name];
  const hit = contract === undefined ? entries[0] : entries.find((e) => e.contract === contract);
  return hit?.code;
}

/** Names whose code matches `code` (several when contracts reuse a number space: u1..u4 are SIP-013). */
export function contractErrorsByCode(code: number): { name: ContractErrorName; contract: ErrorContract }[] {
  const out: { name: ContractErrorName; contract: ErrorContract }[] = [];
  for (const [name, entries] of Object.entries(CONTRACT_ERRORS) as [
    ContractErrorName,
    readonly ErrorEntry[],
  ][]) {
    for (const e of entries) if (e.code === code) out.push({ name, contract: e.contract });
  }
  return out;
}
