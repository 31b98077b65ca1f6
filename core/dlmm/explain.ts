/**
 * `dlmm explain`: what an on-chain abort code means. One table: for every error constant in contractErrors.ts (and
 * the runtime aborts, which have no code), what the contract checks where it raises it, the likely cause in
 * a plan, and the finding or flag of ours that catches it first. Read from the contracts' source
 * (BitflowFinance/bitflow-dlmm, clarity/contracts, commit c561b4b) and, for the v-1-2 routers, the HODLMM
 * error-triage runbook (see contractErrors.ts). Pure: no I/O, so the CLI, the wallet answers and the editor share it.
 */
import { closestMatch } from '../text/suggest';
import {
  CONTRACT_ERRORS,
  ERROR_CONTRACTS,
  contractErrorsByCode,
  type ContractErrorName,
  type ErrorContract,
  type RuntimeAbortName,
} from './contractErrors';

/** What one constant means where one contract raises it. */
interface Explanation {
  /** What the contract checks there. */
  checks: string;
  /** The likely cause in a plan (or in a transaction built elsewhere). */
  cause: string;
  /** The finding code(s) or flag of ours that catches it before it reaches the chain. */
  prevent: string;
}

/** A name's explanation: the same for every contract defining it (`all`), or one per contract. */
type Entry = { all: Explanation } | Partial<Record<ErrorContract, Explanation>>;

const CORE: ErrorContract = 'dlmm-core-v-1-1';
const POOL: ErrorContract = 'dlmm-pool';
const ROUTERS_SWAP: ErrorContract[] = ['dlmm-swap-router-v-1-1', 'dlmm-swap-router-v-1-2'];
const ROUTERS_LIQ: ErrorContract[] = ['dlmm-liquidity-router-v-1-1', 'dlmm-liquidity-router-v-1-2'];

const same = (contracts: ErrorContract[], e: Explanation): Partial<Record<ErrorContract, Explanation>> =>
  Object.fromEntries(contracts.map((c) => [c, e]));

/** Explanation of a core admin or pool-creation constant: no plan operation reaches it. */
const admin = (checks: string): Entry => ({
  all: {
    checks: `${checks} (an admin or pool-creation function of dlmm-core-v-1-1)`,
    cause:
      'no add, withdraw, move or swap reaches this check: the transaction called an admin or pool-creation function, or was built outside dlmm-studio',
    prevent: 'none needed for a plan (dlmm export never calls these functions)',
  },
});

const NOT_A_PLAN = 'none needed for a plan (dlmm export never calls this)';

/** Every explained name. The runtime aborts and the post-condition abort have no code. */
export type ExplainedName = ContractErrorName | 'POST_CONDITION_FAILED';

export const EXPLANATIONS: Record<ExplainedName, Entry> = {
  ERR_NOT_AUTHORIZED: {
    [CORE]: {
      checks: 'the caller is one of the admins (or the variable-fees manager)',
      cause: 'an admin function was called by someone else; a plan never calls one',
      prevent: NOT_A_PLAN,
    },
    [POOL]: {
      checks: "the pool's mint, burn, transfer and balance updates are called by the core contract",
      cause: 'the pool was called directly instead of through the core contract and routers',
      prevent: 'none needed for a plan (exports call the routers)',
    },
  },
  ERR_INVALID_AMOUNT: {
    [CORE]: {
      checks:
        "amounts are above 0: a swap's amount, an add's x + y, a withdraw's or move's amount, the withdraw minimums' sum, and the amounts the shares are worth (floor)",
      cause:
        'a zero amount, a withdraw or move of so few shares that they floor to 0 x and 0 y, or min-x + min-y of 0',
      prevent: 'zero-amount, withdraw-nothing, move-dust; would-revert names the element',
    },
    [POOL]: {
      checks: "a mint or burn is above 0 and a burn is at most the owner's shares of the bin",
      cause:
        'a withdraw or move of more shares than the sender holds in that bin (often a relative one after the active bin moved), or a first deposit whose burnt shares are 0',
      prevent: 'amount-exceeds-user-liquidity, no-user-liquidity, strict-drift-risk; would-revert',
    },
  },
  ERR_INVALID_PRINCIPAL: {
    [CORE]: {
      checks: 'an address given to an admin function is a standard principal of this network',
      cause: 'an admin call with a bad address',
      prevent: NOT_A_PLAN,
    },
    [POOL]: {
      checks: "a transfer's recipient is a standard principal",
      cause: 'a pool call with a contract or foreign-network recipient',
      prevent: "none needed for a plan (the sender is checked as an address of the plan's network: schema)",
    },
  },
  ERR_NO_POOL_DATA: {
    all: {
      checks: 'the pool contract answers get-pool (its data exists)',
      cause: 'the pool-trait argument is not a DLMM pool',
      prevent: 'pool-not-found',
    },
  },
  ERR_POOL_NOT_CREATED: admin('the pool was created before an admin changes it'),
  ERR_POOL_DISABLED: {
    all: {
      checks: 'the pool is enabled: add, move and swap need it (a withdraw does not)',
      cause: 'the pool was disabled by its admins',
      prevent: 'pool-inactive',
    },
  },
  ERR_INVALID_POOL: {
    all: {
      checks: 'the pool-trait is the contract the core registered for that pool id',
      cause: 'a pool contract not created through the core (a copy or a fake)',
      prevent: "pool-not-found (pools are taken from the service's list)",
    },
  },
  ERR_INVALID_X_TOKEN: {
    all: {
      checks: "the x-token-trait argument is the pool's token X",
      cause: 'the token traits were swapped or belong to another pool',
      prevent: 'none needed for a plan (exports take the traits from the pool read); would-revert',
    },
  },
  ERR_INVALID_Y_TOKEN: {
    all: {
      checks: "the y-token-trait argument is the pool's token Y",
      cause: 'the token traits were swapped or belong to another pool',
      prevent: 'none needed for a plan (exports take the traits from the pool read); would-revert',
    },
  },
  ERR_INVALID_X_AMOUNT: {
    all: {
      checks: "no token X goes into a bin below the active bin (an add, or a move's destination)",
      cause:
        'x_amount on a bin below the active bin: the bin was chosen on a stale active bin, or the active bin moved down before the transaction ran',
      prevent: 'wrong-token-side, strict-drift-risk; simple mode (offsets) with policy.active_bin_tolerance',
    },
  },
  ERR_INVALID_Y_AMOUNT: {
    all: {
      checks: "no token Y goes into a bin above the active bin (an add, or a move's destination)",
      cause:
        'y_amount on a bin above the active bin: the bin was chosen on a stale active bin, or the active bin moved up before the transaction ran',
      prevent: 'wrong-token-side, strict-drift-risk; simple mode (offsets) with policy.active_bin_tolerance',
    },
  },
  ERR_MINIMUM_X_AMOUNT: {
    [CORE]: {
      checks: 'a withdraw gives at least min-x-amount of token X',
      cause:
        'the bin holds less X than when the minimum was computed (a swap through it, or the active bin moved), or policy.slippage_tolerance is too tight',
      prevent: 'would-revert (on the state read); a looser policy.slippage_tolerance',
    },
    ...same(ROUTERS_SWAP, {
      checks: "swap-y-for-x-same-multi's X total is at least min-x-amount-total",
      cause: 'the pool moved between quote and execution',
      prevent: 'would-revert, quote-mismatch; policy.slippage_tolerance',
    }),
    ...same(ROUTERS_LIQ, {
      checks: "withdraw-(relative-)liquidity-same-multi's X total is at least min-x-amount-total",
      cause:
        'the bins hold less X than when the minimum was computed, or the slippage tolerance is too tight',
      prevent: 'would-revert; policy.slippage_tolerance',
    }),
  },
  ERR_MINIMUM_Y_AMOUNT: {
    [CORE]: {
      checks: 'a withdraw gives at least min-y-amount of token Y',
      cause:
        'the bin holds less Y than when the minimum was computed (a swap through it, or the active bin moved), or policy.slippage_tolerance is too tight',
      prevent: 'would-revert (on the state read); a looser policy.slippage_tolerance',
    },
    ...same(ROUTERS_SWAP, {
      checks: "swap-x-for-y-same-multi's Y total is at least min-y-amount-total",
      cause: 'the pool moved between quote and execution',
      prevent: 'would-revert, quote-mismatch; policy.slippage_tolerance',
    }),
    ...same(ROUTERS_LIQ, {
      checks: "withdraw-(relative-)liquidity-same-multi's Y total is at least min-y-amount-total",
      cause:
        'the bins hold less Y than when the minimum was computed, or the slippage tolerance is too tight',
      prevent: 'would-revert; policy.slippage_tolerance',
    }),
  },
  ERR_MINIMUM_LP_AMOUNT: {
    all: {
      checks:
        'an add or move mints at least min-dlp shares; a first deposit into an empty bin is worth at least the minimum bin shares',
      cause:
        "the bin changed since min-dlp was computed (a swap, others' adds), a dust amount, or a first deposit too small for an empty bin",
      prevent:
        'would-revert, move-dust, min-dlp-unprotected; dlmm export --allow-unprotected only where shares are unknown',
    },
  },
  ERR_MAXIMUM_X_AMOUNT: admin('an amount of token X is at most its maximum'),
  ERR_MAXIMUM_Y_AMOUNT: admin('an amount of token Y is at most its maximum'),
  ERR_INVALID_MIN_DLP_AMOUNT: {
    all: {
      checks: 'min-dlp is above 0 on an add or move',
      cause: 'a call built with min-dlp 0',
      prevent: 'none needed for a plan (exports write at least 1 there)',
    },
  },
  ERR_INVALID_LIQUIDITY_VALUE: admin('the initial liquidity value of a new pool is above 0'),
  ERR_INVALID_FEE: admin('protocol + provider + variable fees stay below 10000 bps'),
  ERR_MAXIMUM_X_LIQUIDITY_FEE: {
    all: {
      checks:
        'the fee an add into the active bin pays on its unbalanced X part is at most max-x-liquidity-fee',
      cause: "the active bin's balance changed (a swap) between the plan and execution, raising the fee",
      prevent: 'would-revert (on the state read)',
    },
  },
  ERR_MAXIMUM_Y_LIQUIDITY_FEE: {
    all: {
      checks:
        'the fee an add into the active bin pays on its unbalanced Y part is at most max-y-liquidity-fee',
      cause: "the active bin's balance changed (a swap) between the plan and execution, raising the fee",
      prevent: 'would-revert (on the state read)',
    },
  },
  ERR_NO_UNCLAIMED_PROTOCOL_FEES_DATA: {
    all: {
      checks: 'the pool has its unclaimed protocol fees record (every created pool has one)',
      cause: 'a pool not created through the core',
      prevent: 'pool-not-found',
    },
  },
  ERR_MINIMUM_BURN_AMOUNT: admin("a new pool's first deposit is above the burnt shares"),
  ERR_INVALID_MIN_BURNT_SHARES: admin('the minimum burnt shares setting is valid'),
  ERR_INVALID_BIN_STEP: admin('a bin step is one the core knows'),
  ERR_NO_BIN_FACTORS: {
    all: {
      checks: "the pool's bin step has its price factors (read while computing a bin price)",
      cause: 'a pool with an unregistered bin step',
      prevent: 'pool-not-found, unexpected-response',
    },
  },
  ERR_INVALID_BIN_FACTOR: {
    all: {
      checks: "a bin's price factor exists (read while computing a bin price)",
      cause: "a bin id outside the pool's factor table",
      prevent: 'bin-out-of-range',
    },
  },
  ERR_INVALID_BIN_PRICE: {
    all: {
      checks: "the bin's price can be computed (let-bindings of swap, add, move)",
      cause: 'a bin id outside -500..500 reached the core',
      prevent: 'bin-out-of-range',
    },
  },
  ERR_MATCHING_BIN_ID: {
    all: {
      checks: "a move's from and to bins differ",
      cause:
        'a move whose target is its source (for a relative move: the active bin plus the offset landed on it)',
      prevent: 'move-same-bin',
    },
  },
  ERR_NOT_ACTIVE_BIN: {
    all: {
      checks: "a swap call is made in the pool's current active bin",
      cause: 'a core swap called directly with a stale bin id (the routers always pass the active bin)',
      prevent: 'none needed for a plan (exports swap through the routers)',
    },
  },
  ERR_NO_BIN_SHARES: {
    all: {
      checks: 'the bin a withdraw or move takes from has shares',
      cause:
        'the bin was emptied (everyone withdrew), or a relative withdraw landed on an empty bin after the active bin moved',
      prevent: 'no-user-liquidity, strict-drift-risk; would-revert',
    },
  },
  ERR_NO_RESULT_DATA: {
    ...same(ROUTERS_SWAP, {
      checks:
        "each fold step unwraps the previous step's result: a failure in any step but the last (or anywhere in a simple-multi swap's 350 steps) surfaces as this",
      cause: 'one swap step failed (balance, minimum received, a disabled pool): the cause is underneath',
      prevent: 'would-revert names the step and its own error; insufficient-balance',
    }),
    ...same(ROUTERS_LIQ, {
      checks:
        "each fold step unwraps the previous element's result: a failure in any element but the last surfaces as this",
      cause:
        'one list element failed (wrong side after the active bin moved, min-dlp, an amount above the shares held, a balance): the cause is underneath',
      prevent: 'would-revert names the element and its own error; strict-drift-risk, insufficient-balance',
    }),
  },
  ERR_BIN_SLIPPAGE: {
    ...same(ROUTERS_SWAP, {
      checks:
        "swap-multi's steps ran at most max-unfavorable-bins bins away (unfavourably) from their expected bins",
      cause: 'the active bin moved against the swap between quote and execution',
      prevent: 'policy.active_bin_tolerance (the bound written); would-revert',
    }),
  },
  ERR_MINIMUM_RECEIVED: {
    ...same(ROUTERS_SWAP, {
      checks:
        "the swap gives at least its minimum received (each swap-multi step; a simple-multi swap's total)",
      cause: 'the price moved between quote and execution, or the slippage tolerance is too tight',
      prevent: 'would-revert, quote-mismatch, price-impact; policy.slippage_tolerance',
    }),
  },
  ERR_NO_ACTIVE_BIN_DATA: {
    all: {
      checks: 'the pool answers its active bin id',
      cause: 'the pool-trait is not a DLMM pool',
      prevent: 'pool-not-found',
    },
  },
  ERR_EMPTY_SWAPS_LIST: {
    ...same(ROUTERS_SWAP, {
      checks: "swap-multi's list is not empty",
      cause: 'a swap built with no steps',
      prevent: 'swap-no-route (exports never write an empty list)',
    }),
  },
  ERR_RESULTS_LIST_OVERFLOW: {
    all: {
      checks: 'the results list stays within 350 entries while folding',
      cause: 'a list longer than 350 elements (the argument type already refuses one)',
      prevent: 'too-many-positions',
    },
  },
  ERR_INVALID_BIN_ID: {
    all: {
      checks: 'every bin id (absolute, or active + offset) is within -500..500',
      cause:
        'a bin or offset out of range, or a relative offset that left the range after the active bin moved',
      prevent: 'bin-out-of-range, unsigned-bin-id',
    },
  },
  ERR_EMPTY_POSITIONS_LIST: {
    ...same(ROUTERS_LIQ, {
      checks: 'the positions list is not empty (checked after the fold)',
      cause: 'an operation with no bins',
      prevent: 'schema (an operation needs at least one bin); withdraw-nothing',
    }),
  },
  ERR_ACTIVE_BIN_TOLERANCE: {
    ...same(ROUTERS_LIQ, {
      checks:
        'add-relative-liquidity-same-multi: the active bin is within max-deviation bins of expected-bin-id (checked after the adds)',
      cause: 'the active bin moved more than the tolerance between export and execution',
      prevent:
        'strict-drift-risk; policy.active_bin_tolerance; export again on fresh state (dlmm plan recentre)',
    }),
  },
  ERR_DEADLINE_PASSED: {
    'dlmm-swap-router-v-1-2': {
      checks:
        "the v-1-2 routers' trailing (optional uint) deadline: block time is not after it (the liquidity router v-1-2 checks it too; no source we read gives that code)",
      cause: 'the transaction was signed or mined after policy.deadline_seconds ran out',
      prevent: 'policy.deadline_seconds (counted from export time): export again and sign promptly',
    },
  },
  ERR_INSUFFICIENT_BALANCE: {
    token: {
      checks: "a SIP-010 (or STX) transfer sends at most what the sender holds: the token's (err u1)",
      cause:
        'the sender holds less of a token than an add or swap sends (or, for STX, than the amount plus fee); inside a list it surfaces as ERR_NO_RESULT_DATA',
      prevent: 'insufficient-balance, balance-unchecked, fee-not-covered',
    },
  },
  ERR_ALREADY_ADMIN: admin('the address is not already an admin'),
  ERR_ADMIN_LIMIT_REACHED: admin('the admin list is not full'),
  ERR_ADMIN_NOT_IN_LIST: admin('the admin to remove is in the list'),
  ERR_CANNOT_REMOVE_CONTRACT_DEPLOYER: admin('the deployer stays an admin'),
  ERR_POOL_ALREADY_CREATED: admin('the pool is not created twice'),
  ERR_INVALID_POOL_URI: admin('the pool URI is not empty'),
  ERR_INVALID_POOL_SYMBOL: admin('the pool symbol is not empty'),
  ERR_INVALID_POOL_NAME: admin('the pool name is not empty'),
  ERR_INVALID_TOKEN_DIRECTION: admin("a new pool's x/y tokens are in the allowed direction"),
  ERR_MATCHING_TOKEN_CONTRACTS: admin("a new pool's two tokens differ"),
  ERR_ALREADY_BIN_STEP: admin('a bin step is not added twice'),
  ERR_BIN_STEP_LIMIT_REACHED: admin('the bin step list is not full'),
  ERR_INVALID_FIRST_BIN_FACTOR: admin("a bin step's first factor is valid"),
  ERR_INVALID_CENTER_BIN_FACTOR: admin("a bin step's center factor is 1e8"),
  ERR_UNSORTED_BIN_FACTORS_LIST: admin("a bin step's factors ascend"),
  ERR_INVALID_BIN_FACTORS_LENGTH: admin('a bin step has 1001 factors'),
  ERR_INVALID_INITIAL_PRICE: admin("a new pool's initial price is above 0"),
  ERR_INVALID_POOL_CODE_HASH: admin("a new pool's code hash is a verified one"),
  ERR_INVALID_VERIFIED_POOL_CODE_HASH: admin('a verified code hash is valid'),
  ERR_ALREADY_VERIFIED_POOL_CODE_HASH: admin('a code hash is not verified twice'),
  ERR_VERIFIED_POOL_CODE_HASH_LIMIT_REACHED: admin('the verified code hash list is not full'),
  ERR_VERIFIED_POOL_CODE_HASH_NOT_IN_LIST: admin('the code hash to remove is verified'),
  ERR_VARIABLE_FEES_COOLDOWN: admin('the variable fees cooldown has passed'),
  ERR_VARIABLE_FEES_MANAGER_FROZEN: admin('the variable fees manager is not frozen'),
  ERR_INVALID_DYNAMIC_CONFIG: admin("a pool's dynamic config is valid"),
  ERR_INVALID_CORE_MIGRATION_COOLDOWN: admin('the core migration cooldown is valid'),
  ERR_CORE_MIGRATION_COOLDOWN: admin('the core migration cooldown has passed'),
  ERR_CORE_ADDRESS_ALREADY_MIGRATED: admin('a pool is not migrated twice'),
  ERR_INSUFFICIENT_BALANCE_SIP_013: {
    [POOL]: {
      checks: 'a SIP-013 transfer of bin shares sends at most what the owner holds',
      cause: 'a transfer of position shares the sender does not hold',
      prevent: 'none needed for a plan (exports never transfer shares)',
    },
  },
  ERR_MATCHING_PRINCIPALS_SIP_013: {
    [POOL]: {
      checks: "a SIP-013 transfer's sender and recipient differ",
      cause: 'a share transfer to oneself',
      prevent: 'none needed for a plan (exports never transfer shares)',
    },
  },
  ERR_INVALID_AMOUNT_SIP_013: {
    [POOL]: {
      checks: "a SIP-013 transfer's amount is above 0",
      cause: 'a share transfer of 0',
      prevent: 'none needed for a plan (exports never transfer shares)',
    },
  },
  ERR_NOT_AUTHORIZED_SIP_013: {
    [POOL]: {
      checks: "a SIP-013 transfer is made by the shares' owner",
      cause: 'a share transfer by someone else',
      prevent: 'none needed for a plan (exports never transfer shares)',
    },
  },
  ERR_NOT_POOL_CONTRACT_DEPLOYER: {
    [POOL]: {
      checks: "the pool's setup is called by its deployer",
      cause: 'a pool administration call',
      prevent: NOT_A_PLAN,
    },
  },
  ERR_MAX_NUMBER_OF_BINS: {
    [POOL]: {
      checks: "an owner's list of held bins stays within 1001 entries (a mint into a bin new to the owner)",
      cause: 'not reachable by a plan: there are only 1001 bins',
      prevent: 'none needed (bin-out-of-range keeps every bin within -500..500)',
    },
  },
  RUNTIME_OVERFLOW: {
    all: {
      checks:
        'no error constant: Clarity aborts the whole transaction when a u128 result exceeds 2^128 - 1 (e.g. an amount times a price, or a balance near the limit), wherever it happens, also inside a fold',
      cause: 'an absurd amount, or a bin whose balance times its price leaves u128',
      prevent: "would-revert (the chain model runs the contracts' arithmetic in their order)",
    },
  },
  RUNTIME_UNDERFLOW: {
    all: {
      checks:
        'no error constant: Clarity aborts the whole transaction when a subtraction goes below 0 (e.g. a bin balance minus what a withdraw takes), also inside a fold, so no ERR_NO_RESULT_DATA is reported',
      cause:
        'a withdraw or move of more shares than the bin it lands on holds: typically a relative (simple-mode) withdraw after the active bin moved',
      prevent:
        'would-revert, strict-drift-risk, amount-exceeds-user-liquidity; strict mode withdraws by absolute bin',
    },
  },
  POST_CONDITION_FAILED: {
    all: {
      checks:
        'no error constant (abort_by_post_condition): the transaction moved tokens or position NFTs its post-conditions do not allow (in deny mode, anything they do not cover)',
      cause:
        "amounts changed between export and execution, or post-conditions built elsewhere miss a transfer (the pool's send back included)",
      prevent: 'would-revert (check evaluates them on the state read); export again on fresh state',
    },
  },
};

/** One contract's reading of a constant. */
interface ExplainHit extends Explanation {
  name: ExplainedName;
  contract: ErrorContract | 'runtime' | 'transaction';
  /** The `(err uNNNN)` code; absent for the runtime and post-condition aborts. */
  code?: number;
}

type ExplainResult =
  | { kind: 'known'; query: string; hits: ExplainHit[] }
  | {
      kind: 'unknown';
      query: string;
      code?: number;
      name?: string;
      /** The constant a mistyped name most likely stands for. */
      suggestion?: string;
      answer: string;
    }
  | { kind: 'invalid'; query: string; message: string };

const RUNTIME: readonly string[] = ['RUNTIME_OVERFLOW', 'RUNTIME_UNDERFLOW'] satisfies RuntimeAbortName[];

/** The explanation of `name` as `contract` raises it (every table entry has one: see the test). */
export function explanationOf(name: ExplainedName, contract: ErrorContract): Explanation | undefined {
  const entry = EXPLANATIONS[name] as Entry | undefined;
  if (!entry) return undefined;
  return 'all' in entry ? entry.all : entry[contract];
}

function hitsOfName(name: ExplainedName): ExplainHit[] {
  const entry = EXPLANATIONS[name];
  if (RUNTIME.includes(name) || name === 'POST_CONDITION_FAILED') {
    const e = (entry as { all: Explanation }).all;
    return [{ name, contract: name === 'POST_CONDITION_FAILED' ? 'transaction' : 'runtime', ...e }];
  }
  const entries = CONTRACT_ERRORS[name as keyof typeof CONTRACT_ERRORS];
  return sortHits(
    entries.map((x) => ({ name, contract: x.contract, code: x.code, ...explanationOf(name, x.contract)! })),
  );
}

function sortHits(hits: ExplainHit[]): ExplainHit[] {
  const rank = (c: ExplainHit['contract']) => {
    const i = ERROR_CONTRACTS.indexOf(c as ErrorContract);
    return i < 0 ? ERROR_CONTRACTS.length : i;
  };
  return hits.sort((a, b) => (a.code ?? 0) - (b.code ?? 0) || rank(a.contract) - rank(b.contract));
}

/** The number space a code falls in, for an unknown code's answer. */
function rangeHint(code: number): string {
  if (code >= 1000 && code < 2000)
    return "u1xxx codes are the core contract's (dlmm-core-v-1-1: u1001–u1059)";
  if (code >= 2000 && code < 3000)
    return "u2xxx codes are the swap router's (u2001–u2009; v-1-2 adds u2012 ERR_DEADLINE_PASSED, and the published triage runbook groups u2007–u2011 as list, bin and step parameter errors without naming u2010 and u2011)";
  if (code >= 3000 && code < 4000) return "u3xxx codes are a pool contract's (u3001–u3005)";
  if (code >= 5000 && code < 6000) return "u5xxx codes are the liquidity router's (u5001–u5008)";
  return "the DLMM contracts use u1–u4 (pool SIP-013 transfers, a token's u1), u1001–u1059 (core), u2001–u2012 (swap router), u3001–u3005 (pool) and u5001–u5008 (liquidity router)";
}

const CODE_FORMS = 'u5008, 5008, (err u5008) or a constant name such as ERR_ACTIVE_BIN_TOLERANCE';

/**
 * Explains `input`: a code as `u5008`, `5008` or `(err u5008)`, or a constant name (any case, `-` or `_`).
 * A code several contracts use lists each contract's reading.
 */
export function explainCode(input: string): ExplainResult {
  const query = input.trim();
  if (query.length === 0 || query.length > 200)
    return { kind: 'invalid', query, message: `expected an error code: ${CODE_FORMS}` };
  const m = /^(?:\(\s*err\s+u(\d{1,12})\s*\)|u?(\d{1,12}))$/i.exec(query);
  if (m) {
    const code = Number(m[1] ?? m[2]);
    const hits = sortHits(
      contractErrorsByCode(code).map(({ name, contract }) => ({
        name,
        contract,
        code,
        ...explanationOf(name, contract)!,
      })),
    );
    if (hits.length > 0) return { kind: 'known', query, hits };
    return {
      kind: 'unknown',
      query,
      code,
      answer: `u${code} is not an error code of the Bitflow DLMM contracts we know; ${rangeHint(code)}. Read the failing contract's source for it.`,
    };
  }
  if (/^[A-Za-z][A-Za-z0-9_-]*$/.test(query)) {
    const name = query.toUpperCase().replace(/-/g, '_');
    if (Object.prototype.hasOwnProperty.call(EXPLANATIONS, name))
      return { kind: 'known', query, hits: hitsOfName(name as ExplainedName) };
    const meant = closestMatch(name, Object.keys(EXPLANATIONS));
    return {
      kind: 'unknown',
      query,
      name,
      ...(meant !== undefined ? { suggestion: meant } : {}),
      answer: `${name} is not an error constant of the Bitflow DLMM contracts we know (core, swap and liquidity routers v-1-1 and v-1-2, pools, token transfers)${meant !== undefined ? `; did you mean ${meant}?` : '.'}`,
    };
  }
  return {
    kind: 'invalid',
    query,
    message: `'${query}' is not an error code; expected ${CODE_FORMS}`,
  };
}

/** The hits grouped by reading: contracts that raise the same constant with the same code and meaning. */
function groupHits(hits: readonly ExplainHit[]): { head: string; hit: ExplainHit }[] {
  const groups = new Map<string, ExplainHit[]>();
  for (const h of hits) {
    const key = `${h.code ?? ''}|${h.name}|${h.checks}|${h.cause}|${h.prevent}`;
    groups.set(key, [...(groups.get(key) ?? []), h]);
  }
  return [...groups.values()].map((hs) => {
    const h = hs[0]!;
    return {
      head: `${h.code === undefined ? '' : `u${h.code} `}${h.name} (${hs.map((x) => x.contract).join(', ')})`,
      hit: h,
    };
  });
}

/** The text form: one block per reading (contracts sharing one are named together), or the plain answer. */
export function explainText(r: ExplainResult): string {
  if (r.kind === 'invalid') return r.message;
  if (r.kind === 'unknown') return r.answer;
  return groupHits(r.hits)
    .map(({ head, hit }) =>
      [head, `  checks:    ${hit.checks}`, `  cause:     ${hit.cause}`, `  caught by: ${hit.prevent}`].join(
        '\n',
      ),
    )
    .join('\n\n');
}

/**
 * The explanations of the `(err uNNNN)` codes a text carries (a wallet's error message, a transaction
 * result), one short line each: `u5008 ERR_ACTIVE_BIN_TOLERANCE (dlmm-liquidity-router-v-1-1, …): cause —
 * prevented by: …`. Empty when it carries none.
 */
export function explainAbortsIn(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<number>();
  for (const m of text.matchAll(/\(\s*err\s+u(\d{1,12})\s*\)/gi)) {
    const code = Number(m[1]);
    if (seen.has(code)) continue;
    seen.add(code);
    const r = explainCode(`u${code}`);
    if (r.kind !== 'known') {
      out.push(`u${code}: not a code of the DLMM contracts we know`);
      continue;
    }
    for (const { head, hit } of groupHits(r.hits))
      out.push(`${head}: ${hit.cause}; caught by: ${hit.prevent}`);
  }
  return out;
}
