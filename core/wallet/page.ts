/**
 * The one-time wallet page as a string: strict CSP with a per-page nonce, no remote resource, the summary
 * as `dlmm export --format summary` prints it, the requests as JSON data, and our own small script (the
 * browser half lives in webview/src/wallet/page.ts and is bundled to dist/wallet-page.js; the face hands
 * its text in). No DOM here: this only writes text.
 */
import type { Network } from '../chain/deployments';

/** The SIP-030 request the page sends for one transaction in the wallet-picks-nonce mode. */
export interface CallContractRequest {
  method: 'stx_callContract';
  params: {
    contract: string;
    functionName: string;
    functionArgs: string[];
    postConditions: string[];
    postConditionMode: 'deny' | 'allow';
    network: Network;
    /** The plan's sender: a wallet on another account answers -32001 instead of signing. */
    address: string;
  };
}

/** Everything the page script reads (embedded as JSON in the page). */
export interface WalletPageData {
  sender: string;
  network: Network;
  /** Plan file name, for the title (no directories). */
  plan: string;
  transactions: {
    label: string;
    request: CallContractRequest;
    /** What the user approves, in words: every post-condition, and the sender's totals. */
    approve?: { postConditions: string[]; totals: string[] };
  }[];
}

/** Escapes text for HTML element content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** JSON safe inside a <script type="application/json"> element (no `<`, no line separators). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The Content-Security-Policy of the page. The header carries `frame-ancestors 'none'` too; the page's own
 * <meta> copy leaves it out (browsers ignore it there and say so).
 */
export function pageCsp(nonce: string, where: 'header' | 'meta' = 'header'): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    ...(where === 'header' ? ["frame-ancestors 'none'"] : []),
  ].join('; ');
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1360px;padding:12px 24px;color:#1b1b1b;background:#fafafa}
h1{font-size:20px;margin:6px 0}h2{font-size:16px;margin:14px 0 6px}h3{font-size:14px;margin:8px 0 2px}
.cols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 32px}
@media (max-width:1000px){.cols{grid-template-columns:minmax(0,1fr)}}
.approve ul{margin:2px 0 4px;padding-left:20px}.approve li{margin:1px 0}.approve .totals{margin:2px 0 8px}
.amounts{white-space:nowrap}
pre{background:#fff;border:1px solid #ddd;padding:10px;overflow:auto;font-size:12px}
.note{color:#555}.err{color:#a40000;font-weight:600}.ok{color:#0a6b20;font-weight:600}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top;font-size:13px}
td.answer{font-family:ui-monospace,monospace;word-break:break-all}
fieldset{border:1px solid #ccc;margin:10px 0;padding:8px 12px}label{display:block;margin:3px 0}
input[type=text]{width:14em}button{font-size:14px;padding:5px 14px;margin:4px 8px 4px 0}
`;

/** Shown post-conditions per transaction before the rest fold away (a many-bin add lists one NFT each). */
const SHOWN_CONDITIONS = 8;

/** "What you approve": each transaction's post-conditions and totals, first on the page. */
function approveHtml(data: WalletPageData): string {
  return data.transactions
    .map((t, i) => {
      const a = t.approve;
      const head = `<h3>#${i + 1} ${escapeHtml(t.label)} · ${escapeHtml(t.request.params.functionName)} · post-condition mode ${escapeHtml(t.request.params.postConditionMode)}</h3>`;
      if (!a) return head;
      const li = (w: string) => `<li>${escapeHtml(w)}</li>`;
      const shown = a.postConditions.slice(0, SHOWN_CONDITIONS).map(li).join('');
      const rest = a.postConditions.slice(SHOWN_CONDITIONS);
      const more = rest.length
        ? `<details><summary>${rest.length} more post-condition(s)</summary><ul>${rest.map(li).join('')}</ul></details>`
        : '';
      const list = a.postConditions.length
        ? `<ul>${shown}</ul>${more}`
        : '<p class="note">no post-condition</p>';
      const totals = a.totals.length
        ? `<p class="totals"><strong>Totals:</strong> ${a.totals.map((x) => `<span class="amounts">${escapeHtml(x)}</span>`).join('; ')}</p>`
        : '';
      return `${head}${list}${totals}`;
    })
    .join('');
}

/**
 * The page's HTML: what the user approves (post-conditions and totals) and the controls side by side at
 * the top, where a 1440×900 window shows them without scrolling; the full summary below; the script with
 * its nonce.
 */
export function walletPageHtml(data: WalletPageData, summary: string, script: string, nonce: string): string {
  const rows = data.transactions
    .map(
      (t, i) =>
        `<tr data-index="${i}"><td>#${i + 1}</td><td>${escapeHtml(t.label)}</td><td>${escapeHtml(t.request.params.functionName)}</td><td class="state" data-testid="state-${i}">not sent</td><td class="answer" data-testid="answer-${i}"></td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(pageCsp(nonce, 'meta'))}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>DLMM: send ${data.transactions.length} transaction(s) to your wallet</title>
<style nonce="${nonce}">${STYLE}</style>
</head><body>
<h1>Send ${data.transactions.length} transaction(s) from ${escapeHtml(data.plan)} to your wallet</h1>
<p class="note">Sender <code>${escapeHtml(data.sender)}</code> on ${escapeHtml(data.network)}. This page was served once by dlmm-studio on your own machine; it holds no key and broadcasts nothing itself. Your wallet shows each transaction, and you sign or reject it there.</p>
<div class="cols">
<section class="approve" data-testid="approve">
<h2>What you approve</h2>
${approveHtml(data)}
</section>
<section>
<h2>Transactions, in order</h2>
<table><thead><tr><th></th><th>operation</th><th>function</th><th>state</th><th>answer</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Wallet</h2>
<div id="wallets" data-testid="wallets"><p class="note">Looking for Stacks wallets in this browser…</p></div>
<div id="controls" hidden>
<fieldset><legend>How to send</legend>
<label><input type="radio" name="mode" value="call" checked data-testid="mode-call"> Let the wallet pick nonce and fee (stx_callContract; works with Ledger)</label>
<label><input type="radio" name="mode" value="sign" data-testid="mode-sign"> Exact nonces: sign the unsigned transactions built here (stx_signTransaction)</label>
<div id="exact" hidden>
<label>First nonce <input type="text" id="nonce" inputmode="numeric" data-testid="nonce"></label>
<label>Fee per transaction (micro-STX) <input type="text" id="fee" inputmode="numeric" data-testid="fee"></label>
<label><input type="checkbox" id="broadcast" checked data-testid="broadcast"> Wallet broadcasts after signing (otherwise you get the signed transactions back)</label>
</div>
</fieldset>
<button id="send" data-testid="send">Send to wallet</button>
</div>
<p><button id="finish" data-testid="finish">Finish</button> <span class="note">ends this session: the link stops working and the answers so far are kept.</span></p>
<p id="status" data-testid="status" role="status"></p>
</section>
</div>
<h2>Everything you are about to sign</h2>
<pre data-testid="summary">${escapeHtml(summary)}</pre>
<script type="application/json" id="dlmm-data">${jsonForScript(data)}</script>
<script nonce="${nonce}">${script.replace(/<\/script/gi, '<\\/script')}</script>
</body></html>
`;
}
