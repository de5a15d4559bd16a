#!/usr/bin/env node
// The `chartwright` command. A committed shim rather than a link to dist/cli.js, so npm can link
// the command on a fresh clone before anything has been built.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('chartwright: not built yet; run `npm start` or `npm run build` from the repository root\n');
  process.exit(1);
}
await import(cli.href);
