// Builds the widget app with Vite into dist/: index.html (the server fills in the boot data and
// serves it at /widget) and content-hashed assets under dist/assets (served at /widget/assets/),
// each beside a gzip copy the server sends to browsers that accept it.
// `--if-stale` skips the build when dist is newer than every input (scripts/setup.mjs uses it).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

import { runBuildScript } from '../../../scripts/staged-build.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Inputs whose change calls for a rebuild: the app (not its tests), this script, and the packages it bundles. */

async function buildInto(out) {
  // Imported here so `--if-stale` with nothing to do never loads Vite.
  const { build } = await import('vite');
  await build({
    root: packageDir,
    base: '/widget/',
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
  // Compressed once here, at the highest level, rather than on every request.
  for (const name of readdirSync(join(out, 'assets'))) {
    const file = join(out, 'assets', name);
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION }));
  }
}

await runBuildScript(import.meta.url, '@chartwright/widget', {
  dir: packageDir,
  inputs: [
    join(packageDir, 'src'),
    join(packageDir, 'index.html'),
    join(packageDir, 'scripts'),
    join(packageDir, 'package.json'),
    join(packageDir, 'tsconfig.json'),
    join(packageDir, '..', 'protocol', 'dist'),
    join(packageDir, '..', 'client', 'dist', 'browser'),
  ],
  buildInto,
});
