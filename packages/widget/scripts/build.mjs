// Builds the widget app with Vite into dist/: index.html (the server fills in the boot data and
// serves it at /widget) and content-hashed assets under dist/assets (served at /widget/assets/),
// each beside a gzip copy the server sends to browsers that accept it.
// `--if-stale` skips the build when dist is newer than every input (scripts/setup.mjs uses it).
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(packageDir, 'dist');
const stamp = join(dist, '.built');

/** Inputs whose change calls for a rebuild: the app (not its tests), this script, and the packages it bundles. */
function newestInputMs() {
  const roots = [
    join(packageDir, 'src'),
    join(packageDir, 'index.html'),
    join(packageDir, 'scripts'),
    join(packageDir, 'package.json'),
    join(packageDir, 'tsconfig.json'),
    join(packageDir, '..', 'protocol', 'dist'),
    join(packageDir, '..', 'client', 'dist', 'browser'),
  ];
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path) || /\.test\.ts$|[\\/]test-support$/.test(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stats.mtimeMs);
  };
  for (const path of roots) visit(path);
  return newest;
}

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
  writeFileSync(join(out, '.built'), '');
}

export async function buildWidget({ ifStale = false } = {}) {
  if (ifStale && existsSync(stamp) && statSync(stamp).mtimeMs >= newestInputMs()) return false;
  // Built aside and swapped in, so a server reading dist meanwhile never sees half a build.
  const out = join(packageDir, 'node_modules', '.cache', `dist-${process.pid}`);
  try {
    await buildInto(out);
    rmSync(dist, { recursive: true, force: true });
    renameSync(out, dist);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildWidget({ ifStale: process.argv.includes('--if-stale') }).catch((error) => {
    process.stderr.write(`@chartwright/widget build failed: ${error.message}\n`);
    process.exit(1);
  });
  if (built) process.stdout.write('@chartwright/widget built\n');
}
