/**
 * Where an offset is in a plan: the path of the innermost node containing it, read from the tree the plan was
 * parsed into (the fast readers' own, or yaml's composed Document seen as one: parse.ts lightFromDoc), so a
 * hover on a large plan never composes the Document the fast reader avoided. Navigation only; no plan rule
 * lives here. Both readers give the same answer (test/unit/plan/lightYaml.test.ts).
 */
import type { LightNode, LightRange } from './lightYaml';

export type LocatedPath = (string | number)[];

export interface Located {
  /** Path of the innermost value containing the offset (for a key: the path of its value). */
  path: LocatedPath;
  /** The offset is on a key rather than its value. */
  onKey: boolean;
  /** The scalar under the offset, when it is one. */
  scalar?: { value: unknown; offset: number; length: number };
}

/** Nesting deeper than this is not followed (plans are shallow; the parser limits nesting anyway). */
const MAX_DEPTH = 64;

const within = (r: LightRange | undefined, offset: number): boolean =>
  !!r && offset >= r[0] && offset <= r[1];
const scalarAt = (value: unknown, r: LightRange) => ({ value, offset: r[0], length: r[1] - r[0] });

/** The innermost node containing `offset`. An alias is not followed: it is a node of its own, as in yaml's. */
export function locate(root: LightNode | undefined, offset: number): Located | undefined {
  if (!root || !within(root.range, offset)) return undefined;
  const path: LocatedPath = [];
  let node = root;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (node.kind === 'map') {
      let next: LightNode | undefined;
      for (let i = 0; i < node.keys.length && !next; i++) {
        const key = node.keys[i]!;
        const name = String(key.value);
        if (within(key.range, offset))
          return { path: [...path, name], onKey: true, scalar: scalarAt(name, key.range) };
        const value = node.values[i];
        if (value && within(value.range, offset)) {
          path.push(name);
          next = value;
        }
      }
      if (!next) return { path, onKey: false };
      node = next;
    } else if (node.kind === 'seq') {
      const index = itemAt(node.items, offset);
      if (index < 0) return { path, onKey: false };
      path.push(index);
      node = node.items[index]!;
    } else if (node.kind === 'scalar') {
      return { path, onKey: false, scalar: scalarAt(node.value, node.range) };
    } else return { path, onKey: false };
  }
  return { path, onKey: false };
}

/**
 * The index of the first item whose range holds `offset` (-1 when none), by binary search: a sequence's
 * items are in document order, their ranges ordered and apart, so the first item ending at or after `offset`
 * is the only one that can hold it.
 */
function itemAt(items: readonly (LightNode | undefined)[], offset: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const r = items[mid]?.range;
    // An empty slot (a pair as an item) is passed over as ending before `offset`.
    if (r && r[1] >= offset) hi = mid;
    else lo = mid + 1;
  }
  return lo < items.length && within(items[lo]?.range, offset) ? lo : -1;
}
