#!/usr/bin/env node
'use strict';
// The `dlmm` command's plain path: the bundled CLI (run `npm run build` first when working from a clone).
// Its bundles load through the V8 code cache in the user's cache folder (cli/src/codeCache.ts). The `dlmm`
// launcher (bin/dlmm) runs `dlmm check` from a startup snapshot when it has a valid one, and this file
// otherwise; it then names the snapshot it looked for, built in the background after this run
// (cli/src/snapshot.ts).
const snapshot = process.env.DLMM_SNAPSHOT_BLOB;
const snapshotNode = process.env.DLMM_SNAPSHOT_NODE;
const snapshotDist = process.env.DLMM_SNAPSHOT_DIST;
delete process.env.DLMM_SNAPSHOT_BLOB;
delete process.env.DLMM_SNAPSHOT_NODE;
delete process.env.DLMM_SNAPSHOT_DIST;
const cli = require('../dist/cli.js');
cli.useCodeCache();
cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    if (snapshot && snapshotNode && snapshotDist) {
      const dist = require('node:path').join(__dirname, '..', 'dist');
      require('../dist/snapshot.js').startBuild(snapshot, snapshotNode, dist, snapshotDist);
    }
  },
  (e) => {
    process.stderr.write(cli.fatalText(e, process.argv.slice(2)));
    process.exitCode = 2;
  },
);
