// What each bundle pulls in: `node esbuild.mjs --metafile && node scripts/bundle-report.mjs [bundle ...]`
// prints, per bundle in dist/, its size and the bytes each package or source folder contributes.
import { readdirSync, readFileSync } from 'node:fs';

const only = process.argv.slice(2);
const top = Number(process.env.TOP ?? 15);
for (const f of readdirSync('dist/meta').sort()) {
  const name = f.replace(/\.json$/, '');
  if (only.length && !only.includes(name)) continue;
  const meta = JSON.parse(readFileSync(`dist/meta/${f}`, 'utf8'));
  const [, out] = Object.entries(meta.outputs).find(([k]) => k.endsWith('.js'));
  const groups = new Map();
  for (const [input, v] of Object.entries(out.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const key = m ? m[1] : input.split('/').slice(0, 2).join('/');
    groups.set(key, (groups.get(key) ?? 0) + v.bytesInOutput);
  }
  console.log(`${name}: ${out.bytes} bytes`);
  for (const [k, v] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${String(v).padStart(9)} ${k}`);
}
