/**
 * SARIF 2.1.0 output of `dlmm check --format sarif` (code scanning). Stable: no timestamps, no absolute
 * paths; columns in UTF-16 code units; quick fixes as SARIF fixes.
 */
import {
  DIAGNOSTIC_CODES,
  defaultSeverity,
  type DiagnosticCode,
  type Severity,
} from '../../core/plan/diagnostics';
import { SLIPPAGE_PLAUSIBLE } from '../../core/dlmm/bounds';
import type { CheckedFile } from './report';

const RULE_DESCRIPTIONS: Record<DiagnosticCode, string> = {
  syntax: 'YAML/JSON does not parse',
  schema: 'Missing or unknown field, wrong type, or a value out of its declared range',
  'bin-out-of-range': 'A (resolved) signed bin id outside -500..500',
  'unsigned-bin-id': 'A bin id in 501..1000: almost surely the unsigned domain',
  'bin-not-found': "Target bin not in the pool's bin list",
  'wrong-token-side': 'Below the active bin with x_amount > 0, or above it with y_amount > 0',
  'zero-amount': 'An add item whose x_amount and y_amount are both 0',
  'duplicate-bin': 'The same target bin twice in one operation',
  'too-many-positions': 'More than 350 items in one operation (router list limit)',
  'move-same-bin': 'from_bin_id equals the (resolved) to bin',
  'no-user-liquidity': "Move/withdraw from a bin not in the user's positions or with user_liquidity 0",
  'amount-exceeds-user-liquidity': "Move amount above the from bin's user_liquidity",
  'move-dust': 'Computed x_amount and y_amount of a move both floor to 0',
  'withdraw-nothing': 'No selected user bin has user_liquidity > 0',
  'pool-not-found': 'The engine does not know the pool',
  'mixed-generation': "Pool id of the other generation than the file's api, or one pool written both ways",
  'prefer-contract-id': 'v2 file uses an alias where the contract principal is preferred',
  'pool-inactive': 'Pool flag active is false',
  'pool-not-quotable': 'Pool flag quotable is false',
  'engine-not-ready': 'The quote engine is not ready',
  'tip-lag': 'Status tip_lag above policy.max_tip_lag',
  'tip-unknown': 'Status tip_lag is null: unknown is never caught up',
  'app-not-ready': 'App v2 not ready: positions may lag',
  'positions-may-lag':
    'Withdraw/move checked against app v2 positions: no inventory source, and the pool is outside app v2 current-bins',
  'inventory-unavailable':
    'The tip-pinned inventory (market-maker inventory or app v2 current-bins) is unavailable or not believed',
  'strict-drift-risk': 'A 1-bin shift of the active bin makes a strict operation revert (executed)',
  'slippage-unit': `slippage_tolerance below ${SLIPPAGE_PLAUSIBLE.low} or above ${SLIPPAGE_PLAUSIBLE.high}: likely a fraction or a typo`,
  'sender-missing': 'the plan has no sender, which export needs for post-conditions',
  'token-unknown': 'Swap token not in /quotes/v2/tokens',
  'swap-no-route': 'The engine returns no route',
  'swap-partial-fill': 'The route cannot take the whole amount_in',
  'price-impact': 'Swap price impact above policy.max_price_impact (error above 10%)',
  'quote-mismatch': 'Engine quote and exact recomputation from the bins differ',
  'swap-unchecked': 'A swap whose route was not recomputed and executed on a believable state read',
  'min-dlp-unprotected': 'Bin shares unknown for an add: min-dlp falls back to 1',
  'api-unreachable': 'Live data could not be read',
  'live-unchecked': 'The live rules did not run (checked offline by choice, or no service configured)',
  'rate-limited': "The service kept answering 429 after the client's retries",
  'unexpected-response': 'A response failed its schema',
  'would-revert': "Executing the plan's exact transactions on the state read reverts",
  'execution-unchecked': "The plan's transactions could not be executed on the state read",
  'exceeds-block-budget':
    "A transaction's execution cost is above a block's limit (error) or above the safe budget, 80% of a block (warning)",
  'insufficient-balance':
    'A transaction spends more of a token than the sender holds at its point in the plan',
  'balance-unchecked': 'A transaction spends a token whose balance could not be read: its funding is unknown',
  'fee-not-covered': "The sender's STX does not cover the fee the export sets",
  'clock-skew': "The local clock differs from the service's by more than a minute",
  'invalid-distribution':
    'A distribution that cannot be expanded: from > to, or a token total with no bin on its side of the active bin',
  'out-of-range':
    "The sender's liquidity in a pool sits farther than policy.range_alert_bins from the active bin",
  'file-not-checked':
    'A plan file (or folder) reached by a folder walk that could not be checked: a broken link, not a regular file, unreadable',
  'amount-tiny':
    'An add amount below a millionth of one token beside larger amounts: whole tokens written as base units?',
  'percent-below-one': 'A withdrawal_percentage below 1: a fraction written where a percent is meant?',
  'slippage-high': 'A slippage_tolerance above 10%',
};

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

/** The SARIF 2.1.0 log for checked files. */
export function toSarif(files: readonly CheckedFile[]): Record<string, unknown> {
  const codes = Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[];
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const results: unknown[] = [];
  files.forEach((file, artifactIndex) => {
    for (const f of file.findings) {
      const region = {
        startLine: f.range.start.line + 1,
        startColumn: f.range.start.character + 1,
        endLine: f.range.end.line + 1,
        endColumn: f.range.end.character + 1,
        charOffset: f.offset,
        charLength: f.length,
      };
      const artifactLocation = { uri: file.path, uriBaseId: '%SRCROOT%', index: artifactIndex };
      const result: Record<string, unknown> = {
        ruleId: f.code,
        ruleIndex: ruleIndex.get(f.code),
        level: LEVEL[f.severity],
        message: { text: f.message },
        locations: [{ physicalLocation: { artifactLocation, region } }],
      };
      if (f.operation !== undefined) result.properties = { operation: f.operation };
      if (f.fixes?.length)
        result.fixes = f.fixes.map((fix) => ({
          description: { text: fix.title },
          artifactChanges: [
            {
              artifactLocation,
              replacements: fix.edits.map((e) => ({
                deletedRegion: { charOffset: e.offset, charLength: e.length },
                insertedContent: { text: e.newText },
              })),
            },
          ],
        }));
      results.push(result);
    }
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'dlmm-studio',
            version: '0.1.0',
            rules: codes.map((code) => ({
              id: code,
              shortDescription: { text: RULE_DESCRIPTIONS[code] },
              defaultConfiguration: { level: LEVEL[defaultSeverity(code)] },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        originalUriBaseIds: { '%SRCROOT%': { uri: './' } },
        // `live` as in the JSON report: every live rule ran on data read from the service.
        artifacts: files.map((f) => ({
          location: { uri: f.path, uriBaseId: '%SRCROOT%' },
          sourceLanguage: /\.json$/i.test(f.path) ? 'json' : 'yaml',
          properties: { live: f.live },
        })),
        results,
      },
    ],
  };
}
