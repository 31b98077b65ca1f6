/**
 * Where an offset is in a plan: the path of the innermost node containing it, read from the same tree the
 * plan was parsed into — the fast reader's (lightYaml.ts / lightJson.ts) or yaml's composed Document — so a
 * hover on a large plan never composes the Document the fast reader avoided. Navigation only; no plan rule
 * lives here. Both readers give the same answer (test/unit/plan/locate.test.ts).
 */
import type { Document, Node } from 'yaml';
import type { LightMap, LightNode } from './lightYaml';

export type LocatedPath = (string | number)[];

export interface Located {
  /** Path of the innermost value containing the offset (for a key: the path of its value). */
  path: LocatedPath;
  /** The offset is on a key rather than its value. */
  onKey: boolean;
  /** The scalar under the offset, when it is one. */
  scalar?: { value: unknown; offset: number; length: number };
}

// Loaded on first use only, as in parse.ts (a plan the fast reader read never needs it).
let yamlLib: typeof import('yaml') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Y = () => (yamlLib ??= require('yaml') as typeof import('yaml'));

/** Nesting deeper than this is not followed (plans are shallow; the parser limits nesting anyway). */
const MAX_DEPTH = 64;

type Range = readonly [number, number, number];
const within = (r: Range | null | undefined, offset: number): boolean =>
  !!r && offset >= r[0] && offset <= r[1];
const scalarAt = (value: unknown, r: Range) => ({ value, offset: r[0], length: r[1] - r[0] });

/** In the fast reader's tree. An alias is not followed (as in the composed tree, where it is its own node). */
export function locateLight(root: LightMap, offset: number): Located | undefined {
  if (!within(root.range, offset)) return undefined;
  const path: LocatedPath = [];
  let node: LightNode = root;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (node.kind === 'map') {
      let next: LightNode | undefined;
      for (let i = 0; i < node.keys.length; i++) {
        const key = node.keys[i]!;
        const name = String(key.value);
        if (within(key.range, offset))
          return { path: [...path, name], onKey: true, scalar: scalarAt(name, key.range) };
        const value = node.values[i];
        if (value && within(value.range, offset)) {
          path.push(name);
          next = value;
          break;
        }
      }
      if (!next) return { path, onKey: false };
      node = next;
    } else if (node.kind === 'seq') {
      const index: number = node.items.findIndex((it) => within(it.range, offset));
      if (index < 0) return { path, onKey: false };
      path.push(index);
      node = node.items[index]!;
    } else if (node.kind === 'scalar') {
      return { path, onKey: false, scalar: scalarAt(node.value, node.range) };
    } else return { path, onKey: false };
  }
  return { path, onKey: false };
}

/** In yaml's composed Document (plans the fast reader leaves to the full parser). */
export function locateDoc(doc: Document.Parsed | undefined, offset: number): Located | undefined {
  const y = Y();
  if (!doc?.contents) return undefined;
  const path: LocatedPath = [];
  let node: Node | null = doc.contents as Node;
  if (!within(node.range, offset)) return undefined;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (y.isMap(node)) {
      let next: Node | null = null;
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const value = pair.value as Node | null;
        if (!y.isScalar(key)) continue;
        const name = String(key.value);
        if (within(key.range, offset))
          return { path: [...path, name], onKey: true, scalar: scalarAt(name, key.range!) };
        if (value && within(value.range, offset)) {
          path.push(name);
          next = value;
          break;
        }
      }
      if (!next) return { path, onKey: false };
      node = next;
    } else if (y.isSeq(node)) {
      const index = node.items.findIndex((it) => within((it as Node | null)?.range, offset));
      if (index < 0) return { path, onKey: false };
      path.push(index);
      node = node.items[index] as Node;
    } else if (y.isScalar(node)) {
      return { path, onKey: false, scalar: scalarAt(node.value, node.range!) };
    } else return { path, onKey: false };
  }
  return { path, onKey: false };
}
