#!/usr/bin/env node
'use strict';
// The `dlmm` command: the bundled CLI (run `npm run build` first when working from a clone).
require('../dist/cli.js')
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(String(e) + '\n');
      process.exitCode = 2;
    },
  );
