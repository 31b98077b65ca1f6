#!/usr/bin/env node
'use strict';
// The `dlmm` command (package.json "bin"): the bundled CLI (run `npm run build` first when working from a
// clone). Its bundles load through the V8 code cache in the user's cache folder (core/codeCache.ts).
const cli = require('../dist/cli.js');
cli.useCodeCache();
cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(cli.fatalText(e, process.argv.slice(2)));
    process.exitCode = 2;
  },
);
