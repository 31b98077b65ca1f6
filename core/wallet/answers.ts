/**
 * What comes back from the wallet page: one answer per request the page made (a txid, a signed transaction,
 * or the wallet's error code), plus session-level answers such as an address mismatch found before anything
 * was asked. Validated with zod at the server's edge; formatted once here for the CLI and the editor.
 */
import * as z from 'zod';
import { explainAbortsIn } from '../dlmm/explain';

import { WALLET_ERROR_MEANINGS, walletErrorText } from './sip030Errors';

const hex = z
  .string()
  .max(4_000_000)
  .regex(/^(0x)?[0-9a-fA-F]*$/, 'expected hex');

/**
 * A transaction id: 32 bytes in hex, as SIP-030 wallets return it from `stx_callContract` (some with a `0x`
 * prefix, some without; both are taken as sent).
 */
const txidSchema = z
  .string()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected a transaction id: 32 bytes in hex (64 digits, 0x optional)');

/** One answer as the page posts it. `index` is the transaction (0-based); null for the session (address). */
export const walletAnswerSchema = z.object({
  index: z.number().int().min(0).max(100_000).nullable(),
  method: z.string().max(64),
  txid: txidSchema.optional(),
  transaction: hex.optional(),
  error: z
    .object({
      code: z.number().int(),
      message: z.string().max(2000),
    })
    .optional(),
  /** Session-level: the addresses the wallet offered (when they did not include the plan's sender). */
  addresses: z.array(z.string().max(200)).max(50).optional(),
});
export type WalletAnswer = z.infer<typeof walletAnswerSchema>;

/** The exact-nonce request: the wallet account's public key and the nonce and fee the user typed. */
export const unsignedRequestSchema = z.object({
  publicKey: z
    .string()
    .regex(/^(0x)?(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/, 'expected a secp256k1 public key'),
  nonce: z.string().regex(/^\d{1,19}$/, 'expected a non-negative integer'),
  fee: z.string().regex(/^\d{1,19}$/, 'expected a non-negative integer'),
});

/** Labels of the transactions, for answer lines ("#1 operation asks (add)"). */
export interface AnswerLabel {
  operation: string;
  part: number;
  parts: number;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Replaces control characters, so wallet-provided text can go to a terminal or a notification. */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line per answer, for the CLI's stdout and the editor's output. */
export function answerLine(a: WalletAnswer, labels: readonly AnswerLabel[]): string {
  const l = a.index === null ? undefined : labels[a.index];
  const who =
    a.index === null
      ? 'wallet'
      : `#${a.index + 1} operation ${printable(l?.operation ?? '?')}${l && l.parts > 1 ? ` part ${l.part}/${l.parts}` : ''}`;
  if (a.error) {
    const extra =
      a.addresses && a.addresses.length > 0
        ? ` (wallet offered ${a.addresses.map(printable).join(', ')})`
        : '';
    // A wallet that ran the transaction may quote its abort code: say what the code means.
    const explained = explainAbortsIn(a.error.message).map((l) => `\n  explain: ${printable(l)}`);
    return `${who}: ${walletErrorText(a.error.code)}: ${printable(a.error.message)}${extra}${explained.join('')}`;
  }
  const parts: string[] = [];
  if (a.txid) parts.push(`txid ${printable(a.txid)}`);
  if (a.transaction)
    parts.push(
      `signed transaction ${printable(a.transaction.slice(0, 24))}… (${(a.transaction.length / 2) | 0} bytes)`,
    );
  return `${who}: ${parts.length > 0 ? parts.join(', ') : 'answered without a txid'} (${printable(a.method)})`;
}

/** Did every transaction get a txid or a signed transaction (the last answer per index wins)? */
export function allAnswered(answers: readonly WalletAnswer[], count: number): boolean {
  const last = new Map<number, WalletAnswer>();
  for (const a of answers) if (a.index !== null) last.set(a.index, a);
  for (let i = 0; i < count; i++) {
    const a = last.get(i);
    if (!a || a.error || (!a.txid && !a.transaction)) return false;
  }
  return true;
}

/** An answer's error in the answers document: the SIP-030 meaning, and what any abort code it quotes means. */
function errorEntry(e: NonNullable<WalletAnswer['error']>) {
  const explained = explainAbortsIn(e.message);
  return {
    ...e,
    meaning: WALLET_ERROR_MEANINGS[e.code] ?? 'unknown',
    ...(explained.length > 0 ? { abort_explained: explained } : {}),
  };
}

/** The answers file written beside the export (JSON, one document). */
export function answersDocument(opts: {
  plan: string;
  sender: string;
  network: string;
  labels: readonly AnswerLabel[];
  answers: readonly WalletAnswer[];
  ended: string;
}) {
  return {
    version: 1,
    plan: opts.plan,
    sender: opts.sender,
    network: opts.network,
    ended: opts.ended,
    transactions: opts.labels.length,
    complete: allAnswered(opts.answers, opts.labels.length),
    answers: opts.answers.map((a) => ({
      ...(a.index === null ? { transaction_index: null } : { transaction_index: a.index + 1 }),
      ...(a.index !== null && opts.labels[a.index] ? { operation: opts.labels[a.index]!.operation } : {}),
      method: a.method,
      ...(a.txid ? { txid: a.txid } : {}),
      ...(a.transaction ? { signed_transaction: a.transaction } : {}),
      ...(a.error ? { error: errorEntry(a.error) } : {}),
      ...(a.addresses ? { wallet_addresses: a.addresses } : {}),
    })),
  };
}
