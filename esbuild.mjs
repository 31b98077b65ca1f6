// One build script, one entry per runtime: extension client, language server, CLI, webview.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const watch = process.argv.includes('--watch');
// `--metafile`: writes dist/meta/<bundle>.json (esbuild's metafile) for scripts/bundle-report.mjs.
const metafile = process.argv.includes('--metafile');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

// The CLI and the language server are split: dist/cli.js holds only the dispatcher and the help table and
// loads dist/cli-<name>.js when a command runs; heavy parts are loaded on first use from their own files
// (dist/lazy-*.js). In the sources these are plain `require()` calls (cli/src/main.ts, cli/src/common.ts,
// core/check/analyze.ts, core/plan/parse.ts, server/src/server.ts); this plugin points such requires at the
// separate bundles, so `dlmm --version` loads almost nothing and `dlmm check --offline` neither the HTTP
// stack, the execution (core/tx, core/chain, @stacks/transactions), the yaml library, zod nor node:crypto
// (see lazyNodeCrypto). Static imports are bundled as usual. `node esbuild.mjs --metafile && node
// scripts/bundle-report.mjs` shows what each holds.
const CLI_COMMANDS = readdirSync('cli/src/commands')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
const CLI_BUNDLES = CLI_COMMANDS.map((name) => `cli-${name}`);
// Commands whose own modules build schemas on their own zod from schemas.ts's (core/api/coreClient.ts,
// core/sim): their schemas.ts stays in their bundle, so each schema is built on one copy of zod.
const OWN_ZOD = ['cli-quote', 'cli-routes', 'cli-tokens', 'cli-sim'];
const require = createRequire(import.meta.url);
/**
 * Modules bundled into their own file (dist/<out>.js) and required from it. `in`: the bundles where a
 * require of the module goes to that file (default: every bundle built with the plugin); elsewhere it is
 * bundled in (a bundle that also imports the module's dependencies statically keeps one copy of them).
 * `imports`: static imports of it go to that file too (a module shared by bundles loaded into one process,
 * so the process compiles and initialises it once). `also`: other specifiers served by the same file.
 */
const LAZY_MODULES = [
  { module: 'core/api/client.ts', out: 'lazy-api-client' },
  { module: 'core/sim/server.ts', out: 'lazy-sim-server' },
  // The execution holds @stacks/transactions, and with it the Clarity codec of node bin reads (execute.ts
  // re-exports it; core/live requires the codec, served from here): one copy, loaded with the first live
  // analysis, not at start.
  {
    module: 'core/check/execute.ts',
    also: ['core/live/binShareCodec.ts'],
    out: 'lazy-execute',
    in: ['cli-check', 'lazy-server-engine'],
  },
  { module: 'server/src/handlers.ts', out: 'lazy-server-engine', in: ['server', 'cli-lsp', 'server-test'] },
  { module: 'yaml', out: 'lazy-yaml', in: CLI_BUNDLES, entry: require.resolve('yaml') },
  // zod, with the schemas of the service's answers and DLMM_ROUTERS (cli/src/liveSchemas.ts): one copy for a
  // command and the API client it loads (lazy-api-client.js takes its schemas from here too), without zod's JIT;
  // an offline check validates plans without it.
  {
    module: 'core/api/schemas.ts',
    also: ['core/chain/routerSettings.ts'],
    out: 'lazy-live-schemas',
    in: [...CLI_BUNDLES.filter((b) => !OWN_ZOD.includes(b)), 'lazy-api-client'],
    imports: true,
    entry: 'cli/src/liveSchemas.ts',
  },
  // The language server's process: the LSP library's protocol (server.js, for the handshake) and the engine
  // (its features) share one copy.
  {
    module: 'vscode-languageserver-protocol/node',
    also: ['vscode-languageserver-protocol', 'vscode-languageserver-protocol/'],
    out: 'lazy-lsp-protocol',
    in: ['server', 'cli-lsp', 'lazy-server-engine', 'server-test'],
    imports: true,
    entry: require.resolve('vscode-languageserver-protocol/node'),
  },
];
const here = process.cwd().replace(/\\/g, '/');
const lazyRequires = (bundle) => ({
  name: 'lazy-requires',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      const isImport = args.kind === 'import-statement';
      if (args.kind !== 'require-call' && !isImport) return undefined;
      const command = /^\.\/commands\/([a-z-]+)$/.exec(args.path);
      if (!isImport && command && args.importer.replace(/\\/g, '/').endsWith('cli/src/main.ts'))
        return { path: `./cli-${command[1]}.js`, external: true };
      const target = args.path.startsWith('.')
        ? normalize(`${args.resolveDir.replace(/\\/g, '/')}/${args.path}.ts`)
        : args.path;
      for (const lazy of LAZY_MODULES) {
        if (lazy.in && !lazy.in.includes(bundle)) continue;
        if (isImport && !lazy.imports) continue;
        // A module's own bundle holds it.
        if (lazy.out === bundle) continue;
        const file = (m) =>
          m.startsWith('core/') || m.startsWith('server/') ? normalize(`${here}/${m}`) : m;
        if ([lazy.module, ...(lazy.also ?? [])].some((m) => target === file(m)))
          return { path: `./${lazy.out}.js`, external: true };
      }
      return undefined;
    });
  },
});
/**
 * @noble/hashes (c32check's SHA-256: every principal in a plan is checked offline) requires node:crypto when it
 * loads, only for its randomBytes; node:crypto brings the stream modules with it, ~4 ms of `dlmm check
 * --offline`'s start. Each node bundle gets the same module with that require deferred to the first read of
 * `crypto.node` (randomBytes, which no offline check calls). The file is matched by its exact text, so a
 * version that changes it stops the build here instead of being bundled unlike its source.
 */
const NOBLE_CRYPTO = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.crypto = void 0;
const nodeCrypto = require("crypto");
exports.crypto = {
    node: nodeCrypto,
    web: undefined,
};
`;
const lazyNodeCrypto = {
  name: 'lazy-node-crypto',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]@noble[\\/]hashes[\\/]crypto\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = (await readFile(args.path, 'utf8')).replace(/\r\n/g, '\n');
      if (text !== NOBLE_CRYPTO)
        throw new Error(
          `${args.path} is not the file esbuild.mjs's lazy-node-crypto expects: check it again`,
        );
      return {
        loader: 'js',
        contents: `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
let nodeCrypto;
exports.crypto = {
    get node() {
        return (nodeCrypto ??= require("crypto"));
    },
    web: undefined,
};
`,
      };
    });
  },
};

function normalize(p) {
  const parts = [];
  for (const seg of p.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

const entries = [
  {
    in: 'client/src/extension.ts',
    out: 'dist/client.js',
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
  },
  { in: 'server/src/main.ts', out: 'dist/server.js', platform: 'node', format: 'cjs', lazy: 'server' },
  { in: 'cli/src/main.ts', out: 'dist/cli.js', platform: 'node', format: 'cjs', lazy: 'cli' },
  ...CLI_COMMANDS.map((name) => ({
    in: `cli/src/commands/${name}.ts`,
    out: `dist/cli-${name}.js`,
    platform: 'node',
    format: 'cjs',
    lazy: `cli-${name}`,
  })),
  ...LAZY_MODULES.map(({ module, out, entry }) => ({
    in: entry ?? module,
    out: `dist/${out}.js`,
    lazy: out,
    platform: 'node',
    format: 'cjs',
  })),
  // The tests' language server: `dlmm lsp` on the same bundles with the test-only requests
  // (test/integration/lsp/testHooks.ts). Neither the VSIX (.vscodeignore) nor the npm package (.npmignore)
  // ships it, and no shipped bundle holds its requests (test/integration/lsp/shipped.test.ts).
  {
    in: 'test/integration/lsp/testServer.ts',
    out: 'dist/server-test.js',
    platform: 'node',
    format: 'cjs',
    lazy: 'server-test',
  },
  { in: 'webview/src/main.ts', out: 'dist/webview.js', platform: 'browser', format: 'iife' },
  // The wallet page's script: read by `dlmm wallet` and the editor, inlined into the page with its nonce.
  {
    in: 'webview/src/wallet/page.ts',
    out: 'dist/wallet-page.js',
    platform: 'browser',
    format: 'iife',
    sourcemap: false,
  },
];

const built = entries.filter((e) => existsSync(e.in));
const builds = built.map((e) =>
  esbuild.context({
    ...common,
    entryPoints: [e.in],
    outfile: e.out,
    platform: e.platform,
    format: e.format,
    target: e.platform === 'node' ? 'node20' : 'chrome114',
    external: e.external ?? [],
    plugins: [...(e.lazy ? [lazyRequires(e.lazy)] : []), ...(e.platform === 'node' ? [lazyNodeCrypto] : [])],
    ...(e.sourcemap === false ? { sourcemap: false } : {}),
    metafile,
  }),
);

const contexts = await Promise.all(builds);
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const results = await Promise.all(contexts.map((c) => c.rebuild()));
  if (metafile) {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync('dist/meta', { recursive: true });
    results.forEach((r, i) => {
      const name = built[i].out.replace(/^dist\//, '').replace(/\.js$/, '');
      writeFileSync(`dist/meta/${name}.json`, JSON.stringify(r.metafile));
    });
  }
  await Promise.all(contexts.map((c) => c.dispose()));
  // Each node bundle carries the SHA-256 of its content, the key of the CLI's V8 code cache
  // (cli/src/codeCache.ts); a watch build has no such line, and its bundles are never cached. And each is
  // pure ASCII: esbuild escapes code (charset ascii) but keeps the libraries' comments as written, and a
  // single non-ASCII character in a comment makes V8 hold the whole source as a two-byte string (slower to
  // decode and to load: ~4 ms of `dlmm check`'s start). Outside comments the \u escape means the same.
  const { createHash } = await import('node:crypto');
  const { readFileSync, writeFileSync } = await import('node:fs');
  for (const e of built.filter((b) => b.platform === 'node')) {
    const text = readFileSync(e.out, 'utf8').replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const map = text.lastIndexOf('\n//# sourceMappingURL=');
    const [code, tail] = map < 0 ? [text, ''] : [text.slice(0, map + 1), text.slice(map + 1)];
    const hash = createHash('sha256').update(code).update(tail).digest('hex');
    writeFileSync(e.out, `${code}${code.endsWith('\n') ? '' : '\n'}//# dlmm-bundle-sha256=${hash}\n${tail}`);
  }
  // The JSON Schema for plans is generated from the same zod schema the analyzer uses.
  if (existsSync('core/plan/jsonSchema.ts')) {
    const { execFileSync } = await import('node:child_process');
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/gen-schema.ts'], { stdio: 'inherit' });
  }
}
