// What every package build script shares: skip when nothing changed (`--if-stale`), build into a
// scratch directory and swap it in as dist/, so tests and servers reading dist meanwhile never see
// half a build. Plain Node, no dependencies.
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const STAMP = '.built';

/** The newest modification time under `paths` (files or directories), tests and test support left out. */
function newestInputMs(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path) || /\.test\.ts$|[\\/]test-support$/.test(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stats.mtimeMs);
  };
  for (const path of paths) visit(path);
  return newest;
}

/**
 * Builds `dir`/dist with `buildInto(out)` unless `ifStale` and dist is newer than every input.
 * Resolves to whether it built.
 */
export async function stagedBuild({ dir, inputs, buildInto, ifStale = false }) {
  const dist = join(dir, 'dist');
  const stamp = join(dist, STAMP);
  if (ifStale && existsSync(stamp) && statSync(stamp).mtimeMs >= newestInputMs(inputs)) return false;
  const out = join(dir, 'node_modules', '.cache', `dist-${process.pid}`);
  try {
    await buildInto(out);
    writeFileSync(join(out, STAMP), '');
    rmSync(dist, { recursive: true, force: true });
    renameSync(out, dist);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return true;
}

/** Runs `stagedBuild` when the script at `scriptUrl` is the one Node was started with. */
export async function runBuildScript(scriptUrl, name, options) {
  if (process.argv[1] !== fileURLToPath(scriptUrl)) return;
  const built = await stagedBuild({ ...options, ifStale: process.argv.includes('--if-stale') }).catch((error) => {
    // The bundlers and tsc have already printed what went wrong.
    process.stderr.write(`${name} build failed: ${error.message.split('\n')[0]}\n`);
    process.exit(1);
  });
  if (built) process.stdout.write(`${name} built\n`);
}
