/**
 * Remembers the signer's public key per sender principal (a public key is not a secret), so the tx-hex
 * export can pre-fill it. Nothing else is ever stored: not nonces, fees, nor any key material. Values read
 * back are validated (another version of the extension, or a hand edit, may have left anything there).
 */
import { publicKeyProblem, normalizePublicKey } from './inputs';

/** The part of vscode.Memento used here (globalState), so tests need no editor. */
export interface KeyValueStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

const PREFIX = 'dlmm.export.publicKey:';

/** Storage key of a sender's public key. */
export function publicKeyStorageKey(sender: string): string {
  return PREFIX + sender;
}

/** The remembered public key of `sender`, or undefined (absent, or not a valid compressed key). */
export function recallPublicKey(store: KeyValueStore, sender: string | undefined): string | undefined {
  if (!sender) return undefined;
  const v = store.get(publicKeyStorageKey(sender));
  return typeof v === 'string' && publicKeyProblem(v) === undefined ? normalizePublicKey(v) : undefined;
}

/** Remembers `publicKey` for `sender` (only a valid compressed key is stored). */
export async function rememberPublicKey(
  store: KeyValueStore,
  sender: string,
  publicKey: string,
): Promise<void> {
  if (publicKeyProblem(publicKey) !== undefined) return;
  await store.update(publicKeyStorageKey(sender), normalizePublicKey(publicKey));
}
