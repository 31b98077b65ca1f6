/**
 * A V8 code cache for the CLI's own bundles (dist/cli-<name>.js, dist/lazy-*.js), so a repeated command
 * neither parses nor compiles its 0.4–1.8 MB of JavaScript again: the first run of a bundle compiles it as
 * usual and, when the process exits, writes V8's cached data for it (with every function that run compiled)
 * to `<cache>/v8/`; later runs hand that data to V8 (`vm.Script` `cachedData`). Node 20 has no
 * `module.enableCompileCache`, hence this hook.
 *
 * The cache is an optimisation only: a missing, unreadable, foreign or rejected file means a plain compile,
 * an unwritable folder means no cache, and `DLMM_CACHE_DIR=off` turns it off. A file is keyed by the
 * bundle's content hash (written into the bundle by esbuild.mjs, `//# dlmm-bundle-sha256=`), its size and
 * modification time, the Node version, the architecture and the process's Node flags (V8 refuses data made
 * under other flags, so the editor's server and the CLI keep a file each), so a rebuilt, edited or
 * reinstalled bundle never meets another's code; a bundle without the hash line (esbuild's watch mode) is
 * never cached. V8 checks only the data's header (version, flags, length), not its contents (a flipped bit
 * crashes the process), so each file starts with our own checksum of the data (`checksum`), checked before V8
 * sees it: a damaged file is compiled around, silently, and written again. Compiled code is run as code, so it is
 * trusted only from a folder and files of the current user that no one else may write (an absolute folder;
 * it and the cache folder above it opened without following links and checked on their descriptors, through
 * which the files are named, so a link swapped in for either redirects nothing; the folder is created 0700,
 * the files 0600 and created new under a random name, never through an existing one, then renamed), opened
 * without following a link or blocking, and read only when the opened file is a regular file.
 */
import type { Script } from 'node:vm';
import { openCacheFolder, ownershipProblem, type CacheFolder } from './cacheDir';

/** The line esbuild.mjs adds to each node bundle: the SHA-256 of the bundle without that line. */
export const BUNDLE_HASH_MARK = '//# dlmm-bundle-sha256=';
/** Bundles of the CLI that go through the cache (the dispatcher itself, dist/cli.js, is small). */
const CACHED_BUNDLE = /^(?:cli-[a-z-]+|lazy-[a-z-]+)\.js$/;

/** A cache file: these 8 bytes, the checksum of the data (8 bytes, little-endian), then V8's cached data. */
const MAGIC = Buffer.from('DLMMV8C2', 'latin1');
const HEADER_BYTES = MAGIC.length + 8;

/** Another build's cache file (or a crashed run's temporary one) is removed once this old. */
const STALE_MS = 24 * 3600_000;
/** Other builds' cache files kept per bundle at most, the most recently written first. */
const KEEP_OTHERS = 8;

/**
 * Compiled code is run as code: only a cache file of this user that no one else may write is used (on
 * POSIX; any other file is compiled around and replaced).
 */
function trusted(st: { uid: number; mode: number }): boolean {
  return ownershipProblem(st) === undefined;
}

interface Pending {
  script: Script;
  /** The cache file's name in `<cache>/v8`. */
  file: string;
  /** The bundle's name, for dropping its caches of older builds. */
  bundle: string;
}

/**
 * Routes the CLI's bundles in `distDir` through the code cache under `cacheDir()` (the per-user cache
 * folder, asked when the first bundle loads; undefined: off). Only these files are affected; every other
 * module loads as Node loads it. Installing costs nothing until a bundle is loaded.
 */
export function enableCodeCache(distDir: string, cacheDir: () => string | undefined): void {
  // The CommonJS loader's Module class (`require('node:module')` would load more of Node than a command).
  const Module = module.constructor as unknown as ModuleClass;
  const original = Module.prototype._compile;
  const pending: Pending[] = [];
  let root: string | null | undefined; // the cache folder; null: off
  Module.prototype._compile = function (this: NodeModuleLike, content: string, filename: string) {
    const bundle = baseName(filename);
    if (root !== null && dirName(filename) === distDir && CACHED_BUNDLE.test(bundle)) {
      if (root === undefined) {
        const dir = cacheDir();
        // A relative folder (no home, a relative XDG_CACHE_HOME) would be the current directory's: none.
        root = dir === undefined || !isAbsolutePath(dir) ? null : dir;
        if (root !== null) {
          const where = root;
          process.once('exit', () => writeCaches(where, pending));
        }
      }
      const key = root === null ? undefined : cacheKey(content, filename);
      if (root !== null && key !== undefined) {
        const file = `${bundle.slice(0, -3)}.${key}.bin`;
        return compileCached(this, content, filename, bundle, root, file, pending, Module);
      }
    }
    return original.call(this, content, filename);
  };
}

interface NodeModuleLike {
  exports: unknown;
}

interface ModuleClass {
  prototype: { _compile(this: NodeModuleLike, content: string, filename: string): unknown };
  wrap(source: string): string;
  createRequire(filename: string): NodeJS.Require;
}

function compileCached(
  mod: NodeModuleLike,
  content: string,
  filename: string,
  bundle: string,
  root: string,
  file: string,
  pending: Pending[],
  Module: ModuleClass,
): unknown {
  /* eslint-disable @typescript-eslint/no-require-imports -- see enableCodeCache */
  const vm = require('node:vm') as typeof import('node:vm');
  const fs = require('node:fs') as typeof import('node:fs');
  /* eslint-enable @typescript-eslint/no-require-imports */
  let cachedData: Buffer | undefined;
  try {
    cachedData = inV8Folder(root, false, (v8) => verified(readTrusted(fs, v8.at(file))));
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(content), {
    filename,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!cachedData || script.cachedDataRejected === true) pending.push({ script, file, bundle });
  const fn = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: NodeModuleLike,
    filename: string,
    dirname: string,
  ) => unknown;
  return fn.call(mod.exports, mod.exports, Module.createRequire(filename), mod, filename, dirName(filename));
}

/**
 * The cache file's key for a bundle: its content hash (from the bundle's hash line), size and modification
 * time, Node version and architecture; undefined when the bundle has no hash line or cannot be stat'ed.
 */
function cacheKey(content: string, filename: string): string | undefined {
  const at = content.lastIndexOf(BUNDLE_HASH_MARK);
  if (at < 0) return undefined;
  const hash = /^[0-9a-f]{64}/.exec(
    content.slice(at + BUNDLE_HASH_MARK.length, at + BUNDLE_HASH_MARK.length + 64),
  );
  if (!hash) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see enableCodeCache
    const st = (require('node:fs') as typeof import('node:fs')).statSync(filename);
    return `${hash[0].slice(0, 32)}.${st.size}.${Math.trunc(st.mtimeMs)}.${process.version}.${process.arch}.${flagsKey()}`;
  } catch {
    return undefined;
  }
}

/** Writes the code caches of the bundles this process compiled without one; any failure is ignored. */
function writeCaches(root: string, pending: readonly Pending[]): void {
  if (pending.length === 0) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see enableCodeCache
  const fs = require('node:fs') as typeof import('node:fs');
  inV8Folder(root, true, (v8) => {
    let names: string[] = [];
    try {
      names = fs.readdirSync(v8.at('.'));
    } catch {
      names = [];
    }
    for (const { script, file, bundle } of pending) {
      try {
        const data = script.createCachedData();
        // Written aside and renamed, so a concurrent run reads the old file or the new one, never half of
        // one. Created new ('wx', O_EXCL) under a name no one can guess: a link planted anywhere is never
        // followed; and in the folder that was checked, named through its descriptor (inV8Folder).
        const tmp = `${file}.${process.pid}.${crypto().randomBytes(6).toString('hex')}.tmp`;
        const sum = checksum(data);
        if (sum === undefined) return;
        const header = Buffer.alloc(HEADER_BYTES);
        MAGIC.copy(header);
        header.writeBigUInt64LE(sum, MAGIC.length);
        fs.writeFileSync(v8.at(tmp), Buffer.concat([header, data]), { mode: 0o600, flag: 'wx' });
        fs.renameSync(v8.at(tmp), v8.at(file));
        const prefix = `${bundle.slice(0, -3)}.`;
        // This bundle's caches of other builds: removed a day after they were written (reading one does not
        // renew it), and beyond the KEEP_OTHERS most recent (a developer rebuilding all day).
        const others = names
          .filter((name) => name.startsWith(prefix) && name !== file)
          .map((name) => ({ path: v8.at(name), mtimeMs: fs.statSync(v8.at(name)).mtimeMs }))
          .sort((a, b) => b.mtimeMs - a.mtimeMs);
        others.forEach((other, i) => {
          if (i >= KEEP_OTHERS || Date.now() - other.mtimeMs > STALE_MS)
            fs.rmSync(other.path, { force: true });
        });
      } catch {
        /* the cache is an optimisation: an unwritable folder is no cache */
      }
    }
  });
}

/**
 * `use` of the code cache folder, `<root>/v8`, when both it and the cache folder are real folders (not links)
 * of this user that no one else may write: each opened without following a link and checked on its
 * descriptor, the files named through it (core/cacheDir.ts openCacheFolder), so a link swapped in for either
 * meanwhile redirects nothing. `create`: made (0700) when missing. Undefined when not usable.
 */
function inV8Folder<T>(root: string, create: boolean, use: (v8: CacheFolder) => T): T | undefined {
  const top = openCacheFolder(root, { create });
  if ('problem' in top) return undefined;
  try {
    if (!top.unchanged()) return undefined;
    const v8 = openCacheFolder(top.at('v8'), { create });
    if ('problem' in v8) return undefined;
    try {
      return v8.unchanged() ? use(v8) : undefined;
    } finally {
      v8.close();
    }
  } finally {
    top.close();
  }
}

/** V8's data from a cache file whose checksum matches; undefined for a damaged or foreign file. */
function verified(file: Buffer | undefined): Buffer | undefined {
  if (!file || file.length <= HEADER_BYTES || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const data = file.subarray(HEADER_BYTES);
  const sum = checksum(data);
  return sum !== undefined && sum === file.readBigUInt64LE(MAGIC.length) ? data : undefined;
}

/**
 * The cache files' checksum, against damage (not an adversary: the files are trusted by their owner and
 * mode): over the data as little-endian 64-bit words w, zero-padded, h = n (the byte length), then for each
 * word t = (h ^ w) * 0x100000001b3 mod 2^64, h = t ^ (t >>> 29). Each step is one-to-one in h and in w, so
 * any one damaged word changes the sum. It runs as this WebAssembly module, ~1 ms for a 400 KB cache (SHA-256
 * through node:crypto took ~4 ms, most of it loading node:crypto and the stream modules it brings, which a
 * command such as `dlmm check --offline` never needs otherwise):
 *
 *   (module (import "m" "m" (memory 0))
 *     (func (export "h") (param $n i32) (result i64) (local $i i32) (local $h i64)
 *       (local.set $h (i64.extend_i32_u (local.get $n)))
 *       (block (loop
 *         (br_if 1 (i32.ge_u (local.get $i) (local.get $n)))
 *         (local.set $h (i64.mul (i64.xor (local.get $h) (i64.load (local.get $i))) (i64.const 0x100000001b3)))
 *         (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 29))))
 *         (local.set $i (i32.add (local.get $i) (i32.const 8)))
 *         (br 0)))
 *       (local.get $h)))
 *
 * undefined when WebAssembly cannot run (e.g. `node --jitless`): then there is no cache.
 */
export function checksum(data: Uint8Array): bigint | undefined {
  try {
    const memory = new WebAssembly.Memory({ initial: Math.ceil((data.length + 8) / 65536) });
    new Uint8Array(memory.buffer).set(data);
    const module = new WebAssembly.Module(Buffer.from(CHECKSUM_WASM, 'hex'));
    const h = new WebAssembly.Instance(module, { m: { m: memory } }).exports.h as (n: number) => bigint;
    return BigInt.asUintN(64, h(data.length));
  } catch {
    return undefined;
  }
}
const CHECKSUM_WASM =
  '0061736d0100000001060160017f017e020801016d016d02000003020100070501016800000a3f013d02017f017e2000ad2102' +
  '02400340200120004f0d01200220012903008542b383808080207e22022002421d88852102200141086a21010c000b0b20020b';

function crypto(): typeof import('node:crypto') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see enableCodeCache
  return require('node:crypto') as typeof import('node:crypto');
}

/**
 * The cache file's bytes when it is a regular file of this user that no one else may write: opened without
 * following a link and without blocking (a FIFO or device there is never read, never waited on).
 */
function readTrusted(fs: typeof import('node:fs'), file: string): Buffer | undefined {
  const c = fs.constants;
  const fd = fs.openSync(file, c.O_RDONLY | (c.O_NOFOLLOW ?? 0) | (c.O_NONBLOCK ?? 0));
  try {
    const st = fs.fstatSync(fd);
    return st.isFile() && trusted(st) ? fs.readFileSync(fd) : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** A short digest of the Node flags this process runs with (V8 refuses cached data made under others). */
function flagsKey(): string {
  const flags = `${process.execArgv.join(' ')}|${process.env.NODE_OPTIONS ?? ''}`;
  let h = 0x811c9dc5; // FNV-1a: not a security measure, only a name
  for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ flags.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}

function dirName(p: string): string {
  return p.slice(0, Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')));
}
