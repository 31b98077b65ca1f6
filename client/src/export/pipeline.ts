/**
 * The editor export's rendering step: one build of core/tx transactions -> the chosen format's text, the
 * wallet request (for "Copy wallet request") and a markdown summary for the preview. Every format comes
 * from core/tx/formats; this module only wraps the summary for markdown. Pure: no vscode.
 */
import {
  formatExport,
  formatSummary,
  formatWalletRequest,
  type ExportFormat,
  type SigningParams,
} from '../../../core/tx/formats';
import type { BuiltTransaction } from '../../../core/tx/types';

interface RenderedExport {
  /** The chosen format, byte-identical to `dlmm export --format F` (summary: see summaryMarkdown). */
  body: string;
  /** SIP-030 wallet request JSON (always available: needs no signing parameters). */
  walletRequest: string;
  /** The summary in a markdown document (plain summary text inside a fence, so columns stay aligned). */
  summaryMarkdown: string;
  /** The summary as the editor's read-only preview shows it: plain text under a title (no markup). */
  summaryPreview: string;
}

/** Renders every face of one export; tx-hex needs `signing`. */
export async function renderExport(
  txs: BuiltTransaction[],
  format: ExportFormat,
  signing?: SigningParams,
  title = 'DLMM unsigned export',
): Promise<RenderedExport> {
  const summary = formatSummary(txs);
  const summaryMarkdown = toMarkdown(title, summary);
  return {
    body: format === 'summary' ? summaryMarkdown : await formatExport(txs, format, signing),
    walletRequest: formatWalletRequest(txs),
    summaryMarkdown,
    summaryPreview: toPreviewText(title, summary),
  };
}

/** `summary` text as markdown: a heading and the text in a fence longer than any backtick run inside. */
export function toMarkdown(title: string, summary: string): string {
  const longest = Math.max(0, ...[...summary.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `# ${title.replace(/[\r\n]+/g, ' ')}\n\n${fence}text\n${summary.replace(/\n?$/, '\n')}${fence}\n`;
}

/** `summary` text under its title and an underline: the preview reads as text, columns aligned, no markup. */
function toPreviewText(title: string, summary: string): string {
  const heading = title.replace(/[\r\n]+/g, ' ');
  return `${heading}\n${'='.repeat(Math.min(heading.length, 100))}\n\n${summary.replace(/\n?$/, '\n')}`;
}
