// Builds the demo EMR: the page's script (src/browser → dist/public/chart.js, with the embed helper
// from @chartwright/embed's build), its HTML and CSS, and the server (src/server → dist/server.js,
// dist/main.js). `--if-stale` skips the build when dist is newer than every input.
import { cpSync, existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(demoDir, 'dist');
const stamp = join(dist, '.built');

function newestInputMs() {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path) || /\.test\.ts$|[\\/]test-support$/.test(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stats.mtimeMs);
  };
  for (const path of ['src', 'scripts', 'package.json', join('..', '..', 'packages', 'embed', 'dist')]) {
    visit(join(demoDir, path));
  }
  return newest;
}

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
  writeFileSync(join(out, '.built'), '');
}

export async function buildEmrDemo({ ifStale = false } = {}) {
  if (ifStale && existsSync(stamp) && statSync(stamp).mtimeMs >= newestInputMs()) return false;
  const out = join(demoDir, 'node_modules', '.cache', `dist-${process.pid}`);
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
  const built = await buildEmrDemo({ ifStale: process.argv.includes('--if-stale') }).catch((error) => {
    process.stderr.write(`@chartwright/emr-demo build failed: ${error.message.split('\n')[0]}\n`);
    process.exit(1);
  });
  if (built) process.stdout.write('@chartwright/emr-demo built\n');
}
