// `npm run demo`: a short tour of the `dlmm` command line against the embedded simulated engine (--sim, a
// real HTTP server on loopback): the clean example plans, then the deliberate mistakes, a quote and an
// export summary. Exits 0 when every step behaves as described (the mistakes must be found: exit 1 there).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'dlmm.js');

const steps = [
  {
    title: '1. The example plans, checked against the simulated engine (all clean)',
    args: ['check', '--sim', 'examples/add-ladder.dlmm.yaml', 'examples/simple-rebalance.dlmm.yaml', 'examples/swap.dlmm.json'],
    expect: 0,
  },
  {
    title: '2. Deliberate mistakes: these plans are WRONG ON PURPOSE, to show what the checks find',
    args: ['check', '--sim', 'examples/mistakes'],
    expect: 1,
  },
  {
    title: '3. A quote: 0.01 sBTC to USDCx, the best route, recomputed exactly',
    args: ['quote', '--sim', '--in', 'sBTC', '--out', 'USDCx', '--amount', '0.01'],
    expect: 0,
  },
  {
    title: '4. The export summary of examples/add-ladder.dlmm.yaml (unsigned; nothing is signed or sent)',
    args: ['export', 'examples/add-ladder.dlmm.yaml', '--sim', '--format', 'summary'],
    expect: 0,
  },
];

let failed = 0;
for (const step of steps) {
  process.stdout.write(`\n=== ${step.title}\n$ dlmm ${step.args.join(' ')}\n\n`);
  const r = spawnSync(process.execPath, [bin, ...step.args], { cwd: root, stdio: 'inherit' });
  const status = r.status ?? 2;
  if (status !== step.expect) {
    failed++;
    process.stdout.write(`\n!!! expected exit ${step.expect}, got ${status}\n`);
  } else {
    process.stdout.write(`\n(exit ${status}${step.expect === 1 ? ': the mistakes were found, as intended' : ''})\n`);
  }
}
process.stdout.write(
  failed === 0
    ? '\nTour done. Next: `node bin/dlmm.js --help`, docs/cli.md, docs/diagnostics.md, or open examples/ in VS Code.\n'
    : `\n${failed} step(s) did not behave as described.\n`,
);
process.exitCode = failed === 0 ? 0 : 1;
