// What the two Preact apps' build scripts share (the widget at /widget, the console at /console):
// Vite into dist/ — index.html and content-hashed assets under dist/assets, each beside a gzip copy
// the server sends to browsers that accept it — staged by staged-build.mjs.
// `--if-stale` skips the build when dist is newer than every input (scripts/setup.mjs uses it).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

import { runBuildScript } from './staged-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The bundled modules whose path matches `forbidden` and of which some code is left after tree shaking. */
function forbiddenModules(bundles, forbidden) {
  return bundles
    .flatMap((bundle) => bundle.output)
    .filter((chunk) => chunk.type === 'chunk')
    .flatMap((chunk) => Object.entries(chunk.modules))
    .filter(([id, module]) => module.renderedLength > 0 && forbidden.test(id))
    .map(([id]) => id);
}

async function buildInto(packageDir, { base, forbidden }, out) {
  // Imported here so `--if-stale` with nothing to do never loads Vite.
  const { build } = await import('vite');
  // Always the production build: a run under a test runner (NODE_ENV=test) would otherwise leave
  // Preact's development build in dist, which `npm start` then serves.
  process.env.NODE_ENV = 'production';
  const result = await build({
    root: packageDir,
    base,
    mode: 'production',
    configFile: false,
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir: out,
      emptyOutDir: true,
      assetsDir: 'assets',
      target: 'es2022',
      // The pages' CSP allows no inline script or style: everything goes in files.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
    },
  });
  if (forbidden !== undefined) {
    const found = forbiddenModules([result].flat(), forbidden);
    if (found.length > 0) throw new Error(`the bundle must not contain ${found.join(', ')}`);
  }
  // Compressed once here, at the highest level, rather than on every request.
  for (const name of readdirSync(join(out, 'assets'))) {
    const file = join(out, 'assets', name);
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION }));
  }
}

/**
 * Builds the app whose build script is `scriptUrl` (in `<package>/scripts/`), when Node was started
 * with that script. `base`: the path the server serves it at. `bundles`: the other packages' build
 * outputs it bundles (relative to packages/), whose change calls for a rebuild. `forbidden`: module
 * paths that must not reach the bundle.
 */
export async function buildViteApp(scriptUrl, { name, base, bundles, forbidden }) {
  const packageDir = join(dirname(fileURLToPath(scriptUrl)), '..');
  await runBuildScript(scriptUrl, name, {
    dir: packageDir,
    // The app (not its tests), its build script and this one, the shared stylesheet, and what it bundles.
    inputs: [
      join(packageDir, 'src'),
      join(packageDir, 'index.html'),
      join(packageDir, 'scripts'),
      join(packageDir, 'package.json'),
      join(packageDir, 'tsconfig.json'),
      fileURLToPath(import.meta.url),
      join(root, 'design'),
      ...bundles.map((bundle) => join(root, 'packages', bundle)),
    ],
    buildInto: (out) => buildInto(packageDir, { base, forbidden }, out),
  });
}
