/**
 * Where the cursor is in the plan: the path of the innermost node at an offset, read from the parser's
 * node ranges (the same tree core parsed). Navigation only; no plan rule lives here.
 */
import { isMap, isScalar, isSeq, type Document, type Node } from 'yaml';

export type Path = (string | number)[];

export interface Located {
  /** Path of the innermost value containing the offset (for a key: the path of its value). */
  path: Path;
  /** The cursor is on a key rather than its value. */
  onKey: boolean;
  /** The scalar under the cursor, when it is one. */
  scalar?: { value: unknown; offset: number; length: number };
}

function contains(n: Node | null | undefined, offset: number): boolean {
  const r = n?.range;
  return !!r && offset >= r[0] && offset <= r[1];
}

/** The innermost node at `offset` in a parsed document (undefined outside the document's content). */
export function locate(doc: Document.Parsed | undefined, offset: number): Located | undefined {
  if (!doc?.contents) return undefined;
  const path: Path = [];
  let node: Node | null = doc.contents as Node;
  if (!contains(node, offset)) return undefined;
  for (let depth = 0; depth < 64; depth++) {
    if (isMap(node)) {
      let next: Node | null = null;
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const value = pair.value as Node | null;
        const name = isScalar(key) ? String(key.value) : undefined;
        if (name === undefined) continue;
        if (key && contains(key, offset)) {
          const r = key.range as [number, number, number];
          return {
            path: [...path, name],
            onKey: true,
            scalar: { value: name, offset: r[0], length: r[1] - r[0] },
          };
        }
        if (value && contains(value, offset)) {
          path.push(name);
          next = value;
          break;
        }
      }
      if (!next) return { path, onKey: false };
      node = next;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((it) => contains(it as Node, offset));
      if (index < 0) return { path, onKey: false };
      path.push(index);
      node = node.items[index] as Node;
    } else if (isScalar(node)) {
      const r = node.range as [number, number, number];
      return { path, onKey: false, scalar: { value: node.value, offset: r[0], length: r[1] - r[0] } };
    } else {
      return { path, onKey: false };
    }
  }
  return { path, onKey: false };
}
