/**
 * Which operation the cursor is in (the palette command exports it, or the whole plan, at the user's
 * choice). Uses the plan parser's own source map (core/plan), never a second reading of the file.
 * Pure: no vscode.
 */
import { parsePlan } from '../../../core/plan/parse';

interface CursorOperation {
  /** The operation's id as written, or its index as a string. */
  id: string;
  index: number;
  /** Number of operations in the plan. */
  count: number;
}

/** The operation containing `offset`, or undefined (outside `operations`, or the plan does not parse). */
export function operationAtOffset(
  text: string,
  fileName: string,
  offset: number,
): CursorOperation | undefined {
  const parsed = parsePlan(text, { fileName });
  const index = parsed.operationIndexAt(offset);
  if (index === undefined) return undefined;
  return { id: parsed.operationId(index), index, count: parsed.operationCount };
}
