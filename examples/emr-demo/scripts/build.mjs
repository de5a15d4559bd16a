// Builds the demo EMR: the page's script (src/browser → dist/public/chart.js, with the embed helper
// from @chartwright/embed's build), its HTML and CSS, and the server (src/server → dist/server.js,
// dist/main.js). `--if-stale` skips the build when dist is newer than every input.
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

import { runBuildScript } from '../../../scripts/staged-build.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The page loads the embed helper and nothing else: no validation library may reach it. */
function assertPageInputs(metafile) {
  const foreign = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(
        ([input, { bytesInOutput }]) => bytesInOutput > 0 && /node_modules\/zod\/|packages\/protocol\//.test(input),
      )
      .map(([input]) => input),
  );
  if (foreign.length > 0) throw new Error(`the demo page must not contain ${foreign.join(', ')}`);
}

async function buildInto(out) {
  cpSync(join(demoDir, 'src', 'public'), join(out, 'public'), { recursive: true });
  const page = await build({
    absWorkingDir: demoDir,
    entryPoints: ['src/browser/chart.ts'],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    outfile: join(out, 'public', 'chart.js'),
  });
  assertPageInputs(page.metafile);
  await build({
    absWorkingDir: demoDir,
    entryPoints: { server: 'src/server/index.ts', main: 'src/server/main.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    outdir: out,
  });
}

await runBuildScript(import.meta.url, '@chartwright/emr-demo', {
  dir: demoDir,
  inputs: ['src', 'scripts', 'package.json', join('..', '..', 'packages', 'embed', 'dist')].map((path) =>
    join(demoDir, path),
  ),
  buildInto,
});
