/**
 * Token balances as the token contracts keep them: what a principal holds of each SIP-010 token, and of
 * native STX (keyed `stx`: the STX wrapper `token-stx-v-1-2` moves native STX, so its balance is
 * `stx-get-balance`). The executor spends and credits the transaction sender's balances as the router
 * calls move tokens; a transfer of more than is held fails as the token's `transfer` does:
 * `ft-transfer?` and `stx-transfer?` return `(err u1)` for an insufficient balance, the token's `try!`
 * passes it up, and the whole transaction reverts.
 *
 * A balance may be known exactly (the simulator's world, a balance read from the node) or only as a floor
 * (the analyzer could not read it: the floor is what the plan itself received before, 0 at the start). A
 * spend beyond a floor is not a failure but a spend the check could not verify: it is recorded
 * (`Unverified`) and reported, never guessed either way.
 */

/** The key of native STX (any STX wrapper contract maps to it). */
export const STX_KEY = 'stx';

/** A principal's balance of one token: exact, or at least `amount` (unknown beyond what was received). */
export interface Held {
  amount: bigint;
  exact: boolean;
}

/** A spend the balances could not decide: the balance was not known and the floor does not cover it. */
export interface Unverified {
  /** Token key (contract principal, or `stx`). */
  token: string;
  needed: bigint;
  /** What the sender surely held at that point (received earlier in the plan). */
  atLeast: bigint;
}

/** The error a token's transfer returns for an insufficient balance (SIP-010 `ft-transfer?`/`stx-transfer?`). */
export const INSUFFICIENT_BALANCE = 'ERR_INSUFFICIENT_BALANCE';
export const INSUFFICIENT_BALANCE_CODE = 1;

/** Balances by (principal, token). Principals or tokens not listed are 0 (`unlisted: 'zero'`) or unknown. */
export class ChainBalances {
  private readonly held: Map<string, Held>;

  constructor(
    /** What a (principal, token) never set holds: 0 (a whole world: the simulator) or unknown (the analyzer). */
    readonly unlisted: 'zero' | 'unknown',
    held?: Map<string, Held>,
  ) {
    this.held = held ?? new Map();
  }

  private static key(principal: string, token: string): string {
    return `${principal}|${token}`;
  }

  /** The balance of `token` held by `principal` (unknown: a floor of 0). */
  get(principal: string, token: string): Held {
    const h = this.held.get(ChainBalances.key(principal, token));
    if (h) return { ...h };
    return { amount: 0n, exact: this.unlisted === 'zero' };
  }

  set(principal: string, token: string, h: Held): void {
    this.held.set(ChainBalances.key(principal, token), { amount: h.amount, exact: h.exact });
  }

  /** Adds `amount` (a transfer received). A floor stays a floor. */
  credit(principal: string, token: string, amount: bigint): void {
    const h = this.get(principal, token);
    this.set(principal, token, { amount: h.amount + amount, exact: h.exact });
  }

  /**
   * Takes `amount` (a transfer sent): 'ok'; `{short}` when an exact balance holds less (the token's
   * `(err u1)`; nothing taken); `{unverified}` when a floor does not cover it (the balance becomes a floor
   * of 0: nothing more is known).
   */
  debit(
    principal: string,
    token: string,
    amount: bigint,
  ): { ok: true } | { ok: false; held: bigint } | { ok: true; unverified: Unverified } {
    const h = this.get(principal, token);
    if (amount <= h.amount) {
      this.set(principal, token, { amount: h.amount - amount, exact: h.exact });
      return { ok: true };
    }
    if (h.exact) return { ok: false, held: h.amount };
    this.set(principal, token, { amount: 0n, exact: false });
    return { ok: true, unverified: { token, needed: amount, atLeast: h.amount } };
  }

  /** An independent copy. */
  clone(): ChainBalances {
    return new ChainBalances(this.unlisted, new Map(this.held));
  }

  /** The current table, to put back with `restore` (balances are small: a plain copy). */
  snapshot(): Map<string, Held> {
    return new Map(this.held);
  }

  restore(s: Map<string, Held>): void {
    this.held.clear();
    for (const [k, h] of s) this.held.set(k, h);
  }
}
