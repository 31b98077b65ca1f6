/**
 * Where an editor export is written: next to the plan, as `<stem>.<all|op-ID>.<format>.<ext>`, where
 * `<stem>` is the plan's name without its `.dlmm.*` suffix (so an export never looks like a plan file and
 * never picks up the plan schema). An operation id is prefixed with `op-` so an id named "all" cannot
 * collide with the whole-plan export. Pure, unit-tested; shared by the editor export and `dlmm wallet`.
 */
import type { ExportFormat } from './formats';
import { PLAN_FILE } from '../plan/fileName';

/** File extension per format: tx-hex is text, summary is markdown, the JSON formats are json. */
const FORMAT_EXTENSION: Record<ExportFormat, 'txt' | 'json' | 'md'> = {
  'tx-hex': 'txt',
  'wallet-request': 'json',
  json: 'json',
  summary: 'md',
};

const MAX_ID_LENGTH = 60;

export { isPlanPath } from '../plan/fileName';

/** The plan's file name without directories and without the `.dlmm.yaml|yml|json` suffix. */
export function planStem(planPath: string): string {
  const base = planPath.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(PLAN_FILE, '');
  return stem === '' ? 'plan' : stem;
}

/** An operation id made safe for a file name: other characters become `_`, length is bounded. */
export function safeIdPart(opId: string): string {
  const cleaned = opId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_ID_LENGTH);
  return cleaned === '' ? '_' : cleaned;
}

/** Export file name for the whole plan (`opId` undefined) or one operation. */
export function exportFileName(planPath: string, opId: string | undefined, format: ExportFormat): string {
  const scope = opId === undefined ? 'all' : `op-${safeIdPart(opId)}`;
  return `${planStem(planPath)}.${scope}.${format}.${FORMAT_EXTENSION[format]}`;
}
