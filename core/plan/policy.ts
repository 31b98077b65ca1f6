/**
 * Policy defaults a plan gets where it writes none, and every reader without a plan uses the same: one
 * figure, stated once (the plan schema, the tip verdict in core/check/freshness.ts, the positions readers).
 */

/** `policy.max_tip_lag` (blocks) where none is given: only a caught-up state passes. */
export const DEFAULT_MAX_TIP_LAG = 0;
