/* global module */
/**
 * The one-way house (ARCHITECTURE.md): each layer imports only from the layers listed before it, and nothing
 * imports in a circle. `npm run lint` runs this; a new upward import or circle fails the lint.
 */
const LAYERS = [
  ['core/text', 'core/files', 'core/cacheDir\\.ts', 'core/codeCache\\.ts'],
  ['core/dlmm'],
  ['core/chain'],
  ['core/api'],
  ['core/quote'],
  ['core/plan'],
  ['core/live'],
  ['core/prepare'],
  ['core/tx'],
  ['core/check'],
  ['core/wallet', 'core/sim'],
  ['protocol'],
  ['webview'],
  ['server'],
  ['cli', 'client'],
];
const pattern = (dirs) => `^(${dirs.join('|')})(/|$)`;
const layerRules = LAYERS.slice(0, -1).map((dirs, i) => ({
  name: `layer-${dirs[0].replace(/\\\\/g, '')}`,
  comment: `${dirs.join(', ')} import only from the layers below them`,
  severity: 'error',
  from: { path: pattern(dirs) },
  to: { path: pattern(LAYERS.slice(i + 1).flat()) },
}));
// Above the utilities, modules at one level stay apart (the simulator and the wallet session; the CLI and
// the extension): they share what lies below them.
const siblings = LAYERS.slice(1)
  .filter((dirs) => dirs.length > 1)
  .flatMap((dirs) =>
    dirs.map((d) => ({
      name: `apart-${d.replace(/\\\\/g, '')}`,
      severity: 'error',
      from: { path: pattern([d]) },
      to: { path: pattern(dirs.filter((o) => o !== d)) },
    })),
  );

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...layerRules,
    ...siblings,
    {
      name: 'client-not-server',
      comment:
        'the extension client starts the language server and talks to it over JSON-RPC only: what both speak is in protocol/',
      severity: 'error',
      from: { path: '^client(/|$)' },
      to: { path: '^server(/|$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
  },
};
