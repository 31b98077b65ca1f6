/**
 * Arguments of `dlmm.exportUnsigned`: `(uri: string, opId?: string)` from a code lens or another command,
 * or the `{ uri, operation }` object the server's operation lenses pass. Anything else (the palette passes
 * nothing; a menu may pass a Uri object) means "the active plan". zod at the boundary. Pure: no vscode.
 */
import * as z from 'zod';

export interface ExportTarget {
  /** The plan's URI as a string; undefined = the active editor's plan. */
  uri?: string;
  /** One operation's id (or index as a string); undefined = whole plan or the one under the cursor. */
  opId?: string;
}

const OpId = z.union([z.string().min(1), z.number().int().nonnegative().transform(String)]);
const LensObject = z.object({ uri: z.string().min(1), operation: OpId.optional() });
/** vscode.Uri as menus pass it (explorer/context): only its string form is used. */
const UriLike = z.object({ scheme: z.string().min(1), path: z.string() });

/** Reads the command's arguments; unknown shapes fall back to the active plan. */
export function parseExportArgs(args: readonly unknown[]): ExportTarget {
  const first = args[0];
  const lens = LensObject.safeParse(first);
  if (lens.success)
    return { uri: lens.data.uri, ...(lens.data.operation ? { opId: lens.data.operation } : {}) };
  if (typeof first === 'string' && first.trim() !== '') {
    const op = OpId.safeParse(args[1]);
    return { uri: first, ...(op.success ? { opId: op.data } : {}) };
  }
  if (UriLike.safeParse(first).success) {
    const text = String(first);
    if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return { uri: text };
  }
  return {};
}
