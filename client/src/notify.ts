/**
 * The editor's notifications with the extension's text made safe (userText.ts): every message and a modal's
 * detail. Commands call these instead of vscode.window's show*Message, so no notification carries a key.
 */
import * as vscode from 'vscode';
import { isApiError } from '../../core/api/errors';
import { userText } from './userText';

type Show = typeof vscode.window.showInformationMessage;

function safeArgs(rest: unknown[]): unknown[] {
  return rest.map((r) =>
    r !== null && typeof r === 'object' && typeof (r as { detail?: unknown }).detail === 'string'
      ? { ...r, detail: userText((r as { detail: string }).detail) }
      : r,
  );
}

function wrap(pick: () => Show): Show {
  return ((message: string, ...rest: unknown[]) =>
    (pick() as (...a: unknown[]) => Thenable<unknown>)(userText(message), ...safeArgs(rest))) as Show;
}

export const notify = {
  error: wrap(() => vscode.window.showErrorMessage),
  warn: wrap(() => vscode.window.showWarningMessage),
  info: wrap(() => vscode.window.showInformationMessage),
};

/**
 * Runs a command's body so that every failure ends in a message, never a thrown error: in its log and a
 * notification, "DLMM: <what> failed: <why>".
 */
export async function reportingFailure(
  ctx: { log?(line: string): void },
  what: string,
  body: () => Promise<void>,
): Promise<void> {
  try {
    await body();
  } catch (e) {
    const why = isApiError(e) ? `${e.message} [${e.code}]` : e instanceof Error ? e.message : String(e);
    ctx.log?.(`${what} failed: ${why}`);
    void notify.error(`DLMM: ${what} failed: ${why}`);
  }
}
