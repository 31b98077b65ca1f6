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

// The CLI is split per command: dist/cli.js holds only the dispatcher and the help table, and loads
// dist/cli-<name>.js when a command runs (cli/src/main.ts requires './commands/<name>' lazily; this plugin
// points those requires at the command bundles), so `dlmm --version` and `--help` load almost nothing.
const CLI_COMMANDS = readdirSync('cli/src/commands')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
const cliCommandsExternal = {
  name: 'cli-commands-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/[a-z-]+$/ }, (args) => {
      if (!args.importer.replace(/\\/g, '/').endsWith('cli/src/main.ts')) return undefined;
      return { path: `./cli-${args.path.slice('./commands/'.length)}.js`, external: true };
    });
  },
};

const entries = [
  {
    in: 'client/src/extension.ts',
    out: 'dist/client.js',
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
  },
  { in: 'server/src/main.ts', out: 'dist/server.js', platform: 'node', format: 'cjs' },
  { in: 'cli/src/main.ts', out: 'dist/cli.js', platform: 'node', format: 'cjs', plugins: [cliCommandsExternal] },
  ...CLI_COMMANDS.map((name) => ({
    in: `cli/src/commands/${name}.ts`,
    out: `dist/cli-${name}.js`,
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
