/**
 * The fast plan reader (core/plan/lightYaml.ts) against the real `yaml` parser: whenever the fast reader
 * accepts a text, its value and every node range and flow flag equal parseDocument + toJS. Texts outside
 * its subset must be refused (the analyzer then falls back to parseDocument).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { parseLightYaml, type LightNode } from '../../../core/plan/lightYaml';
import { lightFromDoc, parsePlan } from '../../../core/plan/parse';
import { locate } from '../../../core/plan/locate';
import { parseLightJson } from '../../../core/plan/lightJson';
import { POOL1, SBTC, SENDER, USDCX } from './helpers';
import { prng } from '../../../core/sim/history';

function composed(text: string) {
  return parseDocument(text, { intAsBigInt: true, prettyErrors: false, uniqueKeys: true });
}

/** Compares a light node with the yaml node at `where`; returns the first difference. */
function diff(light: LightNode, node: unknown, text: string, where: string): string | undefined {
  const r = (node as Node | null)?.range;
  const show = (x: readonly number[] | undefined | null): string =>
    x ? `[${x.join(',')}] ${JSON.stringify(text.slice(x[0], x[1]))}` : String(x);
  if (!r || r[0] !== light.range[0] || r[1] !== light.range[1] || r[2] !== light.range[2])
    return `${where}: range ${show(light.range)} vs yaml ${show(r)}`;
  if (light.kind === 'scalar') {
    if (!isScalar(node)) return `${where}: scalar vs ${String(node)}`;
    return light.value === node.value || (Number.isNaN(light.value) && Number.isNaN(node.value))
      ? undefined
      : `${where}: value ${String(light.value)} vs yaml ${String(node.value)}`;
  }
  if (light.kind === 'alias') return isAlias(node) ? undefined : `${where}: alias vs ${String(node)}`;
  if (light.kind === 'map') {
    if (!isMap(node)) return `${where}: map vs other`;
    if (node.flow !== light.flow && !(node.flow === undefined && !light.flow)) return `${where}: flow flag`;
    if (node.items.length !== light.keys.length)
      return `${where}: ${light.keys.length} keys vs ${node.items.length}`;
    for (let i = 0; i < light.keys.length; i++) {
      const pair = node.items[i]!;
      const k = diff(light.keys[i]!, pair.key, text, `${where}.key${i}`);
      if (k) return k;
      const v = diff(light.values[i]!, pair.value, text, `${where}.${String(light.keys[i]!.value)}`);
      if (v) return v;
    }
    return undefined;
  }
  if (!isSeq(node)) return `${where}: seq vs other`;
  if (node.flow !== light.flow && !(node.flow === undefined && !light.flow)) return `${where}: flow flag`;
  if (node.items.length !== light.items.length) return `${where}: item count`;
  for (let i = 0; i < light.items.length; i++) {
    const d = diff(light.items[i]!, node.items[i], text, `${where}[${i}]`);
    if (d) return d;
  }
  return undefined;
}

/** Asserts equivalence when the fast reader accepts `text`; returns whether it did. */
function check(text: string): boolean {
  const light = parseLightYaml(text, 100);
  if (!light) return false;
  const doc = composed(text);
  assert.equal(
    doc.errors.length,
    0,
    `fast reader accepted a text yaml rejects (${doc.errors.map((e) => `${e.code} at ${e.pos[0]}`).join(', ')}):\n${text}`,
  );
  assert.deepEqual(light.value, doc.toJS(), `value differs for:\n${text}`);
  const d = diff(light.root, doc.contents, text, 'root');
  assert.equal(d, undefined, `${d}\n--- text:\n${text}`);
  return true;
}

/** Comment texts: plan lines commented out, prose with YAML indicators. */
const COMMENT_TEXT = [
  'comment',
  '- { bin_id: 3, x_amount: 0, y_amount: 5 }',
  'op: add',
  "don't! &a *b | > ? % @ `x` \\ ---",
  '{b}',
  '',
  '#',
];

/**
 * Double-quoted contents with escapes (valid ones yaml resolves, and invalid ones the reader must leave to
 * yaml), and raw tabs.
 */
const ESCAPED = [
  'a\\"b\\\\c',
  '\\t\\n\\r\\0\\a\\b\\e\\f\\v',
  '\\N\\_\\L\\P\\/\\ x',
  '\\x41\\u00e9\\U0001F600',
  '\\uD83D\\uDE00 \\uD800',
  'tab\tinside',
  '\\\ttab escape',
  '\\q',
  '\\x4',
  '\\U00110000',
  '\\uZZZZ',
  'ends with \\\\',
  '\\',
];

/** Small deterministic PRNG (mulberry32), the simulator's. */
const rng = prng;

/** A random plan-shaped YAML text: comments, blank lines, spacing, quoting, flow and block styles. */
function randomPlan(seed: number): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const chance = (p: number): boolean => r() < p;
  // Forms a plan may use throughout: tabs in separation, quoted keys (JSON-ish YAML), escapes.
  const tabs = chance(0.25);
  const quotedKeys = chance(0.25);
  const escapes = chance(0.3);
  const sp = (): string =>
    tabs && chance(0.3) ? pick(['\t', ' \t', '\t ', '\t\t']) : ' '.repeat(pick([1, 1, 1, 2, 3]));
  /** A key as written: plain, or double- or single-quoted (some with an escape), some with a space before `:`. */
  const key = (k: string): string =>
    (quotedKeys && chance(0.5)
      ? pick([`"${k}"`, `'${k}'`, `"${k.replace('_', '\\x5f')}"`, `"${k}\\t"`, `'it''s'`])
      : k) + (chance(0.05) ? ' ' : '');
  const tail = (): string =>
    chance(0.2)
      ? `${sp()}# note ${pick(['a', 'x: y', '- z', '{b}', 'tab\there'])}`
      : chance(0.1)
        ? pick(['  ', tabs ? '\t' : ' ', tabs ? ' \t ' : ''])
        : '';
  // Blank, space-only and comment-only lines before any line: comments at every column (less, as and more
  // indented than the line that follows; after the last item of nested collections; at the end of the
  // text, sometimes without a final newline), with text that would mean something outside a comment.
  const comment = (indent: number): string =>
    `${' '.repeat(pick([0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, indent, indent, indent - 1, indent + 1, indent + 2].map((c) => Math.max(0, c))))}#${pick([' ', '', '  '])}${pick(COMMENT_TEXT)}\n`;
  const filler = (indent: number): string => {
    if (!chance(0.3)) return '';
    let out = '';
    for (let n = 1 + Math.floor(r() * 3); n > 0; n--)
      out += chance(0.7) ? comment(indent) : pick(['\n', '   \n', ' \n']);
    return out;
  };
  // Anchors on values and items, aliases of them later (block values, flow values, seq items).
  const anchors: string[] = [];
  const anchor = (): string => {
    const name = `a${anchors.length}`;
    anchors.push(name);
    return `&${name}${sp()}`;
  };
  const value = (flow: boolean): string =>
    anchors.length > 0 && chance(0.06)
      ? `*${pick(anchors)}`
      : chance(flow ? 0.04 : 0.06)
        ? anchor() + (tags && chance(0.3) ? tagged() : scalar())
        : tags && chance(0.15)
          ? tagged()
          : scalar();
  /** A tag and a scalar: mostly one the tag resolves (`!!float 1.5`), else any (`!!float 12` stays a string). */
  const tagged = (): string => {
    if (chance(0.1)) return tag() + scalar();
    const t = pick(['str', 'int', 'float', 'bool', 'null']);
    const fits: Record<string, string[]> = {
      str: ['1', 'true', 'abc', '"x"', "'7'"],
      int: ['0', '-12', '"5"', '1.0'],
      float: ['1.5', '-0.25', '2e3', '1E-2', '"0.5"', '7', '.5'],
      bool: ['true', 'False', 'TRUE', '"true"', 'yes'],
      null: ['null', 'Null', 'NULL', '"~"', "'null'", 'nil'],
    };
    return `!!${t}${pick([' ', ' ', '  ', '\t'])}${pick(fits[t]!)}`;
  };
  // Tags: the reader takes `!!str` and `!!int` on scalars; the others (and odd spacing) it leaves to yaml.
  const tags = chance(0.2);
  const tag = (): string =>
    pick([
      '!!str ',
      '!!int ',
      '!!float ',
      '!!bool ',
      '!!null ',
      '!!str\t',
      '!!float\t',
      '!!str ',
      '!!int ',
      chance(0.3) ? pick(['!foo ', '!!str&x ', '!!map ', '!!seq ', '!!binary ', '!!int&x ']) : '!!str ',
    ]);
  /** `!!map` / `!!seq` before a collection (sometimes the wrong one, which yaml reads otherwise). */
  const collTag = (kind: 'map' | 'seq'): string =>
    tags && chance(0.3)
      ? `${chance(0.9) ? `!!${kind}` : pick(['!!map', '!!seq', '!foo', '!!set'])}${pick([' ', ' ', '  ', '\t'])}`
      : '';
  // Explicit keys: `? key` and, on a later line at the key's column, `: value`.
  const explicit = chance(0.2);
  const scalar = (): string =>
    pick([
      String(Math.floor(r() * 2000) - 1000),
      '0',
      `"${pick(['abc', '12', 'a b', 'x:y', '', 'a & b! *c', '# not a comment', chance(0.05) ? 'a\\"b' : 'ab', ...(escapes ? ESCAPED : [])])}"`,
      `'${pick(['q', '7', 'with space', 'x > y | z ? %', '"q"', ...(escapes ? ["it''s", "''", "a''''b", 'tab\there'] : [])])}'`,
      pick(['0.5', '1.25', '-2.0', 'abc', 'dlmm_1', SENDER, POOL1, './s.json', 'a:b', 'x-y']),
      ...(tags
        ? [
            pick(['true', 'False', 'TRUE', 'null', 'Null', 'NULL', '.inf', '-.Inf', '+.INF', '.nan', '.NaN']),
            pick(['1e3', '2.5E-3', '-0.0', '"1.5"', '"true"', "'null'", '"~"', 'yes', '1_000']),
          ]
        : []),
    ]);
  // Multi-line flow collections: a line break (sometimes a blank line too) and an indentation around the
  // column `multi` of the block collection holding them (deeper, as yaml wants, sometimes at or left of it).
  let multi = -1;
  const brk = (): string =>
    multi >= 0 && chance(0.3)
      ? `${chance(0.15) ? pick([' # note', '  #', '\t# x: [y]', '# glued']) : ''}\n${chance(0.1) ? pick(['\n', '   \n', '# a comment line\n', `${' '.repeat(multi + 2)}# a comment, {x}\n`]) : ''}${' '.repeat(Math.max(0, multi + pick([1, 2, 2, 4, 6, 0, -1])))}`
      : '';
  const flowMap = (keys: string[]): string => {
    const parts = keys.map((k) => {
      const written = key(k);
      // After a quoted key the value may follow the `:` at once (JSON style).
      return `${written}:${/["']$/.test(written) && chance(0.3) ? '' : brk() || sp()}${flowItem()}`;
    });
    const o = pick(['{ ', '{', '{  ']) + brk();
    const c = brk() + pick([' }', '}', '  }', ...(multi >= 0 ? [', }', ',}'] : [])]);
    return `${o}${parts.join(pick([', ', ',', ' , ']) + brk())}${c}`;
  };
  /** A value inside a flow collection: mostly a scalar; in multi-line ones sometimes a nested or empty one. */
  const flowItem = (): string =>
    multi >= 0 && chance(0.1)
      ? pick([
          '[]',
          '{ }',
          `[${value(true)}, ${collTag('seq')}[${value(true)}]${brk()}]`,
          `{ k: ${collTag('seq')}[${value(true)},${brk()} ${value(true)}] }`,
        ])
      : chance(0.12)
        ? flowWords()
        : value(true);
  /**
   * A plain scalar of several words in a flow collection, or (in one over several lines) a plain or quoted
   * scalar over several lines, its lines around the column `multi` (deeper, as yaml wants, sometimes not),
   * blank lines and an escaped line break sometimes.
   */
  const flowWords = (): string => {
    const w = (): string =>
      chance(0.9)
        ? pick(['two words', 'a  b', 'x - y', 'dlmm_1 and 2', 'it is 5', 'true false'])
        : pick(['c:d e', 'a #b', '1 2', 'a: b']);
    if (multi < 0 || chance(0.3)) return w();
    const ind = (): string =>
      ' '.repeat(Math.max(0, multi + (chance(0.95) ? pick([1, 2, 4]) : pick([0, -1]))));
    const blank = (): string => (chance(0.15) ? pick(['\n', '  \n']) : '');
    const kind = pick(['plain', 'plain', 'double', 'single']);
    const q = kind === 'double' ? '"' : kind === 'single' ? "'" : '';
    const esc = kind === 'double' && escapes && chance(0.4) ? '\\' : '';
    return `${q}${w()}${pick(['', ' ', '  '])}${esc}\n${esc ? '' : blank()}${ind()}${w()}${q}`;
  };
  /** A flow sequence of `items` over several lines (or on one), its closing bracket around `col`. */
  const flowSeq = (col: number, items: () => string[]): string => {
    multi = col;
    const parts = items();
    let out = '[';
    parts.forEach((it, i) => {
      out += (brk() || pick([' ', ''])) + it + (i < parts.length - 1 || chance(0.2) ? pick([',', ' ,']) : '');
    });
    out += chance(0.6)
      ? `\n${' '.repeat(Math.max(0, col + pick([0, 0, 1, 2, -1])))}]`
      : `${pick([' ', ''])}]`;
    multi = -1;
    return out;
  };
  const blockMap = (keys: string[], indent: number, first: boolean): string => {
    let out = '';
    keys.forEach((k, i) => {
      if (!(first && i === 0)) out += filler(indent) + ' '.repeat(indent);
      if (explicit && chance(0.5)) {
        // `? key`, then `: value` on a later line (comment and blank lines between), mostly at the key's
        // column; the value on the `:` line, or a block sequence or map on the lines after it.
        out += `?${pick([' ', ' ', '  ', '\t'])}${key(k)}${tail()}\n${filler(indent)}`;
        out += ' '.repeat(Math.max(0, indent + (chance(0.99) ? 0 : pick([-1, 1, 2]))));
        if (chance(0.15)) {
          const at = indent + pick([0, 2, 2, 4]);
          out += `:${tail()}\n${filler(at)}`;
          out += chance(0.5)
            ? `${' '.repeat(at)}- ${value(false)}\n${' '.repeat(at)}- ${value(false)}${tail()}\n`
            : `${' '.repeat(at + 1)}sub: ${value(false)}\n${' '.repeat(at + 1)}other: ${value(false)}\n`;
        } else
          out += `:${sp()}${chance(0.1) ? `${collTag('map')}{ z: ${value(true)} }` : value(false)}${tail()}\n`;
        return;
      }
      out += `${key(k)}:${sp()}${value(false)}${tail()}\n`;
      // `<<` (a plain key in YAML 1.2: no merge), usually before an alias.
      if (anchors.length > 0 && chance(0.04))
        out += `${' '.repeat(indent)}<<${pick(['', ' '])}: ${pick([`*${pick(anchors)}`, '1', '<<'])}\n`;
    });
    return out;
  };
  const seqIndent = (col: number): number => col + pick([0, 2, 2, 4]);
  // A block scalar (header and lines) for a value in a collection at column `col`: literal or folded, every
  // chomping, '#' and ': ' inside it, empty lines inside and after it.
  const blockScalar = (col: number): string => {
    const n = col + pick([1, 2, 2, 4]);
    const folded = chance(0.5);
    let out = `${folded ? '>' : '|'}${pick(['', '', '-', '+'])}${chance(0.2) ? '  # header note' : ''}\n`;
    for (let i = 1 + Math.floor(r() * 4); i > 0; i--) {
      if (out.includes('\n ') && chance(0.3)) out += '\n'.repeat(1 + Math.floor(r() * 2));
      const deeper = !folded && chance(0.2) ? '  ' : '';
      out += `${' '.repeat(n)}${deeper}${pick(['a line', '# not a comment here', 'x: y - z', "it's \\ *fine*", '- item'])}\n`;
    }
    if (chance(0.4)) out += '\n'.repeat(1 + Math.floor(r() * 2));
    return out;
  };
  /**
   * A plain, double- or single-quoted scalar over several lines (as generators wrap long strings) for a
   * value in a collection at column `col`: continuation lines mostly deeper, sometimes at or left of `col`,
   * blank lines, spaces and tabs at line ends, escapes, a comment after it or a comment line inside it.
   */
  const multiLine = (col: number): string => {
    const ind = (): string => ' '.repeat(Math.max(0, col + pick([1, 2, 2, 4, 8, 1, 2, 1, 2, 0, -1])));
    const words = (): string =>
      pick(['long text', 'a - b', 'x:y', 'weekly', 'it is 5 % done', 'dlmm_1 and 2', '- dash', 'c:d e']);
    const end = (): string => pick(['', ' ', '  ', tabs ? '\t' : '', tabs ? ' \t' : '']);
    const kind = pick(['plain', 'plain', 'double', 'single']);
    const n = 1 + Math.floor(r() * 3);
    let out = kind === 'double' ? '"' : kind === 'single' ? "'" : '';
    out += kind === 'double' && escapes && chance(0.3) ? 'esc\\t\\u00e9 ' : '';
    out += kind === 'single' && chance(0.3) ? "it''s " : '';
    out += words();
    for (let i = 0; i < n; i++) {
      // An escaped line break in a double-quoted scalar (PyYAML wraps long strings so).
      out += end() + (kind === 'double' && chance(0.25) ? '\\' : '') + '\n';
      if (chance(0.2)) out += pick(['\n', '  \n', '\n\n']);
      if (kind === 'plain' && chance(0.05)) out += `${ind()}# a comment line\n`;
      out += ind() + words();
    }
    out += kind === 'double' ? '"' : kind === 'single' ? "'" : '';
    return `${out}${tail()}\n`;
  };
  let out = filler(0);
  out += `version:${sp()}1${tail()}\n` + filler(0);
  if (chance(0.15)) out += `description: ${blockScalar(0)}` + filler(0);
  if (chance(0.7)) out += `sender: ${SENDER}${tail()}\n` + filler(0);
  if (chance(0.3)) {
    const pi = pick([2, 4]);
    const pol = chance(0.3) ? anchor() : '';
    out += `policy:${pol ? ' ' + pol : ''}${tail()}\n${filler(pi)}${' '.repeat(pi)}max_tip_lag: ${pick(['0', '3'])}${tail()}\n`;
    if (chance(0.5)) out += `${filler(pi)}${' '.repeat(pi)}slippage_tolerance: ${pick(['1', '0.5'])}\n`;
  }
  out += `operations:${tail()}\n`;
  const oi = seqIndent(0);
  const nOps = 1 + Math.floor(r() * 3);
  for (let o = 0; o < nOps; o++) {
    const kind = pick(['add', 'withdraw', 'move', 'swap']);
    const col = oi + 2 + (chance(0.1) ? 1 : 0);
    out += filler(col) + ' '.repeat(oi) + '-' + ' '.repeat(col - oi - 1);
    out += blockMap([`id`, 'op'], col, true).replace(/op:.*\n/, `op: ${kind}${tail()}\n`);
    if (chance(0.15)) out += filler(col) + `${' '.repeat(col)}note: ${blockScalar(col)}`;
    if (chance(0.12)) out += filler(col) + `${' '.repeat(col)}text: ${multiLine(col)}`;
    if (chance(0.25))
      out +=
        filler(col) +
        `${' '.repeat(col)}label: ${pick(['weekly ladder', 'two  spaces   here', 'a - b', 'x: y', 'x :y', 'ends at a note', 'it is 5 % done', "don't", 'a #b', 'true or false', 'a,b c', 'dlmm_1 and 2'])}${pick(['', ' ', '   '])}${tail()}\n`;
    if (kind === 'swap') {
      out += blockMap(['amount_in'], col, false);
      out += `${' '.repeat(col)}input_token: ${SBTC}\n${' '.repeat(col)}output_token: ${USDCX}\n`;
      continue;
    }
    out += `${' '.repeat(col)}pool: ${pick([POOL1, 'dlmm_1', `"${POOL1}"`])}${tail()}\n`;
    if (chance(0.5)) out += `${' '.repeat(col)}mode: ${pick(['strict', 'simple'])}\n`;
    const list = kind === 'move' ? 'moves' : 'bins';
    const fields =
      kind === 'move' ? ['from_bin_id', 'to_bin_id', 'amount'] : ['bin_id', 'x_amount', 'y_amount'];
    if (kind === 'withdraw' && chance(0.5)) {
      out += `${' '.repeat(col)}bins: [${[scalar(), scalar()].join(pick([', ', ',', ' ,']))}]${tail()}\n`;
      continue;
    }
    if (chance(0.15)) {
      // The whole list as one flow sequence (of flow maps), over several lines.
      const n = 1 + Math.floor(r() * 4);
      out += `${' '.repeat(col)}${list}: ${chance(0.2) ? anchor() : ''}${collTag('seq')}${flowSeq(col, () =>
        Array.from({ length: n }, () => (kind === 'withdraw' ? flowItem() : flowMap(fields))),
      )}${tail()}\n`;
      continue;
    }
    const listTag = collTag('seq');
    out += `${' '.repeat(col)}${list}:${listTag && ' '}${listTag}${tail()}\n`;
    const ii = seqIndent(col);
    const n = 1 + Math.floor(r() * 4);
    for (let j = 0; j < n; j++) {
      out += filler(ii) + ' '.repeat(ii) + '-' + sp();
      if (kind === 'withdraw')
        out += chance(0.1) ? blockScalar(ii) : chance(0.1) ? multiLine(ii) : `${scalar()}${tail()}\n`;
      else if (anchors.length > 0 && chance(0.1)) out += `*${pick(anchors)}${tail()}\n`;
      else if (chance(0.6)) {
        // A bin as a flow map, sometimes over several lines (deeper than the dash).
        multi = chance(0.3) ? ii : -1;
        out += `${chance(0.15) ? anchor() : ''}${collTag('map')}${flowMap(fields)}${tail()}\n`;
        multi = -1;
      } else if (tags && chance(0.3)) {
        // `- !!map` over a block map on the following lines (deeper than the dash).
        const at = ii + pick([2, 2, 4, 1, 0]);
        out += `${collTag('map') || '!!map '}${tail()}\n${filler(at)}${' '.repeat(at)}`;
        out += blockMap(fields, at, true);
      } else {
        const c2 = out.length - (out.lastIndexOf('\n') + 1);
        out += blockMap(fields, c2, true);
      }
    }
    out += filler(col);
  }
  out += filler(0);
  if (anchors.length > 0 && chance(0.3)) out += `again:${sp()}*${pick(anchors)}${tail()}\n`;
  if (chance(0.3)) out += comment(pick([0, 2, 4, 6]));
  if (chance(0.3)) out = out.replace(/\n$/, '');
  return out;
}

/**
 * Runs `body` once per seed of this test's share (1/`share`) of LIGHTYAML_SEEDS (default 1000), with that
 * seed's PRNG and a `pick` over it; `accepted` counts the runs where `body` returned true.
 */
function eachSeed(
  test: Mocha.Context,
  share: number,
  body: (r: () => number, pick: <T>(xs: readonly T[]) => T) => boolean,
): { n: number; accepted: number } {
  const n = Number(process.env.LIGHTYAML_SEEDS ?? 1000) / share;
  test.timeout(30_000 + n * 30);
  let accepted = 0;
  for (let seed = 1; seed <= n; seed++) {
    const r = prng(seed);
    if (body(r, (xs) => xs[Math.floor(r() * xs.length)]!)) accepted++;
  }
  return { n, accepted };
}

describe('fast plan reader (lightYaml)', () => {
  it('reads the shipped examples exactly as yaml does', () => {
    const dir = join(__dirname, '../../../examples');
    const files = [
      ...readdirSync(dir).map((f) => join(dir, f)),
      ...readdirSync(join(dir, 'mistakes')).map((f) => join(dir, 'mistakes', f)),
    ].filter((f) => f.endsWith('.yaml'));
    assert.ok(files.length >= 3);
    let accepted = 0;
    for (const f of files) if (check(readFileSync(f, 'utf8'))) accepted++;
    assert.ok(accepted >= 1, `fast reader accepted ${accepted} of ${files.length} examples`);
  });

  it('matches yaml on 1000 random plan-shaped texts (and accepts a good part of them)', function () {
    // LIGHTYAML_SEEDS=20000 runs a longer sweep (done before changing the reader).
    const n = Number(process.env.LIGHTYAML_SEEDS ?? 1000);
    this.timeout(30_000 + n * 30); // yaml composes each text too; the machine may be loaded
    let accepted = 0;
    const refused: number[] = [];
    const forms = {
      blockScalars: 0,
      aliases: 0,
      commentLines: 0,
      tabs: 0,
      quotedKeys: 0,
      escapes: 0,
      mergeKeys: 0,
      multiLineFlow: 0,
      nestedFlow: 0,
      multiLineScalars: 0,
      tags: 0,
      flowWords: 0,
      flowLines: 0,
      escapedBreaks: 0,
      coreTags: 0,
      collectionTags: 0,
      explicitKeys: 0,
    };
    for (let seed = 1; seed <= n; seed++) {
      const text = randomPlan(seed);
      if (check(text)) {
        accepted++;
        if (/: [|>]/.test(text)) forms.blockScalars++;
        if (/\*a\d/.test(text)) forms.aliases++;
        if (/^ *#/m.test(text)) forms.commentLines++;
        if (text.includes('\t')) forms.tabs++;
        if (/["'] ?:/.test(text)) forms.quotedKeys++;
        if (/"[^"\n]*\\/.test(text)) forms.escapes++;
        if (/^ *<</m.test(text)) forms.mergeKeys++;
        if (/[[{,] *\n/.test(text)) forms.multiLineFlow++;
        if (/[[{][^\n\]}]*[[{]/.test(text)) forms.nestedFlow++;
        if (/^ *text: /m.test(text)) forms.multiLineScalars++;
        if (/!!(?:str|int)/.test(text)) forms.tags++;
        if (/!!(?:float|bool|null)/.test(text)) forms.coreTags++;
        if (/[[{,:] *["']?(?:two words|a {2}b|x - y|dlmm_1 and 2|it is 5|true false)[^\n]*$/m.test(text))
          forms.flowWords++;
        if (/[[{,:] *["']?(?:two words|a {2}b|x - y|dlmm_1 and 2|it is 5|true false) *\\?\n/.test(text))
          forms.flowLines++;
        if (/\\\n/.test(text)) forms.escapedBreaks++;
        if (/!!(?:map|seq)/.test(text)) forms.collectionTags++;
        if (/^ *(?:- )?\? /m.test(text)) forms.explicitKeys++;
      } else if (process.env.LIGHTYAML_SEEDS && composed(text).errors.length === 0) refused.push(seed);
    }
    if (process.env.LIGHTYAML_SEEDS)
      console.log(
        `accepted ${accepted} of ${n} (${JSON.stringify(forms)}); refused although yaml reads them: ${refused.length}`,
        refused.slice(0, 10),
      );
    if (process.env.LIGHTYAML_SHOW)
      for (const sd of refused.slice(0, 8)) console.log(`--- ${sd}\n${randomPlan(sd)}`);
    assert.ok(accepted > n * 0.3, `accepted ${accepted} of ${n}`);
  });

  it('locates every offset the same in its tree as in the composed Document (hover never composes it)', function () {
    this.timeout(60_000);
    let compared = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const text = randomPlan(seed);
      const light = parseLightYaml(text, 100);
      if (!light) continue;
      const doc = lightFromDoc(composed(text));
      for (let offset = 0; offset <= text.length; offset++)
        assert.deepEqual(
          locate(light.root, offset),
          locate(doc, offset),
          `seed ${seed}, offset ${offset}: ${JSON.stringify(text.slice(offset, offset + 20))}`,
        );
      compared++;
    }
    assert.ok(compared > 40, `compared ${compared} texts`);
    const dir = join(__dirname, '../../../examples');
    for (const name of readdirSync(dir).filter((f) => /\.dlmm\.json$/.test(f))) {
      const text = readFileSync(join(dir, name), 'utf8');
      const light = parseLightJson(text, 100_000);
      assert.ok(light && 'root' in light, `${name}: read by the JSON reader`);
      const doc = lightFromDoc(composed(text));
      for (let offset = 0; offset <= text.length; offset++)
        assert.deepEqual(locate(light.root, offset), locate(doc, offset), `${name} at ${offset}`);
    }
    // Through parsePlan: hover's entry point.
    const plan = parsePlan(`version: 1\nsender: ${SENDER}\noperations:\n  - id: a\n    op: swap\n`);
    const at = plan.text.indexOf('swap');
    assert.deepEqual(plan.locate(at), {
      path: ['operations', 0, 'op'],
      onKey: false,
      scalar: { value: 'swap', offset: at, length: 4 },
    });
  });

  it('reads Windows line ends (CRLF) exactly as yaml does: same values, ranges in the CRLF text', function () {
    this.timeout(30_000);
    let accepted = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomPlan(seed);
      const lfAccepted = parseLightYaml(text, 100) !== undefined;
      const crlf = text.replace(/\n/g, '\r\n');
      const ok = check(crlf);
      assert.equal(ok, lfAccepted, `CRLF and LF disagree on acceptance for seed ${seed}`);
      if (ok) accepted++;
    }
    assert.ok(accepted > 90, `accepted ${accepted} of 300`);
    const big = parsePlan(`version: 1\r\nsender: ${SENDER}\r\noperations:\r\n  - id: x\r\n    op: swap\r\n`);
    assert.deepEqual(
      big.findings.map((f) => f.code),
      parsePlan(`version: 1\nsender: ${SENDER}\noperations:\n  - id: x\n    op: swap\n`).findings.map(
        (f) => f.code,
      ),
    );
  });

  it('reads a text mixing CRLF and LF line ends exactly as yaml does: an LF alone moves no range', function () {
    this.timeout(30_000);
    let accepted = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomPlan(seed);
      const lfAccepted = parseLightYaml(text, 100) !== undefined;
      // Every other line break written CRLF, the first one LF (as a file edited on two systems).
      let n = 0;
      const mixed = text.replace(/\n/g, () => (n++ % 2 === 1 ? '\r\n' : '\n'));
      const ok = check(mixed);
      assert.equal(ok, lfAccepted, `mixed and LF disagree on acceptance for seed ${seed}`);
      if (ok) accepted++;
    }
    assert.ok(accepted > 90, `accepted ${accepted} of 300`);
  });

  it('reads a byte order mark at the start (LF and CRLF) exactly as yaml does: ranges count it', function () {
    this.timeout(30_000);
    let accepted = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomPlan(seed);
      const lfAccepted = parseLightYaml(text, 100) !== undefined;
      for (const t of [`\uFEFF${text}`, `\uFEFF${text.replace(/\n/g, '\r\n')}`]) {
        const ok = check(t);
        assert.equal(ok, lfAccepted, `with and without the mark disagree on acceptance for seed ${seed}`);
        if (ok) accepted++;
      }
    }
    assert.ok(accepted > 180, `accepted ${accepted} of 600`);
    // A mark anywhere else is left to yaml.
    assert.equal(parseLightYaml('a: 1\nb: \uFEFF2\n'), undefined);
  });

  it('reads a 350-position ladder', () => {
    const bins = Array.from(
      { length: 350 },
      (_, i) => `      - { bin_id: ${i - 175}, x_amount: 0, y_amount: 5 }`,
    );
    const text = `version: 1\nsender: ${SENDER}\noperations:\n  - id: ladder\n    op: add\n    pool: ${POOL1}\n    bins:\n${bins.join('\n')}\n`;
    assert.ok(check(text));
  });

  it('refuses what it does not model, leaving it to yaml', () => {
    const refused = [
      'version: 1\n...\n',
      'version: 1\n--- # second\nx: 2\n',
      'version: 1\nx: "a # b\nc"\n',
      'version: 1\nx:\n  y: "a\n  b"\n',
      'version: 1\nx: "a\t\n  b"\n',
      'version: 1\nx: a\n  # c\n  b\n',
      'version: 1\nx: a\n  "b"\n',
      'version: 1\nx: !!float 1\n', // yaml keeps it the string '1'
      'version: 1\nx: !!bool yes\n',
      'version: 1\nx: !!null 0\n',
      'version: 1\nx: !!null\n',
      'version: 1\nx: !!map [1]\n',
      'version: 1\nx: !!seq { a: 1 }\n',
      'version: 1\nx: !!map\n  - 1\n',
      'version: 1\nx: !!seq &a [1]\n',
      'version: 1\nx:\n  - !!map a: 1\n',
      'version: 1\nx:\n  - &a !!map\n    a: 1\n',
      'version: 1\nx: !!set { a: 1 }\n',
      '? a\n',
      '? a\n? b\n: 1\n',
      '? a\n  : 1\n',
      '? a: 1\n: 2\n',
      '? [a]\n: 1\n',
      '? a\n  b\n: 1\n',
      '? true\n: 1\n',
      'a: 1\n? a\n: 2\n',
      'version: 1\nx: !foo 1\n',
      'version: 1\nx: !!int x\n',
      'version: 1\nx: !!str &a 1\n',
      'version: 1\nx: a #b\n  c\n',
      'version: |2\n  1\n',
      'version: |\n\n  1\n',
      'version: >\n  1\n    2\n',
      'version: |+\n  1',
      'version: |\n  1\n   \n  2\n',
      'version: 1\nversion: 2\n',
      'version: 1\rx: 2\r',
      'version: 1\r\nx: 2\r',
      'version:\t1\n  x: 2\n',
      'a:\n\t- 1\n',
      'a:\n  - \tb: 1\n',
      'a:\n  - b: |\n      \tx\n',
      'a: 1\n  \t# c\n',
      'a: "\\q"\n',
      'a: "\\U00110000"\n',
      'a: "\\x4"\n',
      `${'k'.repeat(1030)}: 1\n`,
      `"${'k'.repeat(1030)}": 1\n`,
      'version: 1\nsender:\n',
      'version: yes sir: no\n',
      'version: two\nlines\n',
      'version: 1\n  x: 2\n',
      'version: 0x10\n',
      'version: .5\n',
      'version: 1\nops: [1,# c\n  2]\n',
      'x:\n  m: { a: 1\n# c\n   , b: 2 }\n',
      'version: 1\nops: [1,\n2]\n',
      'version: 1\nops:\n  b: [\n  1]\n',
      'version: 1\nops: [a\nb]\n',
      'version: 1\nx: "a\\\n\n  b"\n',
      'version: 1\nops: [[1]\n]\n'.replace('[[1]\n]', '[[1\n]]'),
      `version: 1\nops: ${'['.repeat(17)}${']'.repeat(17)}\n`,
      '---\nversion: 1\n',
      '- version: 1\n',
      '',
    ];
    for (const t of refused) assert.equal(parseLightYaml(t), undefined, JSON.stringify(t));
  });

  it('reads escapes, quoted keys, tabs in separation and `<<` exactly as yaml does', () => {
    for (const t of [
      'a: "x\\"y\\u00e9\\x41\\U0001F600\\t\\\\ \\/"\n',
      "a: 'it''s'\nb: ''''\n",
      '"a": 1\n\'b\' : {"c":1, \'d\': "e\\n"}\nf:\n  - "g": 2\n    h: 3\n',
      'a:\t1\t# c\nb: [1,\t2]\t\nc: {d:\t"\tx"}\n# tab\tin a comment\n',
      'a:\n  - \tb\n  - \t{ c: 1 }\n',
      `"${'k'.repeat(1000)}": 1\n`,
      'd: &d { x_amount: 1 }\nbins:\n  - <<: *d\n    bin_id: 1\n  - bin_id: 2\n    << : *d\n',
    ])
      assert.ok(check(t), JSON.stringify(t));
    // YAML 1.2 has no merge keys: `<<` is a key like any other, as yaml reads it with our options.
    assert.deepEqual(parseLightYaml('d: &d { x: 1 }\ne:\n  <<: *d\n')?.value, {
      d: { x: 1n },
      e: { '<<': { x: 1n } },
    });
    assert.deepEqual(parseLightYaml('a: "\\x41\\"\\t"\n')?.value, { a: 'A"\t' });
  });

  it('reads YAML written as JSON exactly as yaml does (core schema), or leaves it to yaml: random JSON plans in every layout', function () {
    const { n, accepted } = eachSeed(this, 4, (r, pick) => {
      const scalar = (): unknown =>
        pick([
          Math.floor(r() * 2000) - 1000,
          0,
          -0.5,
          1e21,
          2.5e-7,
          true,
          false,
          null,
          'abc',
          'a "q" \\ é \u0001 \t',
          '# not a comment',
          '--- x',
          '',
          SENDER,
          '\u2028',
        ]);
      const value = (depth: number): unknown =>
        depth > 0 && r() < 0.3
          ? r() < 0.5
            ? Array.from({ length: Math.floor(r() * 4) }, () => value(depth - 1))
            : Object.fromEntries(
                Array.from({ length: Math.floor(r() * 4) }, (_, i) => [
                  pick(['bin_id', 'x_amount', 'k', 'a b', 'é', '"q"', '']) + i,
                  value(depth - 1),
                ]),
              )
          : scalar();
      const plan = {
        version: 1,
        sender: SENDER,
        operations: Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
          op: pick(['add', 'withdraw']),
          pool: POOL1,
          bins: Array.from({ length: Math.floor(r() * 4) }, () => ({
            bin_id: Math.floor(r() * 100) - 50,
            x_amount: value(2),
            y_amount: value(2),
          })),
        })),
      };
      let text = JSON.stringify(plan, null, pick([undefined, 0, 1, 2, 4, '\t']));
      // Odd but valid JSON whitespace: spaces around tokens, blank lines, CRLF, leading and trailing space.
      if (r() < 0.3) text = text.replace(/,/g, () => pick([',', ' ,', ', ', ',\n', '\n,', ',\n\n  ']));
      if (r() < 0.2) text = text.replace(/:/g, () => pick([':', ' :', ': ', ':\n', '\t:\t']));
      if (r() < 0.2) text = text.replace(/\n/g, '\r\n');
      if (r() < 0.2) text = pick([' ', '\n', '\n\n ', '\t']) + text + pick(['', '\n', ' \n\n', '\t']);
      // Read by the fast reader exactly as yaml reads it, or left to yaml (which then reads it).
      return check(text);
    });
    assert.ok(accepted > n * 0.3, `accepted ${accepted} of ${n}`);
  });

  it('reads a plan written as one flow mapping at the root exactly as yaml does: random plans, every layout', function () {
    const { n, accepted } = eachSeed(this, 4, (r, pick) => {
      const amount = (): string =>
        pick(['1', '0', '-5', '12345678901234567890', '1.5', 'null', 'true', '"7"', "'8'", 'x y']);
      const bin = (): string =>
        `{${pick(['', ' '])}bin_id: ${Math.floor(r() * 100) - 50}, x_amount: ${amount()},${pick([' ', '\n  ', '\n', ' # c\n'])}y_amount: ${amount()}${pick(['', ','])}${pick(['', ' '])}}`;
      const bins = Array.from({ length: Math.floor(r() * 5) }, bin);
      const sep = (): string => pick([', ', ',\n', ',\n    ', ' ,\n\n', ', # note\n  ', ',\t']);
      const op = `{op: ${pick(['add', 'withdraw', '"add"'])}, pool: ${POOL1}, bins: [${bins.join(sep())}]}`;
      let text = `{version: 1,${pick([' ', '\n', '\n  '])}sender: ${SENDER}, operations: [${op}${r() < 0.5 ? `${sep()}${op}` : ''}]}`;
      if (r() < 0.3) text = pick(['# head\n', '\n\n', '  ', '# a\n\n  ']) + text;
      text += pick(['', '\n', ' \n\n', '  # tail\n', '\n# after\n\n   # more\n', '\t# t']);
      if (r() < 0.15) text = text.replace(/\n/g, '\r\n');
      return check(text);
    });
    assert.ok(accepted >= n * 0.9, `accepted ${accepted} of ${n}`);
    // Content after the mapping, a comment glued to it, a document end: left to yaml.
    for (const t of ['{a: 1}\nb: 2\n', '{a: 1}#c\n', '{a: 1}\n...\n', '{a: 1} x\n', '{a: 1}\n---\n{b: 2}\n'])
      assert.equal(parseLightYaml(t), undefined, t);
  });

  it('reads multi-line, nested and empty flow collections, comments in them, exactly as yaml does', () => {
    for (const t of [
      'bins: [\n  { bin_id: 1, x_amount: 1,\n    y_amount: 0 },\n  {bin_id: 2}\n]\n',
      'a:\n  - [\n    1\n  ]\n  - {b:\n      1, c: [2, [3, {}]]\n    }\nd: [ ]\ne: {}\nf: [1, ]\ng: {h: 1, }\n',
      'a: {b: 1 \n  , c: "2"\n\n  }\nd: [1\n   , &x [2]]\n',
      'a: [ # c\n  1, # one\n  # a whole line\n  2 # two\n  ]\nb: {c: 1, # d\n  e: # f\n    2 # g\n  }\n',
      `a: ${'['.repeat(16)}${']'.repeat(16)}\n`,
    ])
      assert.ok(check(t), JSON.stringify(t));
  });

  it('reads plain and quoted scalars over several lines, and `!!str` / `!!int` tags, exactly as yaml does', () => {
    for (const t of [
      'a: b\n  c\nd: 1\n',
      'a: b   \n\n  c  \n\n\n   d # e\nf: 1\n',
      'x:\n  - b\n   c\n  - k: v\n     w - z\n    y: 1\n',
      'version: 1 # c\nops:\n- a\n  - b\n',
      "a: \"b  \n\n   c\t x\n  d \\t \n  e\"\nf: 'g\n  h''i\n\n  j  '\n",
      'a: !!str 1\nb: !!int 2\nc: !!str "x\\ty"\nd: !!int "3"\ne: [!!str true, !!int -0]\nf: &x !!str .5\ng: *x\n',
    ])
      assert.ok(check(t), JSON.stringify(t));
    assert.deepEqual(parseLightYaml('a: "b\n  c"\nd: !!str 1\n')?.value, { a: 'b c', d: '1' });
  });

  it("reads explicit keys, core-schema tags and the core schema's words exactly as yaml does", () => {
    for (const t of [
      '? a # c\n: 1\n? "b"\n\n# x\n:   2 # d\n? c\n:\n  - 1\n? d\n:\n- 2\n? e\n: \n  f: 1\n',
      'x:\n  - ? a\n    : 1\n    b: 2\n  - c: 3\n    ? d\n    : { e: 4 }\n  -   ? f\n      : [5]\n',
      '? a\n:\n\n  b: 1\n?\t c\n:\tx\n? <<\n: &y 1\nz: *y\n',
      'a: !!float 1.5\nb: !!float "2e3"\nc: !!bool true\nd: !!bool "FALSE"\ne: !!null null\nf: !!null "~"\n',
      'a: !!map { b: 1 }\nc: !!seq [1, !!seq [2], !!map {}]\nd: !!map\n  e: 1\nf:\n  - !!map\n    g: 1\n  - !!map { h: 1 }\n  - !!seq\n    - 2\ni: !!seq\n- 3\nj: &x !!map # c\n  k: 1\nl: *x\n',
      'a: [.inf, -.inf, +.inf, .NaN, True, NULL, FALSE, null, true]\nb: -.Inf\nc: false\n',
      'a: [b c, d\n  e]\nf: { g: h i\n\n   j, k: "l\n  m" }\nn: [\'o\n  p\', "q \\\n    r"]\n',
      'a: "b \\\n  c  \\\n  \\ d"\ne: "f\\\n   g"\n',
    ])
      assert.ok(check(t), JSON.stringify(t));
    assert.deepEqual(parseLightYaml('? a\n: !!float 1.5\nb: !!map { c: !!null null }\n')?.value, {
      a: 1.5,
      b: { c: null },
    });
  });

  it('reads plain scalars of several words on one line exactly as yaml does', () => {
    for (const t of [
      'version: yes sir\n',
      'note: weekly ladder   # after the words\nx: 1\n',
      'ops:\n  - id: my first add\n    note: a  -  b\n      # deeper\n  - id: x/y +z\n',
      'a: b c',
      'a: b c   \n',
    ])
      assert.ok(check(t), JSON.stringify(t));
    for (const t of ['a: b c: d\n', 'a: b #c d\n'.replace('#', 'c#'), "a: it's\n", 'a: [b c: d]\n'])
      assert.equal(parseLightYaml(t), undefined, JSON.stringify(t));
  });

  it('reads comment-only and blank lines anywhere in the body exactly as yaml does', () => {
    // yaml takes a comment line indented deeper than the collection into the previous value's end, and
    // leaves a trailing comment at or right of a nested collection's column in that collection (its end
    // moves to the next content): every case below is compared range by range with yaml.
    const cases = [
      'a:\n  b:\n    c: 1\n    # x\n  # y\nd: 2',
      'a:\n  b:\n    c: 1\n    # x\n  d: 2',
      'a:\n  b: 1\n  # c\n\nd: 1',
      'version: 1\n  # c\n',
      'a:\n  b: {x: 1}\n\n     # c\n  d: 1',
      'a:\n  - 1\n# c\n  # d\nb: 2   # x',
      'a:\n- 1\n  # c\n',
      'a:\n  list:\n  - 1\n  # c\n  other: 2\n',
      'ops:\n  - id: x\n    # op: add\n    op: swap\n  # - id: y\n  - id: z\n# end',
      'ops:\n  - id: x\n      # deeper\n\n      # deeper\n    # same\n        # deeper after\n  - id: z\n',
      'a: "x & y! *z | > ? % @"\n# don\'t! &a *b | > ? % @ `x` \\ ---\nb: 1\n#end',
    ];
    for (const t of cases) assert.ok(check(t), JSON.stringify(t));
  });

  it('reads anchors and aliases as yaml does (values shared, alias ranges), leaves the rest to yaml', () => {
    const cases = [
      'a: &x 5\nb: *x\n',
      'a: &x { p: 1, q: 2 }\nb: [*x, *x]\nc: { r: *x }\n',
      'ops:\n  - &b { bin_id: 1 }\n  - *b   # again\n     # deeper\n  - *b\n',
      'ops:\n  - { bin_id: 1, x: &x 5 }\n  - { bin_id: 2, x: *x }\n  - [&y a, *y, *x]\n',
      'defaults: &d\n  pool: dlmm_1\n  mode: strict\nop: *d\n',
      'a: &x 1\nb: &x 2\nc: *x\n',
    ];
    for (const t of cases) assert.ok(check(t), JSON.stringify(t));
    const shared = parseLightYaml('a: &x { p: 1 }\nb: *x\n')!.value as Record<string, unknown>;
    assert.equal(shared.a, shared.b, 'an alias is the same JS object, as in toJS');
    const refused = [
      'a: *x\n', // no anchor
      'a: &x\n  b: *x\n', // a cycle
      'a: &x 1\nb: &y [*x]\nc: *y\n', // an anchored node holding an alias (alias counts multiply)
      'a: &x 1\nb: &y *x\n', // props on an alias
      'a:\n  - &x\n    b: 1\n',
      'a:\n  - &x b: 1\n',
      'a: &x 1\nb: *x:\n',
      `a: &x 1\n${Array.from({ length: 100 }, (_, i) => `b${i}: *x\n`).join('')}`, // yaml's alias limit
    ];
    for (const t of refused) assert.equal(parseLightYaml(t), undefined, JSON.stringify(t));
    // At the limit it is read, and gives what yaml gives.
    assert.ok(check(`a: &x 1\n${Array.from({ length: 99 }, (_, i) => `b${i}: *x\n`).join('')}`));
  });

  it('the analyzer gives the same findings and ranges through aliases, block scalars and comment lines', () => {
    const text = `version: 1\nsender: ${SENDER}\noperations:\n  - id: &name a\n    op: add\n    # pool: x\n    pool: &pool ${POOL1}\n    bins:\n      - &b { bin_id: 600, x_amount: 0, y_amount: 1.5 }\n      - *b\n        # deeper\n      - { bin_id: *name, x_amount: 1, y_amount: 0, z: 1 }\n  - id: |-\n      b\n    op: withdraw\n    pool: *pool\n    bins: [1, 2]\n# end\n`;
    assert.ok(parseLightYaml(text));
    const slowText = `${text}...\n`;
    assert.equal(parseLightYaml(slowText), undefined);
    const [fast, slow] = [parsePlan(text), parsePlan(slowText)];
    assert.ok(fast.findings.length >= 3);
    assert.deepEqual(fast.findings, slow.findings);
    for (const path of [
      ['operations', 0, 'bins', 1],
      ['operations', 0, 'bins', 1, 'bin_id'],
      ['operations', 0, 'bins', 2, 'bin_id'],
      ['operations', 1, 'id'],
      ['operations', 1, 'pool'],
      ['operations', 1],
    ])
      assert.deepEqual(fast.rangeOf(path), slow.rangeOf(path), JSON.stringify(path));
    assert.deepEqual(
      fast.keyRangeOf(['operations', 0, 'bins', 1, 'x_amount']),
      slow.keyRangeOf(['operations', 0, 'bins', 1, 'x_amount']),
    );
    assert.equal(
      fast.isFlowMap(['operations', 0, 'bins', 1, 'bin_id']),
      slow.isFlowMap(['operations', 0, 'bins', 1, 'bin_id']),
    );
    for (const at of [text.indexOf('# pool'), text.indexOf('# deeper'), text.indexOf('bins: [')])
      assert.equal(fast.operationIndexAt(at), slow.operationIndexAt(at), String(at));
    assert.deepEqual(fast.value, slow.value);
  });

  it('the analyzer gives the same findings and ranges through the fast path', () => {
    const text = `version: 1\nsender: ${SENDER}\noperations:\n  - id: a\n    op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 600, x_amount: 0, y_amount: 0 }\n      - { bin_id: 600, x_amount: 1, y_amount: 0, z: 1 }\n`;
    const parsed = parsePlan(text);
    assert.ok(parseLightYaml(text));
    // A document end marker is outside the fast reader's subset: the same plan through the full parser.
    const slowText = `${text}...\n`;
    assert.equal(parseLightYaml(slowText), undefined);
    const slow = parsePlan(slowText);
    assert.deepEqual(parsed.findings, slow.findings);
    assert.deepEqual(
      parsed.rangeOf(['operations', 0, 'bins', 1]),
      slow.rangeOf(['operations', 0, 'bins', 1]),
    );
    assert.equal(parsed.isFlowMap(['operations', 0, 'bins', 0, 'bin_id']), true);
    assert.equal(parsed.operationIndexAt(text.indexOf('bin_id')), 0);
  });
});
