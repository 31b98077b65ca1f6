/**
 * `dlmm wallet PLAN [--op ID] [--port N] [--no-open]`: checks the plan live like `dlmm export` (a plan with
 * errors is refused), then serves a one-time page on 127.0.0.1 that hands each transaction to the user's
 * own wallet (SIP-030) and sends the answers back here. Prints `open URL` on stdout, opens the system
 * browser unless --no-open, prints each answer as it arrives and writes them all beside the plan as
 * `<stem>.<all|op-ID>.wallet-answers.json`. Nothing is signed or broadcast by this tool.
 */
import { spawn } from 'node:child_process';
import { basename, dirname, resolve } from 'node:path';
import { allAnswered, answerLine, answersDocument } from '../../../core/wallet/answers';
import { loadWalletPageScript } from '../../../core/wallet/script';
import { DEFAULT_SESSION_MS, startWalletSession } from '../../../core/wallet/session';
import { writeAnswersFile } from '../../../core/wallet/answersFile';
import { hasApiConfigured, parseCommand, withApi } from '../common';
import { checkAndBuild } from '../exportPlan';
import { readTextFile, UsageError, type CliIO } from '../io';
import { notAPlanFile, PLAN_FILE } from './check';
import { loadRouterOverrides } from '../routers';

export const OPTIONS = {
  op: { type: 'string' },
  port: { type: 'string' },
  'no-open': { type: 'boolean' },
} as const;

/** Runs `dlmm wallet`. Exit: 0 every transaction answered; 1 refused, rejected or unfinished; 2 usage / live data. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values, positionals } = parseCommand(args, OPTIONS, { positionals: true });
  if (positionals.length !== 1) throw new UsageError('wallet takes exactly one PLAN file');
  if (common.format !== undefined)
    throw new UsageError('wallet takes no --format (the page shows the summary)');
  const port = parsePort(values.port);
  if (!hasApiConfigured(common, io)) {
    throw new UsageError('wallet reads live pool state: pass --api URL, set DLMM_API_URL, or use --sim');
  }
  const routers = await loadRouterOverrides(io);
  const planArg = positionals[0]!;
  if (!PLAN_FILE.test(planArg)) throw new UsageError(notAPlanFile(planArg));
  const path = resolve(io.cwd, planArg);
  const text = await readTextFile(planArg, io.cwd, 'plan file');
  const opId = typeof values.op === 'string' ? values.op : undefined;
  return withApi(common, io, async (api) => {
    const checked = await checkAndBuild(
      api,
      text,
      path,
      { ...(routers ? { routers } : {}), ...(opId !== undefined ? { opId } : {}) },
      io,
      'dlmm wallet',
    );
    if (!checked.ok) return checked.exitCode;
    if (!checked.sender) {
      io.err("dlmm wallet: the plan names no sender; the wallet's account is checked against it\n");
      return 1;
    }
    const sender = checked.sender;
    const txs = checked.transactions;
    const script = await loadWalletPageScript();
    let session;
    try {
      session = await startWalletSession({
        transactions: txs,
        sender,
        plan: basename(path),
        script,
        ...(port !== undefined ? { port } : {}),
        onAnswer: (a, labels) => io.out(`${answerLine(a, labels)}\n`),
      });
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      io.err(
        `dlmm wallet: cannot listen on 127.0.0.1${port ? `:${port}` : ''}${typeof code === 'string' ? ` (${code})` : ''}\n`,
      );
      return 2;
    }
    const s = session;
    io.out(`open ${s.url}\n`);
    io.err(
      `dlmm wallet: ${txs.length} transaction(s) for ${sender}; the page serves until you finish there ` +
        `(at most ${Math.round(DEFAULT_SESSION_MS / 60_000)} minutes); Ctrl+C stops\n`,
    );
    if (values['no-open'] !== true) openBrowser(s.url, io);
    const onSigint = () => void s.close();
    process.once('SIGINT', onSigint);
    let outcome;
    try {
      outcome = await s.done;
    } finally {
      process.off('SIGINT', onSigint);
    }
    if (outcome.end === 'timeout') io.err('dlmm wallet: the page timed out; its link no longer works\n');
    if (outcome.end === 'closed') io.err('dlmm wallet: stopped; the page link no longer works\n');
    const complete = allAnswered(outcome.answers, txs.length);
    if (outcome.answers.length > 0) {
      const doc = answersDocument({
        plan: basename(path),
        sender,
        network: txs[0]!.network,
        labels: s.labels,
        answers: outcome.answers,
        ended: outcome.end,
      });
      try {
        const file = writeAnswersFile(dirname(path), basename(path), opId, doc);
        io.err(`dlmm wallet: wrote the wallet's answers to ${file} (earlier sessions kept)\n`);
      } catch (e) {
        io.err(
          `dlmm wallet: the answers were not written: ${e instanceof Error ? e.message : String(e)} (they are printed above)\n`,
        );
      }
    }
    io.err(
      complete
        ? `dlmm wallet: all ${txs.length} transaction(s) answered by the wallet\n`
        : `dlmm wallet: not every transaction was signed (${outcome.answers.filter((a) => a.index !== null && !a.error).length} of ${txs.length})\n`,
    );
    return complete ? 0 : 1;
  });
}

function parsePort(v: string | boolean | undefined): number | undefined {
  if (v === undefined) return undefined;
  const text = String(v);
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) {
    throw new UsageError('--port expects a port number between 1 and 65535');
  }
  return Number(text);
}

/** Opens the system browser on the URL; a failure only costs a message (the URL is on stdout). */
function openBrowser(url: string, io: CliIO): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  const failed = () =>
    io.err(`dlmm wallet: could not open a browser (${cmd}); open the URL above yourself\n`);
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', failed);
    child.unref();
  } catch {
    failed();
  }
}
