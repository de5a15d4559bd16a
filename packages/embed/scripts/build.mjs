// Builds the package: an ES module (dist/index.js) with type declarations, and a minified
// script-tag bundle (dist/chartwright-embed.min.js) that defines `window.Chartwright.mountWidget`.
// Both must be free of zod and of any other runtime code from @chartwright/protocol: the helper
// takes only types from it. `--if-stale` skips the build when dist is newer than every input.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(packageDir, 'dist');
const stamp = join(dist, '.built');
const require = createRequire(import.meta.url);

function newestInputMs() {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path) || /\.test\.ts$|[\\/]test-support$/.test(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stats.mtimeMs);
  };
  for (const path of ['src', 'scripts', 'package.json', 'tsconfig.json']) visit(join(packageDir, path));
  return newest;
}

/** Fails the build when an output carries bytes of a module other than the helper's own sources. */
function assertOwnCodeOnly(metafile) {
  const foreign = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && !input.startsWith('src/'))
      .map(([input]) => input),
  );
  if (foreign.length > 0) throw new Error(`the embed bundles must hold only src/, not ${foreign.join(', ')}`);
}

async function buildInto(out) {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', out], {
    cwd: packageDir,
    stdio: 'inherit',
  });
  const common = {
    absWorkingDir: packageDir,
    entryPoints: ['src/index.ts'],
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  };
  const results = await Promise.all([
    build({ ...common, format: 'esm', sourcemap: true, outfile: join(out, 'index.js') }),
    build({
      ...common,
      format: 'iife',
      globalName: 'Chartwright',
      minify: true,
      sourcemap: true,
      outfile: join(out, 'chartwright-embed.min.js'),
    }),
  ]);
  for (const result of results) assertOwnCodeOnly(result.metafile);
  writeFileSync(join(out, '.built'), '');
}

export async function buildEmbed({ ifStale = false } = {}) {
  if (ifStale && existsSync(stamp) && statSync(stamp).mtimeMs >= newestInputMs()) return false;
  // Built aside and swapped in, so tests reading dist meanwhile never see half a build.
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
  const built = await buildEmbed({ ifStale: process.argv.includes('--if-stale') }).catch((error) => {
    process.stderr.write(`@chartwright/embed build failed: ${error.message.split('\n')[0]}\n`);
    process.exit(1);
  });
  if (built) process.stdout.write('@chartwright/embed built\n');
}
