'use strict';

const library = require('@chartwright/client');
const { run } = require('./rest-scenario.cjs');

run(library).catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
