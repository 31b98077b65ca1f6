/**
 * Text we print or publish is made safe at the edge: configured secrets are redacted wherever they came
 * from (a service body echoing the X-API-Key, a plan value), and control characters that a terminal would
 * act on (ESC sequences that retitle the window or clear the screen, carriage returns, C1 controls, bidi
 * overrides) are written as visible `\u001b`-style escapes. Pure functions, used by every face.
 */

/** What replaces a secret in any text we print. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are not searched for (they would garble ordinary words); keys are longer. */
const MIN_SECRET_LENGTH = 6;

/**
 * The environment variables that hold keys: the service key and the core swap API's three keys (the client
 * library's variable names). The one list every face (CLI, language server, extension) redacts from.
 */
export const KEY_ENV_VARIABLES = [
  'DLMM_API_KEY',
  'BITFLOW_API_KEY',
  'READONLY_CALL_API_KEY',
  'KEEPER_API_KEY',
] as const;

/** The keys set in `env` under KEY_ENV_VARIABLES (empty ones skipped). */
export function keysFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const name of KEY_ENV_VARIABLES) {
    const v = env[name];
    if (v) out.push(v);
  }
  return out;
}

/**
 * The user information of a URL (`http://user:pw@host/…`): from the scheme's `//` to the last `@` before the
 * host ends (WHATWG URL parsing takes the last `@` of the authority, so a password holding `@` is covered).
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#'"<>`]*@/gi;

/**
 * A query (or fragment) parameter, `?name=value`, `&name=value`, `;name=value` or `#name=value`: its name
 * and its value as written (up to the next separator, space, quote or bracket).
 */
const URL_PARAMETER = /([?&;#])([^=?&;#\s'"<>`]*)=([^?&;#\s'"<>`]*)/g;

/**
 * Whether a URL parameter of this name carries a credential: its name (percent escapes decoded, case
 * ignored) contains `key`, `token`, `secret`, `pass`, `pwd`, `auth`, `sig`, `cred` or `session`. A list of
 * words rather than of names, since services name them every way (`api_key`, `apiKey`, `X-Api-Key`, `key`,
 * `access_token`, `client_secret`, `password`, `auth`, `sig`, `X-Amz-Signature`, `sessionid`); a parameter that
 * merely looks like one loses only its value in what we show. Every value is not redacted, because URLs we
 * show for other reasons (an explorer link's `?chain=mainnet`) must stay readable.
 */
const CREDENTIAL_PARAMETER = /key|token|secret|pass|pwd|auth|sig|cred|session/i;

/**
 * `text` with the credentials of every URL in it replaced: the user information (`http://[redacted]@host/api`)
 * and the value of each query or fragment parameter named like a credential (`?api_key=[redacted]`).
 */
export function redactUrlCredentials(text: string): string {
  let out = text;
  if (out.includes('@')) {
    URL_CREDENTIALS.lastIndex = 0;
    out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  }
  if (out.includes('=')) {
    URL_PARAMETER.lastIndex = 0;
    out = out.replace(URL_PARAMETER, (whole, sep: string, name: string, value: string) =>
      value.length > 0 && value !== REDACTED && CREDENTIAL_PARAMETER.test(decodedName(name))
        ? `${sep}${name}=${REDACTED}`
        : whole,
    );
  }
  return out;
}

/** A parameter name with its percent escapes and `+` decoded (as written when they are not valid). */
function decodedName(name: string): string {
  if (!name.includes('%') && !name.includes('+')) return name;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** `url` as text that may be shown: its user information and credential parameters replaced (the rest as written). */
export function displayUrl(url: string | URL): string {
  return redactUrlCredentials(String(url));
}

/**
 * `text` with every occurrence of each secret (as written, JSON-escaped or URL-encoded) replaced, and the
 * credentials of any URL in it (redactUrlCredentials): a service URL with `user:pw@` or `?api_key=…` never
 * leaves the process.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = redactUrlCredentials(text);
  for (const s of secrets) {
    if (s === undefined || s.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)])) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
  }
  return out;
}

/**
 * C0 controls except tab and newline, DEL, C1 controls, line/paragraph separators and the bidi
 * embedding/override/isolate characters (which can make text read differently than it is).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every unsafe control character written as a visible `\uXXXX` escape. */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Redacts, then escapes: the one call an edge makes before printing or publishing text. */
export function safeText(text: string, secrets: readonly (string | undefined)[]): string {
  return escapeControl(redactSecrets(text, secrets));
}

/**
 * A JSON-like value with every configured secret redacted from its strings (control characters left as
 * they are: for values a page renders as text). Returned unchanged, not copied, when no string holds one.
 */
export function redactDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const live = secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const r = redactSecrets(v, live);
      return r === v ? v : r;
    }
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const w = walk(v[i]);
        if (w !== v[i]) (out ??= v.slice())[i] = w;
      }
      return out ?? v;
    }
    if (v !== null && typeof v === 'object') {
      let out: Record<string, unknown> | undefined;
      for (const [k, x] of Object.entries(v)) {
        const w = walk(x);
        if (w === x) continue;
        out ??= { ...(v as Record<string, unknown>) };
        Object.defineProperty(out, k, { value: w, enumerable: true, writable: true, configurable: true });
      }
      return out ?? v;
    }
    return v;
  };
  return walk(value) as T;
}

/** A JSON-like value with safeText applied to every string in it (LSP results, status notifications). */
export function safeDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  if (typeof value === 'string') return safeText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => safeDeep(v, secrets)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = safeDeep(v, secrets);
    return out as T;
  }
  return value;
}
