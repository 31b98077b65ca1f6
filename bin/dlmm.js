#!/usr/bin/env node
'use strict';
// The `dlmm` command (package.json "bin"): the bundled CLI (run `npm run build` first when working from a
// clone). Its bundles load through the V8 code cache in the user's cache folder (core/codeCache.ts).
const cli = require('../dist/cli.js');
cli.useCodeCache();
cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // The command is done: exit now. Left to drain, the process would first wait for V8's background work
    // (optimizing compiles of code that will not run again): ~50 ms after a 350-position export. Exit
    // handlers still run (the code cache is written). Output not yet written (a pipe is asynchronous on
    // some platforms) is waited for: the process then ends when it is written.
    if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
  },
  (e) => {
    process.stderr.write(cli.fatalText(e, process.argv.slice(2)));
    process.exitCode = 2;
  },
);
