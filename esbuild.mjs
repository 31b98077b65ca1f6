// One build script, one entry per runtime (STYLE.md): extension client, language server, CLI, webview.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

// The CLI is split: dist/cli.js holds only the dispatcher and the help table and loads dist/cli-<name>.js
// when a command runs; a command loads the HTTP client and the simulator (dist/lazy-*.js) only when it
// reads the service. In the sources these are plain `require()` calls (cli/src/main.ts, cli/src/common.ts);
// this plugin points such requires at the separate bundles, so `dlmm --version` loads almost nothing and
// `dlmm check --offline` no HTTP stack. Static imports are bundled as usual.
const CLI_COMMANDS = readdirSync('cli/src/commands')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
const LAZY_MODULES = {
  'core/api/client.ts': 'lazy-api-client',
  'core/sim/server.ts': 'lazy-sim-server',
  'core/plan/binShareCodec.ts': 'lazy-bin-share-codec',
};
const here = process.cwd().replace(/\\/g, '/');
const cliLazyRequires = {
  name: 'cli-lazy-requires',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'require-call') return undefined;
      const command = /^\.\/commands\/([a-z-]+)$/.exec(args.path);
      if (command && args.importer.replace(/\\/g, '/').endsWith('cli/src/main.ts'))
        return { path: `./cli-${command[1]}.js`, external: true };
      const target = `${args.resolveDir.replace(/\\/g, '/')}/${args.path}.ts`;
      for (const [file, out] of Object.entries(LAZY_MODULES))
        if (normalize(target) === normalize(`${here}/${file}`))
          return { path: `./${out}.js`, external: true };
      return undefined;
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
  { in: 'server/src/main.ts', out: 'dist/server.js', platform: 'node', format: 'cjs', plugins: [cliLazyRequires] },
  { in: 'cli/src/main.ts', out: 'dist/cli.js', platform: 'node', format: 'cjs', plugins: [cliLazyRequires] },
  ...CLI_COMMANDS.map((name) => ({
    in: `cli/src/commands/${name}.ts`,
    out: `dist/cli-${name}.js`,
    platform: 'node',
    format: 'cjs',
    plugins: [cliLazyRequires],
  })),
  ...Object.entries(LAZY_MODULES).map(([file, out]) => ({
    in: file,
    out: `dist/${out}.js`,
    platform: 'node',
    format: 'cjs',
  })),
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

const builds = entries
  .filter((e) => existsSync(e.in))
  .map((e) =>
    esbuild.context({
      ...common,
      entryPoints: [e.in],
      outfile: e.out,
      platform: e.platform,
      format: e.format,
      target: e.platform === 'node' ? 'node20' : 'chrome114',
      external: e.external ?? [],
      plugins: e.plugins ?? [],
      ...(e.sourcemap === false ? { sourcemap: false } : {}),
    }),
  );

const contexts = await Promise.all(builds);
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  // The JSON Schema for plans is generated from the same zod schema the analyzer uses.
  if (existsSync('core/plan/jsonSchema.ts')) {
    const { execFileSync } = await import('node:child_process');
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/gen-schema.ts'], { stdio: 'inherit' });
  }
}
