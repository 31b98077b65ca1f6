/**
 * What the extension shows a person (notifications, the output channels, the dashboard's messages) passes
 * through here: the configured keys are redacted — the service key from secret storage and the keys of the
 * environment the editor runs in (the one list in core/text/safe.ts: DLMM_API_KEY and the core swap API's
 * BITFLOW_API_KEY, READONLY_CALL_API_KEY, KEEPER_API_KEY) — and control characters escaped. No vscode
 * import, so tests run it as it is.
 */
import { keysFromEnv, redactDeep, safeText } from '../../core/text/safe';

let storedKeys: () => readonly (string | undefined)[] = () => [];

/** The keys held in secret storage (set once at activation). */
export function setStoredKeys(source: () => readonly (string | undefined)[]): void {
  storedKeys = source;
}

/** Every key to redact now: secret storage's and the environment's. */
export function userSecrets(
  env: Readonly<Record<string, string | undefined>> = process.env,
): (string | undefined)[] {
  return [...storedKeys(), ...keysFromEnv(env)];
}

/** A line for a person: keys redacted, control characters escaped. */
export function userText(text: string): string {
  return safeText(text, userSecrets());
}

/** A message for a page that renders text (the dashboard): keys redacted from every string in it. */
export function userData<T>(value: T): T {
  return redactDeep(value, userSecrets());
}
