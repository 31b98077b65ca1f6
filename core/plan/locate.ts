/**
 * Where an offset is in a plan: the path of the innermost node containing it, read from the same tree the
 * plan was parsed into — the fast reader's (lightYaml.ts / lightJson.ts) or yaml's composed Document — so a
 * hover on a large plan never composes the Document the fast reader avoided. Navigation only; no plan rule
 * lives here. Both readers give the same answer (test/unit/plan/lightYaml.test.ts).
 */
import type { Document, Node } from 'yaml';
import type { LightNode } from './lightYaml';

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

/** One node seen the same way in either tree. */
type View<N> =
  | {
      kind: 'map';
      size: number;
      key(i: number): { name: string; range: Range | undefined } | undefined;
      value(i: number): N | null;
    }
  | { kind: 'seq'; size: number; item(i: number): N | undefined }
  | { kind: 'scalar'; value: unknown; range: Range }
  | { kind: 'other' };

/** The innermost node containing `offset`, walking down from `root` through `view`. */
function walk<N>(
  root: N,
  offset: number,
  range: (n: N | null) => Range | null | undefined,
  view: (n: N) => View<N>,
) {
  if (!within(range(root), offset)) return undefined;
  const path: LocatedPath = [];
  let node = root;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const v = view(node);
    if (v.kind === 'map') {
      let next: N | null = null;
      for (let i = 0; i < v.size; i++) {
        const key = v.key(i);
        if (!key) continue;
        if (key.range && within(key.range, offset))
          return { path: [...path, key.name], onKey: true, scalar: scalarAt(key.name, key.range) };
        const value = v.value(i);
        if (value && within(range(value), offset)) {
          path.push(key.name);
          next = value;
          break;
        }
      }
      if (!next) return { path, onKey: false };
      node = next;
    } else if (v.kind === 'seq') {
      const index = itemAt(v, offset, range);
      if (index < 0) return { path, onKey: false };
      path.push(index);
      node = v.item(index)!;
    } else if (v.kind === 'scalar') {
      return { path, onKey: false, scalar: scalarAt(v.value, v.range) };
    } else return { path, onKey: false };
  }
  return { path, onKey: false };
}

/**
 * The index of the first item whose range holds `offset` (-1 when none), by binary search: a sequence's
 * items are in document order, their ranges ordered and apart, so the first item ending at or after `offset`
 * is the only one that can hold it.
 */
function itemAt<N>(
  seq: { size: number; item(i: number): N | undefined },
  offset: number,
  range: (n: N | null) => Range | null | undefined,
): number {
  let lo = 0;
  let hi = seq.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const r = range(seq.item(mid) ?? null);
    // An item without a range (never in either tree) is passed over as ending before `offset`.
    if (r && r[1] >= offset) hi = mid;
    else lo = mid + 1;
  }
  return lo < seq.size && within(range(seq.item(lo) ?? null), offset) ? lo : -1;
}

/** In the fast reader's tree. An alias is not followed (as in the composed tree, where it is its own node). */
export function locateLight(root: LightNode, offset: number): Located | undefined {
  return walk<LightNode>(
    root,
    offset,
    (n) => n?.range,
    (n): View<LightNode> =>
      n.kind === 'map'
        ? {
            kind: 'map',
            size: n.keys.length,
            key: (i) => {
              const k = n.keys[i]!;
              return { name: String(k.value), range: k.range };
            },
            value: (i) => n.values[i] ?? null,
          }
        : n.kind === 'seq'
          ? { kind: 'seq', size: n.items.length, item: (i) => n.items[i] }
          : n.kind === 'scalar'
            ? { kind: 'scalar', value: n.value, range: n.range }
            : { kind: 'other' },
  );
}

/** In yaml's composed Document (plans the fast reader leaves to the full parser). */
export function locateDoc(doc: Document.Parsed | undefined, offset: number): Located | undefined {
  if (!doc?.contents) return undefined;
  const y = Y();
  return walk<Node>(
    doc.contents as Node,
    offset,
    (n) => n?.range,
    (n): View<Node> => {
      if (y.isMap(n)) {
        const items = n.items;
        return {
          kind: 'map',
          size: items.length,
          key: (i) => {
            const k = items[i]!.key;
            return y.isScalar(k) ? { name: String(k.value), range: k.range ?? undefined } : undefined;
          },
          value: (i) => (items[i]!.value as Node | null) ?? null,
        };
      }
      if (y.isSeq(n)) {
        const items = n.items as Node[];
        return { kind: 'seq', size: items.length, item: (i) => items[i] };
      }
      if (y.isScalar(n) && n.range) return { kind: 'scalar', value: n.value, range: n.range };
      return { kind: 'other' };
    },
  );
}
