/**
 * The dashboard's HTML document, as in the webview-sample: strict CSP (default-src 'none', scripts only by
 * nonce, styles only from the webview's own origin), one script and one stylesheet from dist/. No vscode
 * import, so the Chromium tests serve this same document.
 */
import { randomBytes } from 'node:crypto';

interface DashboardHtmlInput {
  /** webview.cspSource (the origin local resources are served from). */
  cspSource: string;
  /** webview.asWebviewUri(dist/webview.js). */
  scriptUri: string;
  /** webview.asWebviewUri(dist/webview.css). */
  styleUri: string;
}

function attr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The complete HTML of the dashboard panel. */
export function buildDashboardHtml(input: DashboardHtmlInput): string {
  // A fresh nonce for each document (base64 of 16 random bytes).
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `img-src ${input.cspSource} data:`,
    `style-src ${input.cspSource} 'nonce-${nonce}'`,
    `font-src ${input.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(input.styleUri)}" nonce="${attr(nonce)}">
<title>DLMM Dashboard</title>
</head>
<body>
<div id="app" data-testid="app"><p class="boot">Loading the DLMM dashboard…</p></div>
<script nonce="${attr(nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>`;
}
