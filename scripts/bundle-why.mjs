// Why a bundle holds a module: `node scripts/bundle-why.mjs <bundle> <substring>` prints the shortest import
// chain from the bundle's entry to the first input whose path contains <substring> (needs `--metafile`).
import { readFileSync } from 'node:fs';

const [bundle, needle] = process.argv.slice(2);
const meta = JSON.parse(readFileSync(`dist/meta/${bundle}.json`, 'utf8'));
const [, out] = Object.entries(meta.outputs).find(([k]) => k.endsWith('.js'));
const entry = out.entryPoint;
const prev = new Map([[entry, null]]);
const queue = [entry];
let hit;
while (queue.length && !hit) {
  const cur = queue.shift();
  for (const imp of meta.inputs[cur]?.imports ?? []) {
    if (imp.external || prev.has(imp.path)) continue;
    prev.set(imp.path, `${cur} (${imp.kind})`);
    if (imp.path.includes(needle)) {
      hit = imp.path;
      break;
    }
    queue.push(imp.path);
  }
}
if (!hit) console.log(`${needle}: not in ${bundle}`);
else {
  const chain = [];
  for (let p = hit; p; p = prev.get(p)?.replace(/ \(.*\)$/, '') ?? null)
    chain.unshift(p + (prev.get(p) ? ` <- ${prev.get(p).match(/\((.*)\)$/)[1]}` : ''));
  console.log(chain.join('\n  '));
}
