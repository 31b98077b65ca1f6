/**
 * Plan parsing: YAML or JSON text -> exact JS value (integers as bigint) -> zod plan, with `syntax` and
 * `schema` findings on the exact source range (yaml-language-server style: keep the parser's node ranges,
 * convert to line/character only at the edge). Bounded: size, nesting and alias expansion are limited so
 * hostile input is reported, never hangs. Never throws.
 */
import type { Alias, CST, Document, Node, YAMLMap, YAMLSeq } from 'yaml';

type CstToken = CST.Token;
import { validatePlan } from './boundedSchema';
import { addressNetwork, principalAddress } from './address';
import { POOL_ALIAS, type Plan, type SchemaIssue } from './schema';
import { MAX_FINDINGS_PER_FILE, type Finding } from './diagnostics';
import { checkJsonSyntax } from './jsonSyntax';
import {
  describeIssue,
  issueTargetsKey,
  missingForMisspeltKey,
  suggestedKey,
  suggestedWord,
} from './schemaMessages';
import { parseLightJson, type JsonDoc } from './lightJson';
import { locate, type Located } from './locate';
import {
  parseLightYaml,
  plainIntegerAt,
  type LightMap,
  type LightMiss,
  type LightNode,
  type LightRange,
  type LightScalar,
  type LightSeq,
} from './lightYaml';

/**
 * The `yaml` library is loaded on first use: the fast reader (lightYaml.ts) reads the usual plan without it,
 * so `dlmm check --offline` and the editor's first pass on such a plan never load it (esbuild.mjs bundles it
 * apart for the CLI).
 */
let yamlLib: typeof import('yaml') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Y = () => (yamlLib ??= require('yaml') as typeof import('yaml'));

export type PlanPath = readonly (string | number)[];
type PlanFormat = 'yaml' | 'json';

export interface SourceRange {
  offset: number;
  length: number;
}

export interface ParseOptions {
  /** Used to pick the format (`*.dlmm.json` is JSON); YAML otherwise. */
  fileName?: string;
  format?: PlanFormat;
}

/** Limits that keep hostile input cheap (a 350-position plan is ~25 KB). */
export const PARSE_LIMITS = {
  /**
   * Characters of the largest plan read: 1 MiB (1,048,576), some 20,000 bins, far beyond what a valid plan
   * holds (an operation has at most 350 positions); beyond it, one finding says to split the plan.
   */
  maxBytes: 1024 * 1024,
  /** Longest digit run read (uint128 has 39 digits; converting millions of digits alone takes seconds). */
  maxDigits: 1000,
  /** Entries of one flow mapping read by the full parser (whose duplicate-key check is quadratic). */
  maxMapEntries: 2000,
  maxFlowDepth: 64,
  maxIndent: 256,
  maxAliasCount: 100,
  /**
   * Aliases in a file only the full parser reads: yaml resolves each alias by looking through every anchor
   * and alias before it, so the time grows with their square (10,000: a few seconds; 60,000: minutes).
   * The fast reader (lightYaml.ts) resolves them in linear time and has no such limit.
   */
  maxFullParserAliases: 10_000,
  /**
   * Characters of the largest YAML plan given to the full parser: it takes 2-3 s of CPU at 1 MiB (yaml's
   * parseDocument + toJS: 1.8-3.2 s, 170-210 MB), over the 1 s budget of a plan at the limit, so above this a
   * plan is read only by the fast reader, and what it cannot read is one finding that says where
   * (fullParserRefused), never a stall of the editor.
   */
  maxFullParserChars: 512 * 1024,
} as const;

export interface ParsedPlan {
  text: string;
  format: PlanFormat;
  /** The document as JS (integers as bigint); undefined when it did not parse. */
  value: unknown;
  /** The typed plan when the schema accepted it. */
  plan: Plan | undefined;
  /** `syntax` and `schema` findings. */
  findings: Finding[];
  /**
   * Operations that failed their schema, or were left unvalidated once the finding cap was reached
   * (boundedSchema.ts); partial.ts checks the others without validating these again.
   */
  invalidOperations?: ReadonlySet<number>;
  /** Range of the value at `path` (alias nodes are followed). */
  rangeOf(path: PlanPath): SourceRange | undefined;
  /** `path` as written in the document (a partial plan's view maps its indexes back; core/plan/partial.ts). */
  sourcePath(path: PlanPath): PlanPath;
  /** Range of the key at `path` (for an array index: the element's range). */
  keyRangeOf(path: PlanPath): SourceRange | undefined;
  /** Index of the operation whose source contains `offset`. */
  operationIndexAt(offset: number): number | undefined;
  /** The op's id as written, or its index as a string. */
  operationId(index: number): string;
  /** Number of elements in `operations` (0 when absent). */
  operationCount: number;
  /** Whether the map holding `path`'s last key is a flow map (`{ ... }`) or JSON. */
  isFlowMap(path: PlanPath): boolean;
  /** Range of the document's first key (file-level findings), without composing the Document. */
  firstKeyRange(): SourceRange | undefined;
  /**
   * The value as read even when a syntax error (a repeated key, for one) leaves `value` undefined, for faces
   * that work on half-typed files (completion); undefined when nothing could be read.
   */
  readValue(): unknown;
  /**
   * Where `offset` is: the path of the innermost node containing it (hover, navigation), read from the tree
   * the plan was parsed into, so a plan the fast reader read never needs the composed Document for it.
   */
  locate(offset: number): Located | undefined;
}

/** Parses plan text (YAML or JSON by file name) into a ParsedPlan. Never throws. */
export function parsePlan(input: string, opts: ParseOptions = {}): ParsedPlan {
  const format: PlanFormat = opts.format ?? (/\.json$/i.test(opts.fileName ?? '') ? 'json' : 'yaml');
  // A byte order mark opens many files saved on Windows; YAML skips it, JSON's grammar does not. Read it as
  // a space so every offset (and so every range) stays that of the file as written.
  const text = format === 'json' && input.charCodeAt(0) === 0xfeff ? ' ' + input.slice(1) : input;
  const findings: Finding[] = [];
  const syntax = (offset: number, length: number, message: string): void => {
    // The parser may point one past the end (unexpected end of input): keep ranges inside the text.
    const start = Math.max(0, Math.min(offset, text.length));
    findings.push({
      code: 'syntax',
      severity: 'error',
      message,
      offset: start,
      length: Math.max(0, Math.min(length, text.length - start)),
    });
  };
  // The plan as far as it was read when a syntax finding stops the reading: no value, the tree if there is one.
  const unread = (source?: SourceTree): ParsedPlan => makeParsed(text, format, source, undefined, findings);
  const stop = (offset: number, length: number, message: string, source?: SourceTree): ParsedPlan => {
    syntax(offset, length, message);
    return unread(source);
  };

  const limit = checkLimits(text, format);
  if (limit) return stop(limit.offset, limit.length, limit.message);
  if (format === 'json') {
    const err = checkJsonSyntax(text, PARSE_LIMITS.maxFlowDepth);
    if (err) return stop(err.offset, err.length, err.message);
  }

  // Fast path: the common plan shape (any JSON plan) read without composing a yaml Document (same value
  // and ranges).
  const miss: LightMiss = {};
  const read: JsonDoc | { limit: number } | undefined =
    format === 'yaml'
      ? (parseLightYaml(text, PARSE_LIMITS.maxAliasCount, miss, PARSE_LIMITS.maxMapEntries) ??
        (miss.limit === undefined ? undefined : { limit: miss.limit }))
      : parseLightJson(text, PARSE_LIMITS.maxMapEntries);
  if (read && 'limit' in read) return stop(read.limit, 1, tooManyEntries(format));
  const light = read;
  if (!light && text.length > PARSE_LIMITS.maxFullParserChars) {
    // The JSON reader reads every text checkJsonSyntax passes: a JSON miss is a bug, never a 10 s stall.
    const f =
      format === 'yaml'
        ? fullParserRefused(text, miss)
        : {
            offset: 0,
            length: 0,
            message: `JSON: this plan was not checked: our JSON reader could not read a text the syntax check passed, and the full parser is not run on plans over ${PARSE_LIMITS.maxFullParserChars / 1024} KB; this is our bug: please report the file, and meanwhile split the plan into files under 512 KB`,
          };
    return stop(f.offset, f.length, f.message);
  }
  let source: SourceTree;
  let value: unknown;
  if (light) {
    source = lightTree(light);
    value = light.value;
    if (light.duplicateKeys) {
      // yaml's DUPLICATE_KEY errors, at the same places; a repeated key makes the value unusable, as there.
      const dups = light.duplicateKeys;
      const message = cleanYamlMessage('Map keys must be unique', format);
      // Beyond the finding cap the rest is not checked: the repeats are all that is said.
      const stopHere = dups.length > MAX_FINDINGS_PER_FILE;
      for (const offset of dups.slice(0, MAX_FINDINGS_PER_FILE)) syntax(offset, 1, message);
      if (dups.length > MAX_FINDINGS_PER_FILE)
        syntax(
          dups[MAX_FINDINGS_PER_FILE]!,
          1,
          `and ${dups.length - MAX_FINDINGS_PER_FILE} more repeated keys not listed; fix the ones above and check again`,
        );
      if (stopHere) return unread(source);
      // The rest is still checked (each key's last value, as read): partial.ts leaves out the operations
      // holding a repeated key, and the plan is never whole (no `plan`), so nothing is built from it.
    }
  } else {
    let doc: Document.Parsed;
    // The composer recurses per flow level: the real nesting is measured on yaml's own (iterative) parse
    // tree before the composer sees it, which knows quoting exactly (the cheap pre-scan can be misled by a
    // quote in a plain scalar).
    try {
      doc = composeDocument(text, format);
    } catch (e) {
      if (e instanceof FlowLimit) return stop(e.offset, 1, e.message);
      return stop(
        0,
        0,
        `the file could not be read as ${format.toUpperCase()}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    for (const e of doc.errors) {
      const [start, end] = e.pos;
      // A zero-width error still marks the character it points at (when there is one).
      const length = end > start ? end - start : start < text.length ? 1 : 0;
      syntax(start, length, cleanYamlMessage(e.message, format));
    }
    // A repeated key alone leaves a value to read (each key's last), checked below as far as it can be.
    if (doc.errors.some((e) => e.code !== 'DUPLICATE_KEY')) return unread(docTree(doc));

    const beyond =
      format === 'yaml' && text.includes('*')
        ? aliasBeyond(doc, PARSE_LIMITS.maxFullParserAliases)
        : undefined;
    if (beyond)
      return stop(
        beyond[0],
        beyond[1] - beyond[0],
        `YAML: more than ${PARSE_LIMITS.maxFullParserAliases} aliases in a file that needs the full YAML parser, which resolves them in time growing with their square (minutes at this size); write the values out, or remove what needs the full parser (tags outside the core schema such as !custom, explicit ? keys whose key is not one line or whose : is not at the key's column, comments between the lines of a value)`,
        docTree(doc),
      );
    try {
      value = doc.toJS({ maxAliasCount: PARSE_LIMITS.maxAliasCount });
    } catch (e) {
      const alias = aliasBeyond(doc, 0);
      return stop(
        alias?.[0] ?? 0,
        alias ? alias[1] - alias[0] : 0,
        `alias expansion exceeds ${PARSE_LIMITS.maxAliasCount} nodes (${e instanceof Error ? e.message : String(e)}); write the values out instead of nesting aliases`,
        docTree(doc),
      );
    }
    source = docTree(doc);
  }

  value = numbersAsWritten(value, source, text);
  const parsed = makeParsed(text, format, source, value, findings);
  // Repeated keys (the only findings so far): the rest is checked when each is inside an operation, which
  // is then left out (partial.ts); one outside (the policy, the plan's own fields) leaves the plan unread.
  if (findings.some((f) => parsed.operationIndexAt(f.offset) === undefined)) return unread(source);
  if (!source.root || value === null || value === undefined) {
    const empty =
      'the file is empty: expected a plan mapping with `version: 1` and a non-empty `operations` list';
    findings.push(schemaFinding(parsed, empty, undefined));
    return parsed;
  }
  const result = validatePlan(value);
  parsed.invalidOperations = result.invalidOperations;
  // Valid but for its repeated keys: no plan; partial.ts checks it without the operations holding them.
  if (result.plan && findings.length > 0) return parsed;
  if (result.plan) {
    parsed.plan = result.plan;
    for (const f of planFindings(parsed, result.plan)) findings.push(f); // may be one per bin
  } else {
    // One value can fail two checks that read the same way (e.g. a float beyond 2^53): say it once.
    // At most MAX_FINDINGS_PER_FILE are built (60,000 bad bins must not cost seconds and hundreds of MB);
    // validation itself stopped once that many were found (boundedSchema.ts).
    const seen = new Set<string>();
    const issues = result.issues;
    let i = 0;
    for (; i < issues.length && findings.length < MAX_FINDINGS_PER_FILE; i++) {
      for (const f of schemaFindings(parsed, issues[i]!)) {
        const key = `${f.offset}:${f.length}:${f.message}`;
        if (!seen.has(key)) findings.push(f);
        seen.add(key);
      }
    }
    let more = 0;
    for (; i < issues.length; i++) {
      const issue = issues[i]!;
      more += issue.code === 'unrecognized_keys' ? issue.keys.length : 1;
    }
    if (more > 0 || result.notChecked > 0) {
      const last = findings[findings.length - 1];
      const listed = more > 0 ? `${more} more schema problem${more === 1 ? '' : 's'} not listed` : '';
      const unchecked =
        result.notChecked > 0
          ? `${result.notChecked} more entr${result.notChecked === 1 ? 'y' : 'ies'} not checked`
          : '';
      const message = `and ${[listed, unchecked].filter(Boolean).join(', and ')}; fix the ones above and check again`;
      findings.push(schemaFinding(parsed, message, last && { offset: last.offset, length: last.length }));
    }
  }
  return parsed;
}

function schemaFindings(parsed: ParsedPlan, issue: SchemaIssue): Finding[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const operation =
    path[0] === 'operations' && typeof path[1] === 'number' ? parsed.operationId(path[1]) : undefined;
  const withOp = (f: Finding): Finding => (operation === undefined ? f : { ...f, operation });
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.slice(0, MAX_FINDINGS_PER_FILE).map((key) => {
      const keyRange = parsed.keyRangeOf([...path, key]);
      const r = keyRange ?? parsed.rangeOf(path) ?? { offset: 0, length: 0 };
      const f = withOp({
        code: 'schema',
        severity: 'error',
        message: describeIssue(issue, path, parsed.value, key),
        ...r,
      });
      const meant = keyRange && suggestedKey(path, parsed.value, key);
      if (keyRange && meant) {
        const old = parsed.text.slice(keyRange.offset, keyRange.offset + keyRange.length);
        const newText = old.startsWith('"')
          ? JSON.stringify(meant)
          : old.startsWith("'")
            ? `'${meant}'`
            : meant;
        f.fixes = [
          { title: `Rename '${key}' to '${meant}'`, edits: [{ ...keyRange, newText }], preferred: true },
        ];
      }
      return f;
    });
  }
  // A missing field whose misspelling is in the map: the unknown key's finding names it, with its fix.
  if (missingForMisspeltKey(issue, path, parsed.value)) return [];
  const r = locateIssue(parsed, path, issueTargetsKey(issue, path, parsed.value));
  const f = withOp({
    code: 'schema',
    severity: 'error',
    message: describeIssue(issue, path, parsed.value),
    ...r,
  });
  const word = suggestedWord(path, parsed.value);
  if (word !== undefined) {
    const old = parsed.text.slice(r.offset, r.offset + r.length);
    const newText = old.startsWith('"') ? JSON.stringify(word) : old.startsWith("'") ? `'${word}'` : word;
    f.fixes = [{ title: `Change to '${word}'`, edits: [{ ...r, newText }], preferred: true }];
  }
  return [f];
}

/** The value's range; for a missing field, the parent map's key (or the map itself). */
function locateIssue(parsed: ParsedPlan, path: PlanPath, missing: boolean): SourceRange {
  if (!missing) {
    const r = parsed.rangeOf(path);
    if (r) return r;
  }
  for (let n = path.length - 1; n >= 0; n--) {
    const parent = path.slice(0, n);
    const last = parent[parent.length - 1];
    const r = typeof last === 'string' ? parsed.keyRangeOf(parent) : parsed.rangeOf(parent);
    if (r) return typeof last === 'string' ? r : firstLine(parsed.text, r);
  }
  return { offset: 0, length: 0 };
}

/**
 * The schema findings of a plan that passed the zod schema: `sender` where withdraw/move need it, the mode's
 * bin addressing, unique ids. Also run on the valid operations of a partly valid plan (core/plan/partial.ts).
 */
export function planFindings(parsed: ParsedPlan, plan: Plan): Finding[] {
  return [
    ...senderFindings(parsed, plan),
    ...networkFindings(parsed, plan),
    ...modeFindings(parsed, plan),
    ...idFindings(parsed, plan),
  ];
}

/** A `schema` finding on `range` (the file's start when there is none), of operation `opIndex` if given. */
function schemaFinding(
  parsed: ParsedPlan,
  message: string,
  range: SourceRange | undefined,
  opIndex?: number,
): Finding {
  return {
    code: 'schema',
    severity: 'error',
    message,
    ...(opIndex !== undefined ? { operation: parsed.operationId(opIndex) } : {}),
    ...(range ?? { offset: 0, length: 0 }),
  };
}

/** Every principal of the plan belongs to its `network:` (mainnet SP/SM, testnet ST/SN). */
function networkFindings(parsed: ParsedPlan, plan: Plan): Finding[] {
  const out: Finding[] = [];
  const check = (path: PlanPath, value: string | undefined, opIndex?: number): void => {
    if (value === undefined || POOL_ALIAS.test(value)) return;
    const address = principalAddress(value);
    const network = addressNetwork(address);
    if (network === undefined || network === plan.network) return;
    const message = `${path.join('.')}: ${address} is a ${network} address, and this plan's network is ${plan.network}; use the ${plan.network} address, or set network: ${network}`;
    out.push(schemaFinding(parsed, message, parsed.rangeOf(path), opIndex));
  };
  check(['sender'], plan.sender);
  plan.operations.forEach((op, i) => {
    const at: PlanPath = ['operations', i];
    if (op.op === 'swap') {
      check([...at, 'input_token'], op.input_token, i);
      check([...at, 'output_token'], op.output_token, i);
      check([...at, 'provider'], op.provider, i);
    } else check([...at, 'pool'], op.pool, i);
  });
  return out;
}

/** Withdraw and move read the signer's positions: `sender` is required when the plan has one. */
function senderFindings(parsed: ParsedPlan, plan: Plan): Finding[] {
  if (plan.sender !== undefined) return [];
  const out: Finding[] = [];
  plan.operations.forEach((op, i) => {
    if (op.op !== 'withdraw' && op.op !== 'move') return;
    const message = `a '${op.op}' operation needs the top-level field 'sender' (the signer principal, e.g. SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR) to read its positions; add 'sender'`;
    out.push(schemaFinding(parsed, message, parsed.rangeOf(['operations', i, 'op']), i));
  });
  return out;
}

/** Strict items address absolute bins, simple ones offsets: exactly one of the two, as the mode says. */
function modeFindings(parsed: ParsedPlan, plan: Plan): Finding[] {
  const out: Finding[] = [];
  const schema = (opIndex: number, path: PlanPath, message: string, key = false): void => {
    out.push(schemaFinding(parsed, message, key ? parsed.keyRangeOf(path) : parsed.rangeOf(path), opIndex));
  };
  plan.operations.forEach((op, i) => {
    if (op.op !== 'add' && op.op !== 'move') return;
    if (op.op === 'add' && op.bins.length === 0 && op.distribution === undefined)
      schema(
        i,
        ['operations', i, 'op'],
        `missing required field 'bins' or 'distribution'; an add lists its bins, or gives a shape over a range (distribution: {shape: spot|curve|bid-ask, from, to, x_amount, y_amount})`,
      );
    const list = op.op === 'add' ? 'bins' : 'moves';
    const absolute = op.op === 'add' ? 'bin_id' : 'to_bin_id';
    const items: Array<{ active_bin_offset?: number; bin_id?: number; to_bin_id?: number }> =
      op.op === 'add' ? op.bins : op.moves;
    items.forEach((item, j) => {
      const here: PlanPath = ['operations', i, list, j];
      const abs = op.op === 'add' ? item.bin_id : item.to_bin_id;
      if (op.mode === 'strict') {
        if (item.active_bin_offset !== undefined)
          schema(
            i,
            [...here, 'active_bin_offset'],
            `active_bin_offset is for mode: simple; this ${op.op} is strict and needs '${absolute}' (an absolute signed bin id), or set mode: simple`,
            true,
          );
        else if (abs === undefined)
          schema(
            i,
            here,
            `missing required field '${absolute}' in ${list}[${j}]; a strict ${op.op} addresses absolute signed bin ids (-500..500)`,
          );
      } else {
        if (abs !== undefined)
          schema(
            i,
            [...here, absolute],
            `'${absolute}' is for mode: strict; this ${op.op} is simple and needs 'active_bin_offset' (offset from the active bin)`,
            true,
          );
        else if (item.active_bin_offset === undefined)
          schema(
            i,
            here,
            `missing required field 'active_bin_offset' in ${list}[${j}]; a simple ${op.op} addresses bins by offset from the active bin`,
          );
      }
    });
  });
  return out;
}

/**
 * Operation ids are unique: findings, exports and `--op` refer to them. An op without `id` is known by its
 * index, so an explicit id equal to another op's index collides too.
 */
function idFindings(parsed: ParsedPlan, plan: Plan): Finding[] {
  const seen = new Map<string, number>();
  const out: Finding[] = [];
  plan.operations.forEach((op, i) => {
    const id = parsed.operationId(i);
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, i);
      return;
    }
    // Point at an explicit id: this op's, else the earlier op's (this one goes by its index).
    const at = op.id !== undefined ? i : first;
    const message =
      op.id !== undefined && plan.operations[first]?.id !== undefined
        ? `operation id '${id}' is already used by operations[${first}]; ids must be unique`
        : op.id !== undefined
          ? `operation id '${id}' equals the index of operations[${first}], which has no id and is known by its index; ids must be unique: choose another id or give operations[${first}] an id`
          : `operation id '${id}' of operations[${first}] equals the index of operations[${i}], which has no id and is known by its index; ids must be unique: choose another id or give operations[${i}] an id`;
    out.push(schemaFinding(parsed, message, parsed.rangeOf(['operations', at, 'id']), at));
  });
  return out;
}

function firstLine(text: string, r: SourceRange): SourceRange {
  const nl = text.indexOf('\n', r.offset);
  const end = nl < 0 || nl > r.offset + r.length ? r.offset + r.length : nl;
  return { offset: r.offset, length: Math.max(0, end - r.offset) };
}

/**
 * The one finding for a YAML plan above PARSE_LIMITS.maxFullParserChars that the fast reader could not read:
 * where it stopped (the entry or list item it had begun), and why when that part says so: yaml's own error on those lines read
 * alone (tabs as indentation...), or a tag outside the core schema.
 */
function fullParserRefused(
  text: string,
  miss: LightMiss,
): { offset: number; length: number; message: string } {
  const at = Math.min(miss.at ?? 0, text.length);
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const col = at - lineStart;
  // The part: its first line and the lines after it indented deeper (blank and comment lines between), at
  // most 4 KiB: enough for yaml's first error there (a broken part's errors cost a stack trace each).
  let end = text.indexOf('\n', at);
  end = end < 0 ? text.length : end + 1;
  let cut = -1;
  if (end - lineStart > 4 * 1024) {
    // One line longer than that (a whole plan as one flow mapping): yaml never sees all of it (seconds of CPU
    // on a 1 MiB line), and an error on it may be the cut's.
    end = lineStart + 4 * 1024;
    cut = lineStart;
  }
  while (cut < 0 && end < text.length) {
    const nl = text.indexOf('\n', end);
    const next = nl < 0 ? text.length : nl + 1;
    const line = text.slice(end, next);
    const content = line.search(/[^ \r\n]/);
    if (content >= 0 && content <= col && line[content] !== '#') break;
    if (next - lineStart > 4 * 1024) {
      cut = end;
      break;
    }
    end = next;
  }
  const part = text.slice(lineStart, end);
  const lineNo = (o: number): number => {
    let n = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < o; i = text.indexOf('\n', i + 1)) n++;
    return n;
  };
  const line = lineNo(at);
  const size = `${(text.length / (1024 * 1024)).toFixed(1)} MB`;
  const limit = `${PARSE_LIMITS.maxFullParserChars / 1024} KB`;
  const error = Y().parseDocument(part, { prettyErrors: false, logLevel: 'silent', uniqueKeys: true })
    .errors[0];
  // Cut short, the part's last line may end mid-structure: an error there may be the cut's, not the file's.
  const lastLine = part.lastIndexOf('\n', part.length - 2) + 1;
  if (error && (cut < 0 || error.pos[0] < lastLine)) {
    const offset = Math.min(lineStart + error.pos[0], text.length);
    const length = Math.max(1, Math.min(error.pos[1] - error.pos[0], text.length - offset));
    return {
      offset,
      length,
      message: `${cleanYamlMessage(error.message, 'yaml')}. This ${size} plan was not checked: from line ${line} it needs the full YAML parser, which is not run on plans over ${limit} (it takes seconds per MB); fix that part and check again`,
    };
  }
  // A key the fast reader refused for what it is (a repeat, `__proto__`) in that part: name it.
  const key = miss.key;
  if (key && key.at >= lineStart && key.at < end) {
    const name = key.name.length > 40 ? `${key.name.slice(0, 40)}...` : key.name;
    return {
      offset: key.at,
      length: 1,
      message: key.repeated
        ? `YAML: Map keys must be unique ('${name}' is repeated). This ${size} plan was not checked: a plan over ${limit} with it needs the full YAML parser, which is not run at this size (it takes seconds per MB); fix that key and check again`
        : `YAML: a key named '__proto__' is read only by the full YAML parser, which is not run on plans over ${limit} (it takes seconds per MB). This ${size} plan was not checked; remove or rename that key (the plan format has no such field)`,
    };
  }
  const why = /(?:^|[\s,[{])!(?!!(?:str|int|float|bool|null|map|seq)\b)[^\s]*/.exec(part);
  const reason = why ? ` (a tag outside the core schema: ${why[0].trim().slice(0, 40)})` : '';
  const firstLineEnd = text.indexOf('\n', at);
  return {
    offset: at,
    length: (firstLineEnd < 0 ? text.length : firstLineEnd) - at,
    message: `YAML: this ${size} plan was not checked: from line ${line}${reason} it is written in a form only the full YAML parser reads, which is not run on plans over ${limit} (it takes seconds per MB). Write that part with block or flow maps and lists, plain or quoted values and core-schema tags, or split the plan`,
  };
}

function cleanYamlMessage(message: string, format: PlanFormat): string {
  // The library's advice names its own API; say what it means for a plan file instead.
  if (/multiple documents/i.test(message))
    return `${format.toUpperCase()}: a plan file holds one document; remove the second one (after '---') or move it to its own file`;
  const first = (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
  return format === 'json' ? `JSON: ${first}` : `YAML: ${first}`;
}

/** The range of the alias after the first `max` ones, if there are more ([0, 0] when it has none). */
function aliasBeyond(doc: Document.Parsed, max: number): [number, number] | undefined {
  let found: [number, number] | undefined;
  let count = 0;
  const { visit } = Y();
  visit(doc, {
    Alias(_k, node: Alias) {
      if (++count <= max) return undefined;
      found = node.range ? [node.range[0], node.range[1]] : [0, 0];
      return visit.BREAK;
    },
  });
  return found;
}

/** Cheap pre-scan: size, flow nesting and indentation depth, before the parser sees the text. */
function checkLimits(
  text: string,
  format: PlanFormat,
): { offset: number; length: number; message: string } | undefined {
  if (text.length > PARSE_LIMITS.maxBytes)
    return {
      offset: 0,
      length: 0,
      message: `the file has ${text.length} characters; plans above ${PARSE_LIMITS.maxBytes} are not read (split it)`,
    };
  const nul = text.indexOf('\u0000');
  if (nul >= 0)
    return {
      offset: nul,
      length: 1,
      message: `the file contains a NUL byte at offset ${nul}: it is binary, not a YAML or JSON plan`,
    };
  const digits = /\d{1001,}/.exec(text);
  if (digits) {
    const run = /^\d+/.exec(text.slice(digits.index))?.[0].length ?? PARSE_LIMITS.maxDigits;
    return {
      offset: digits.index,
      length: run,
      message: `a number of ${run} digits: plan values have at most 39 digits (uint128 is 340282366920938463463374607431768211455); the file is not read further`,
    };
  }
  if (format === 'json') return undefined; // the JSON checker bounds its own depth
  // Character codes, not one-character strings: this pass runs over every character of a 1 MiB plan.
  let depth = 0;
  let quote = 0; // 34 `"` or 39 `'` inside a quoted scalar
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart) {
      if (c === 32 || c === 45 || c === 9) {
        indent++;
        if (indent > PARSE_LIMITS.maxIndent)
          return {
            offset: i,
            length: 1,
            message: `YAML: nesting deeper than ${PARSE_LIMITS.maxIndent} columns is not accepted`,
          };
        continue;
      }
      lineStart = false;
    }
    if (quote) {
      if (c === 92 && quote === 34) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 35 && (i === 0 || /\s/.test(text[i - 1] ?? ' '))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl - 1;
      continue;
    }
    if (c === 34 || c === 39) {
      // A quote starts a quoted scalar only at a token boundary.
      if (i === 0 || /[\s[{,:-]/.test(text[i - 1] ?? ' ')) quote = c;
    } else if (c === 91 || c === 123) {
      if (++depth > PARSE_LIMITS.maxFlowDepth)
        return {
          offset: i,
          length: 1,
          message: `YAML: flow nesting deeper than ${PARSE_LIMITS.maxFlowDepth} levels is not accepted`,
        };
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return undefined;
}

/** The finding for a mapping with more entries than PARSE_LIMITS.maxMapEntries, at the comma reaching it. */
function tooManyEntries(format: PlanFormat): string {
  return `${format === 'json' ? 'JSON' : 'YAML'}: a mapping with more than ${PARSE_LIMITS.maxMapEntries} entries is not read (plan objects have a handful of fields); remove the keys the plan format does not define`;
}

/** A flow collection the composer cannot take cheaply (found by flowProblem). */
class FlowLimit extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Flow collections the composer cannot take cheaply, measured on the parser's tree before composition:
 * nesting beyond the depth limit (the composer recurses per level), or a flow mapping with more entries
 * than any plan object has (its duplicate-key check is quadratic: 100,000 keys would take minutes). The
 * earliest such place in the text, or undefined. Iterative: the tree may be 200,000 levels deep.
 */
function flowProblem(token: CstToken, format: PlanFormat): { offset: number; message: string } | undefined {
  const lang = format === 'json' ? 'JSON' : 'YAML';
  let found: { offset: number; message: string } | undefined;
  const stack: Array<[CstToken, number]> = [[token, 0]];
  while (stack.length > 0) {
    const [t, depth] = stack.pop()!;
    if (found && t.offset >= found.offset) continue;
    let inner = depth;
    if (t.type === 'flow-collection') {
      inner = depth + 1;
      if (inner > PARSE_LIMITS.maxFlowDepth) {
        found = {
          offset: t.start.offset,
          message: `${lang}: flow nesting deeper than ${PARSE_LIMITS.maxFlowDepth} levels is not accepted`,
        };
        continue;
      }
      if (t.start.source === '{') {
        let commas = 0;
        scan: for (const item of t.items)
          for (const s of item.start)
            if (s.type === 'comma' && ++commas >= PARSE_LIMITS.maxMapEntries) {
              if (!found || s.offset < found.offset)
                found = { offset: s.offset, message: tooManyEntries(format) };
              break scan;
            }
      }
    }
    const children: CstToken[] = [];
    if (t.type === 'document') {
      if (t.value) children.push(t.value);
    } else if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
      for (const item of t.items) {
        if ('key' in item && item.key) children.push(item.key);
        if (item.value) children.push(item.value);
      }
    }
    // Last child pushed first: items are visited in text order.
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, inner]);
  }
  return found;
}

/**
 * yaml's parseDocument (same options, same result), with the parser's tree checked by flowProblem before
 * the composer sees it: one lex and one parse of the text, not a second lex to measure nesting (that pass
 * alone took seconds on a 3 MB plan).
 */
function composeDocument(text: string, format: PlanFormat): Document.Parsed {
  const { Composer, Parser, YAMLParseError } = Y();
  const options = {
    intAsBigInt: true,
    prettyErrors: false,
    // yaml's own console warnings (e.g. about mapAsMap or several documents) never reach the user: what is
    // wrong with a plan is a finding.
    logLevel: 'error' as const,
    uniqueKeys: true,
    keepSourceTokens: false,
    ...(format === 'json' ? { schema: 'json' as const } : {}),
  };
  const tokens = new Parser().parse(text);
  const checked = (function* () {
    for (const token of tokens) {
      const problem = flowProblem(token, format);
      if (problem) throw new FlowLimit(problem.offset, problem.message);
      yield token;
    }
  })();
  // The composer closes its input when the loop below stops at a second document; the rest is still
  // checked after it (a flow problem anywhere is the finding, as when the whole text was measured first).
  const unclosable: Iterable<CstToken> = { [Symbol.iterator]: () => ({ next: () => checked.next() }) };
  let doc: Document.Parsed | undefined;
  for (const d of new Composer(options).compose(unclosable, true, text.length)) {
    if (!doc) doc = d;
    else {
      doc.errors.push(
        new YAMLParseError(
          [d.range[0], d.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  while (!checked.next().done);
  return doc!;
}

/**
 * An integer as plans take it: decimal digits, an optional minus, no leading zero (`!!int` tags and quotes
 * are not part of a scalar's text). Tests may import it; the schema's messages name the forms refused.
 */
const PLAIN_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * The readers give integers as bigint, so a JS number in the document was written with a fraction, an
 * exponent, or as .inf/.nan. Each is replaced by the text as written: a float is never an exact amount
 * (fields that take an integer refuse the text), a percent is read exactly from its digits (1e-400 is not
 * 0, 50.000000000000000001 is not 50), and messages quote what the user wrote (12345678901234567891e0,
 * never a rounded 12345678901234567000; 1e1000, never Infinity). An integer is kept only when written in
 * plain decimal digits (PLAIN_INTEGER): YAML's other integer forms (`0x1000`, `0o17`, `+5`, and `017`,
 * which YAML 1.1 reads as octal and 1.2 as 17) are replaced by their text too, so no field takes them as a
 * number and no message shows them as a decimal (`sender: 0x1234abcd` is "0x1234abcd", never 305441741).
 * Both YAML readers (lightYaml.ts and the `yaml` library) and JSON alike.
 */
function numbersAsWritten(value: unknown, source: SourceTree, text: string): unknown {
  // Every number already as plans take it (the reader says so): the walk would change nothing.
  if (!source.writtenNumbers) return value;
  // The value and the tree walked together, each child node found from its parent as lightAt finds it from
  // the root, so every number gets the text of its node without a walk from the root per number.
  const walk = (v: unknown, node: LightNode | undefined): unknown => {
    if (typeof v === 'number' || typeof v === 'bigint') {
      const n = node?.kind === 'alias' ? node.target : node;
      if (n?.kind !== 'scalar') return asWritten(v, undefined);
      // The usual case (digits as written, nothing around them) needs no copy of the text.
      if (typeof v === 'bigint' && plainIntegerAt(text, n.range[0], n.range[1])) return v;
      return asWritten(v, text.slice(n.range[0], n.range[1]).trim());
    }
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string | number, unknown>;
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(o)) {
      const item = o[k];
      if (typeof item !== 'object' && typeof item !== 'number' && typeof item !== 'bigint') continue;
      o[k] = walk(item, node && lightChild(node, k)?.node);
    }
    return v;
  };
  return walk(value, source.root);
}

/** A number as its text `written`; an integer kept unless `written` is other than plain digits. */
function asWritten(v: number | bigint, written: string | undefined): unknown {
  if (typeof v === 'number') return written ?? String(v);
  return written === undefined || PLAIN_INTEGER.test(written) ? v : written;
}

/**
 * Where the ranges come from: the fast readers' tree (lightYaml.ts, lightJson.ts), or yaml's composed
 * Document seen as one (lightFromDoc): every path, range and location is read the same way from either.
 */
interface SourceTree {
  /** Undefined for an empty document. */
  root: LightNode | undefined;
  /** The root mapping's first key (file-level findings). */
  firstKey: LightRange | undefined;
  /** Some number may be written other than as plans take it (numbersAsWritten has work to do). */
  writtenNumbers: boolean;
  /** The value this tree holds, syntax errors or not (undefined when it cannot be had). */
  value(): unknown;
}

function lightTree(light: JsonDoc): SourceTree {
  const { root, value } = light;
  return {
    root,
    firstKey: root.kind === 'map' ? root.keys[0]?.range : undefined,
    writtenNumbers: light.writtenNumbers === true,
    value: () => value,
  };
}

function docTree(doc: Document.Parsed): SourceTree {
  const c = doc.contents;
  let read = false;
  let js: unknown;
  return {
    root: lightFromDoc(doc),
    // A key of any kind (lightFromDoc leaves out those no path names).
    firstKey: (Y().isMap(c) ? (c.items[0]?.key as Node | null | undefined)?.range : undefined) ?? undefined,
    writtenNumbers: true,
    value() {
      // Once per document: completion asks at every request while the file is broken.
      if (!read) {
        read = true;
        try {
          js = doc.toJS({ maxAliasCount: 100 });
        } catch {
          js = undefined;
        }
      }
      return js;
    },
  };
}

/**
 * yaml's composed Document as the fast readers' tree. A mapping keeps the pairs a path can name: those with a
 * scalar key (by its text), the first of a repeated key (as yaml's own lookups find it); the nodes of the
 * others are still read for their anchors. A key without a value, and a pair as a sequence's item, leave an
 * empty slot. An alias stands for the last node anchored with its name before it, as Alias.resolve finds it.
 */
export function lightFromDoc(doc: Document.Parsed): LightNode | undefined {
  const y = Y();
  const anchors = new Map<string, LightScalar | LightMap | LightSeq>();
  const convert = (n: unknown): LightNode | undefined => {
    if (y.isAlias(n)) return { kind: 'alias', range: n.range as LightRange, target: anchors.get(n.source) };
    if (y.isPair(n)) {
      convert(n.key);
      convert(n.value);
      return undefined;
    }
    const range = (n as Node | null)?.range as LightRange;
    let node: LightScalar | LightMap | LightSeq;
    if (y.isScalar(n)) node = { kind: 'scalar', range, value: n.value };
    else if (y.isMap(n)) node = { kind: 'map', range, flow: n.flow === true, keys: [], values: [] };
    else if (y.isSeq(n)) node = { kind: 'seq', range, flow: n.flow === true, items: [] };
    else return undefined;
    if (n.anchor) anchors.set(n.anchor, node);
    if (node.kind === 'map') {
      const named = new Set<string>();
      for (const pair of (n as YAMLMap<unknown, unknown>).items) {
        const key = convert(pair.key);
        const value = convert(pair.value);
        if (key?.kind !== 'scalar' || named.has(String(key.value))) continue;
        named.add(String(key.value));
        node.keys.push({ kind: 'scalar', range: key.range, value: String(key.value) });
        node.values.push(value);
      }
    } else if (node.kind === 'seq') for (const item of (n as YAMLSeq).items) node.items.push(convert(item));
    return node;
  };
  return convert(doc.contents);
}

type Found = { node: LightNode | undefined; key: LightScalar | undefined };

function lightAt(root: LightNode | undefined, path: PlanPath): Found | undefined {
  let at: Found | undefined = { node: root, key: undefined };
  for (const seg of path) if (!(at = at.node && lightChild(at.node, seg))) return undefined;
  return at;
}

/**
 * The node under `node` at `seg`, and its key in a map (undefined for a sequence's item). An alias is
 * followed on the way down; the node found is returned as it is.
 */
function lightChild(node: LightNode, seg: string | number): Found | undefined {
  const n = node.kind === 'alias' ? node.target : node;
  if (n?.kind === 'map') {
    const i = lightKeyAt(n, String(seg));
    return i === undefined ? undefined : { node: n.values[i], key: n.keys[i] };
  }
  if (n?.kind !== 'seq' || typeof seg !== 'number' || seg < 0 || seg >= n.items.length) return undefined;
  return { node: n.items[seg], key: undefined };
}

/** Index of `key` in a light map (the last one when repeated): a scan of a small map, else its index. */
function lightKeyAt(map: LightMap, key: string): number | undefined {
  const size = map.keys.length;
  if (size > 8) return lightKeyIndex(map).get(key);
  for (let i = size - 1; i >= 0; i--) if (map.keys[i]!.value === key) return i;
  return undefined;
}

/**
 * Key -> index of a light map, built once per map: a lookup per path segment stays O(1), so a file with
 * 100,000 unknown keys (each reported with its range) is linear, not quadratic. The last key wins, as
 * the reader's own scan did.
 */
const lightKeyIndexes = new WeakMap<LightMap, Map<unknown, number>>();
function lightKeyIndex(map: LightMap): Map<unknown, number> {
  let index = lightKeyIndexes.get(map);
  if (!index) {
    index = new Map();
    for (let i = 0; i < map.keys.length; i++) index.set(map.keys[i]!.value, i);
    lightKeyIndexes.set(map, index);
  }
  return index;
}

function toRange(r: LightRange | undefined): SourceRange | undefined {
  return r ? { offset: r[0], length: Math.max(0, r[1] - r[0]) } : undefined;
}

function makeParsed(
  text: string,
  format: PlanFormat,
  source: SourceTree | undefined,
  value: unknown,
  findings: Finding[],
): ParsedPlan {
  const root = source?.root;
  const ops = lightAt(root, ['operations'])?.node;
  const opStarts = ops?.kind === 'seq' ? ops.items.map((n): LightRange => n?.range ?? [0, 0, 0]) : [];
  const rawOps = (value as { operations?: unknown } | undefined)?.operations;
  return {
    text,
    format,
    value,
    plan: undefined,
    findings,
    locate(offset) {
      return locate(root, offset);
    },
    firstKeyRange() {
      return toRange(source?.firstKey);
    },
    readValue() {
      return value ?? source?.value();
    },
    operationCount: opStarts.length,
    sourcePath: (path) => path,
    rangeOf(path) {
      const at = lightAt(root, path);
      if (!at) return undefined;
      return toRange(at.node?.range) ?? toRange(at.key?.range);
    },
    keyRangeOf(path) {
      const at = lightAt(root, path);
      if (!at) return undefined;
      return toRange(at.key?.range) ?? toRange(at.node?.range);
    },
    operationIndexAt(offset) {
      let lo = 0;
      let hi = opStarts.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const r = opStarts[mid]!;
        if (offset < r[0]) hi = mid - 1;
        else if (offset > r[2]) lo = mid + 1;
        else return mid;
      }
      return undefined;
    },
    operationId(index) {
      const raw = Array.isArray(rawOps) ? (rawOps[index] as { id?: unknown } | undefined)?.id : undefined;
      if (typeof raw === 'string' && raw.length > 0) return raw;
      if (typeof raw === 'bigint' || (typeof raw === 'number' && Number.isInteger(raw))) return String(raw);
      return String(index);
    },
    isFlowMap(path) {
      if (format === 'json') return true;
      const parent = lightAt(root, path.slice(0, -1))?.node;
      return parent?.kind === 'map' ? parent.flow : false;
    },
  };
}
