/**
 * The wallet page's own script (bundled to dist/wallet-page.js and inlined by core/wallet/page.ts with the
 * page's nonce). No wallet SDK: it finds the SIP-030 providers the browser offers and calls
 * `provider.request(method, params)` directly. It checks the wallet's address against the plan's sender
 * before asking anything, sends the transactions in order, shows every answer and posts it back to the
 * editor or CLI that served the page. It never sees a key and never broadcasts itself.
 */
import { walletErrorText } from '../../../core/wallet/sip030Errors';
import type { WalletAnswer } from '../../../core/wallet/answers';
import type { WalletPageData } from '../../../core/wallet/page';

interface Provider {
  request(method: string, params?: unknown): Promise<unknown>;
}
interface Found {
  name: string;
  provider: Provider;
}
type CallOutcome = { ok: true; result: unknown } | { ok: false; code: number; message: string };

const INSTALL = [
  { name: 'Leather', url: 'https://leather.io/install-extension' },
  { name: 'Xverse', url: 'https://www.xverse.app/download' },
];

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const data = JSON.parse($('dlmm-data').textContent ?? '{}') as WalletPageData;
const n = data.transactions.length;
let providers: Found[] = [];
let next = 0;
let busy = false;
let finished = false;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** The object at a dotted path on window (wbip_providers ids are such paths), or undefined. */
function atPath(path: string): unknown {
  let o: unknown = window;
  for (const key of path.split('.')) {
    if (!/^[A-Za-z_$][\w$]*$/.test(key) || !isRecord(o)) return undefined;
    o = o[key];
  }
  return o;
}

/** The SIP-030 providers this browser offers, each once. */
function discover(): Found[] {
  const w = window as unknown as Record<string, unknown>;
  const out: Found[] = [];
  const seen = new Set<unknown>();
  const add = (name: string, p: unknown) => {
    if (!isRecord(p) || typeof p.request !== 'function' || seen.has(p)) return;
    seen.add(p);
    out.push({ name, provider: p as unknown as Provider });
  };
  const listed = w.wbip_providers;
  if (Array.isArray(listed)) {
    for (const e of listed as unknown[]) {
      if (isRecord(e) && typeof e.id === 'string') {
        add(typeof e.name === 'string' ? e.name : e.id, atPath(e.id));
      }
    }
  }
  add('Leather', w.LeatherProvider);
  add('Xverse', isRecord(w.XverseProviders) ? w.XverseProviders.StacksProvider : undefined);
  return out;
}

function errorOf(e: unknown): CallOutcome {
  const inner = isRecord(e) && isRecord(e.error) ? e.error : e;
  const code = isRecord(inner) && typeof inner.code === 'number' ? inner.code : -31000;
  const message =
    isRecord(inner) && typeof inner.message === 'string'
      ? inner.message
      : e instanceof Error
        ? e.message
        : String(e);
  return { ok: false, code, message };
}

/** One request; a JSON-RPC envelope ({result} or {error}) or a bare result, resolved or thrown. */
async function call(p: Provider, method: string, params?: unknown): Promise<CallOutcome> {
  try {
    const r = params === undefined ? await p.request(method) : await p.request(method, params);
    if (isRecord(r) && r.error !== undefined && r.error !== null) return errorOf(r);
    if (isRecord(r) && 'result' in r) return { ok: true, result: r.result };
    return { ok: true, result: r };
  } catch (e) {
    return errorOf(e);
  }
}

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as unknown;
  return isRecord(json) ? json : {};
}

async function report(a: WalletAnswer): Promise<void> {
  try {
    await post('answer', a);
  } catch {
    setStatus('This answer could not be sent back to the editor: the session has ended.', true);
  }
}

function setStatus(text: string, error = false): void {
  const s = $('status');
  s.textContent = text;
  s.className = error ? 'err' : '';
}

function setRow(i: number, state: string, answer: string, error = false): void {
  const st = document.querySelector<HTMLElement>(`[data-testid="state-${i}"]`);
  const an = document.querySelector<HTMLElement>(`[data-testid="answer-${i}"]`);
  if (st) {
    st.textContent = state;
    st.className = `state ${error ? 'err' : answer ? 'ok' : ''}`;
  }
  if (an) an.textContent = answer;
}

function renderProviders(): void {
  providers = discover();
  const box = $('wallets');
  box.replaceChildren();
  if (providers.length === 0) {
    const p = document.createElement('p');
    p.dataset.testid = 'no-provider';
    p.textContent =
      'No Stacks wallet was found in this browser. These wallets work with this page (SIP-030): ';
    INSTALL.forEach((w, i) => {
      const a = document.createElement('a');
      a.href = w.url;
      a.textContent = w.name;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      p.append(a, i < INSTALL.length - 1 ? ', ' : '. ');
    });
    p.append(
      'Install one in this browser (or open this page in the browser where your wallet is), unlock it, ' +
        'then look again. Nothing is asked and nothing is sent until you pick a wallet.',
    );
    const again = document.createElement('button');
    again.textContent = 'Look again';
    again.dataset.testid = 'look-again';
    again.addEventListener('click', renderProviders);
    box.append(p, again);
    $('controls').hidden = true;
    return;
  }
  const fs = document.createElement('fieldset');
  const legend = document.createElement('legend');
  legend.textContent = 'Wallets found in this browser';
  fs.append(legend);
  providers.forEach((f, i) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'wallet';
    input.value = String(i);
    input.checked = i === 0;
    input.dataset.testid = `wallet-${i}`;
    label.append(input, ` ${f.name}`);
    fs.append(label);
  });
  box.append(fs);
  $('controls').hidden = finished;
}

function chosen(): Found | undefined {
  const input = document.querySelector<HTMLInputElement>('input[name=wallet]:checked');
  return input ? providers[Number(input.value)] : undefined;
}

function mode(): 'call' | 'sign' {
  return document.querySelector<HTMLInputElement>('input[name=mode]:checked')?.value === 'sign'
    ? 'sign'
    : 'call';
}

/** STX addresses (with public keys when given) from stx_getAddresses, or the older getAddresses. */
async function walletAccounts(
  p: Provider,
): Promise<
  { ok: true; accounts: { address: string; publicKey?: string }[] } | (CallOutcome & { ok: false })
> {
  let r = await call(p, 'stx_getAddresses');
  if (!r.ok && r.code === -32601) r = await call(p, 'getAddresses');
  if (!r.ok) return r;
  const list =
    isRecord(r.result) && Array.isArray(r.result.addresses) ? (r.result.addresses as unknown[]) : [];
  const accounts: { address: string; publicKey?: string }[] = [];
  for (const e of list) {
    if (!isRecord(e) || typeof e.address !== 'string') continue;
    if (e.symbol !== undefined && e.symbol !== 'STX') continue;
    if (!/^S[MNPT][0-9A-Z]+$/.test(e.address)) continue;
    accounts.push({
      address: e.address,
      ...(typeof e.publicKey === 'string' ? { publicKey: e.publicKey } : {}),
    });
  }
  return { ok: true, accounts };
}

async function send(): Promise<void> {
  const found = chosen();
  if (!found || busy || finished) return;
  busy = true;
  $<HTMLButtonElement>('send').disabled = true;
  try {
    await sendFrom(found);
  } finally {
    busy = false;
    $<HTMLButtonElement>('send').disabled = finished;
  }
}

async function sendFrom(found: Found): Promise<void> {
  const m = mode();
  let nonce = '';
  let fee = '';
  if (m === 'sign') {
    nonce = $<HTMLInputElement>('nonce').value.trim();
    fee = $<HTMLInputElement>('fee').value.trim();
    if (!/^\d{1,19}$/.test(nonce) || !/^\d{1,19}$/.test(fee)) {
      setStatus('Exact nonces need the first nonce and the fee as whole numbers.', true);
      return;
    }
  }
  setStatus(`Asking ${found.name} which account it uses…`);
  const acc = await walletAccounts(found.provider);
  if (!acc.ok) {
    setStatus(`${found.name} did not give its address: ${walletErrorText(acc.code)}: ${acc.message}`, true);
    await report({
      index: null,
      method: 'stx_getAddresses',
      error: { code: acc.code, message: acc.message },
    });
    return;
  }
  const match = acc.accounts.find((a) => a.address === data.sender);
  if (!match) {
    const offered = acc.accounts.map((a) => a.address);
    const message =
      `the wallet's account is ${offered.join(', ') || 'no Stacks address'}, but the plan's sender is ${data.sender}; ` +
      'switch to that account in the wallet and send again (nothing was asked)';
    setStatus(`Address mismatch: ${message}.`, true);
    await report({
      index: null,
      method: 'stx_getAddresses',
      error: { code: -32001, message },
      addresses: offered,
    });
    return;
  }
  let unsigned: string[] = [];
  if (m === 'sign') {
    if (!match.publicKey) {
      setStatus(`${found.name} did not give the account's public key, which exact nonces need.`, true);
      return;
    }
    const r = await post('unsigned', { publicKey: match.publicKey, nonce, fee });
    if (r.ok !== true || !Array.isArray(r.transactions)) {
      setStatus(
        `The unsigned transactions could not be built: ${String(r.message ?? 'the session has ended')}`,
        true,
      );
      return;
    }
    unsigned = r.transactions as string[];
  }
  const broadcast = $<HTMLInputElement>('broadcast').checked;
  for (let i = next; i < n; i++) {
    const method = m === 'call' ? 'stx_callContract' : 'stx_signTransaction';
    const params =
      m === 'call'
        ? data.transactions[i]!.request.params
        : { transaction: unsigned[i]!, broadcast, network: data.network };
    setRow(i, 'waiting for the wallet…', '');
    setStatus(`#${i + 1} of ${n}: confirm or reject it in ${found.name}.`);
    const r = await call(found.provider, method, params);
    if (!r.ok) {
      const text = `${walletErrorText(r.code)}: ${r.message}`;
      setRow(i, 'not sent', text, true);
      await report({ index: i, method, error: { code: r.code, message: r.message } });
      next = i;
      setStatus(
        `Stopped at #${i + 1}: ${text}. The later transactions were not asked. Send again to continue from #${i + 1}, or Finish.`,
        true,
      );
      return;
    }
    const res = isRecord(r.result) ? r.result : {};
    const txid = typeof res.txid === 'string' ? res.txid : undefined;
    const transaction = typeof res.transaction === 'string' ? res.transaction : undefined;
    setRow(
      i,
      txid ? 'sent by the wallet' : 'signed',
      txid ? `txid ${txid}` : transaction ? `signed ${transaction.length / 2} bytes` : 'answered',
    );
    await report({
      index: i,
      method,
      ...(txid ? { txid } : {}),
      ...(transaction ? { transaction } : {}),
    });
    next = i + 1;
  }
  await finish(
    `All ${n} transaction(s) answered; the answers went back to dlmm-studio. You can close this page.`,
  );
}

async function finish(message: string): Promise<void> {
  finished = true;
  $('controls').hidden = true;
  $<HTMLButtonElement>('finish').disabled = true;
  try {
    await post('done', {});
  } catch {
    // The session may already have ended (time limit); the page says what happened either way.
  }
  setStatus(message);
  document.body.dataset.finished = 'true';
}

$('send').addEventListener('click', () => void send());
$('finish').addEventListener(
  'click',
  () => void finish('Finished. This page and its link no longer work; you can close it.'),
);
for (const r of document.querySelectorAll<HTMLInputElement>('input[name=mode]')) {
  r.addEventListener('change', () => {
    $('exact').hidden = mode() !== 'sign';
  });
}
renderProviders();
// Some wallets inject their provider after the document has loaded: look once more then.
if (providers.length === 0) window.addEventListener('load', renderProviders, { once: true });
document.body.dataset.ready = 'true';
