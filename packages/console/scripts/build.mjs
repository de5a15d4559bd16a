// Builds the console app with Vite into dist/: index.html (served at /console) and content-hashed
// assets under dist/assets (served at /console/assets/), each beside a gzip copy the server sends to
// browsers that accept it. The build fails if zod reaches the bundle: the app takes only the
// protocol's types and zod-free values, and checks nothing a server answer already guarantees.
// `--if-stale` skips the build when dist is newer than every input (scripts/setup.mjs uses it).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

import { runBuildScript } from '../../../scripts/staged-build.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The bundled modules that must not be there: tree shaking has to have dropped every zod schema. */
function forbiddenModules(output) {
  return output
    .filter((chunk) => chunk.type === 'chunk')
    .flatMap((chunk) => Object.entries(chunk.modules))
    .filter(([id, module]) => module.renderedLength > 0 && /[\\/]node_modules[\\/]zod[\\/]/.test(id))
    .map(([id]) => id);
}

async function buildInto(out) {
  // Imported here so `--if-stale` with nothing to do never loads Vite.
  const { build } = await import('vite');
  const result = await build({
    root: packageDir,
    base: '/console/',
    configFile: false,
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir: out,
      emptyOutDir: true,
      assetsDir: 'assets',
      target: 'es2022',
      // The page's CSP allows no inline script or style: everything goes in files.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
    },
  });
  const forbidden = forbiddenModules([result].flat().flatMap((bundle) => bundle.output));
  if (forbidden.length > 0) throw new Error(`the console bundle must not contain ${forbidden.join(', ')}`);
  // Compressed once here, at the highest level, rather than on every request.
  for (const name of readdirSync(join(out, 'assets'))) {
    const file = join(out, 'assets', name);
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION }));
  }
}

/** Inputs whose change calls for a rebuild: the app (not its tests), this script, and the package it bundles. */
await runBuildScript(import.meta.url, '@chartwright/console', {
  dir: packageDir,
  inputs: [
    join(packageDir, 'src'),
    join(packageDir, 'index.html'),
    join(packageDir, 'scripts'),
    join(packageDir, 'package.json'),
    join(packageDir, 'tsconfig.json'),
    join(packageDir, '..', 'protocol', 'dist'),
  ],
  buildInto,
});
