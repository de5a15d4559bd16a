// Brings a fresh clone to a runnable state: installs dependencies when they are missing or older
// than the lockfile, then builds (incrementally; a no-op when nothing changed). Plain Node, no
// dependencies, so it runs before `npm install` ever has.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args) {
  execFileSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

function needsInstall() {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return true;
  const lock = join(root, 'package-lock.json');
  return existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs;
}

/**
 * Node 18 for the client's compatibility tests, installed apart from the workspace: the package's
 * `node` bin would otherwise shadow this machine's Node on every npm script's PATH. The binary
 * exists for Linux x64 only; elsewhere the Node 18 tests report it missing.
 */
function installNode18Runtime() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return;
  const directory = join(root, 'packages', 'client', 'compat', 'node18-runtime');
  const installed = join(directory, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(directory, 'package-lock.json')).mtimeMs) {
    return;
  }
  execFileSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: directory, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * Deletes compiled files whose source is gone (a module moved or removed), which an incremental
 * build leaves behind: the service's dist then holds only what its src/ holds.
 */
function pruneStaleOutputs(sourceDir, outputDir) {
  if (!existsSync(outputDir)) return;
  for (const entry of readdirSync(outputDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const output = join(entry.parentPath, entry.name);
    const module = output.slice(outputDir.length + 1).replace(/\.(js|d\.ts)(\.map)?$/, '');
    if (module === output.slice(outputDir.length + 1)) continue;
    if (!existsSync(join(sourceDir, `${module}.ts`))) rmSync(output);
  }
  // Folders emptied above, deepest first.
  const folders = readdirSync(outputDir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
}

/** `tools`: also the dev-time tools (bench, evaluations, model builders), which the service never needs. */
export function setup({ quiet = false, tools = false } = {}) {
  if (needsInstall()) {
    if (!quiet) process.stderr.write('chartwright: installing dependencies (first run)…\n');
    run(npm, [existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install', '--no-audit', '--no-fund']);
  }
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  run(process.execPath, [tsc, '-b', 'packages/protocol']);
  // The client's bundles, before the service: its CLI manages remote deployments with the client
  // (and the Node 18 and browser tests load them); skipped when dist is up to date.
  run(process.execPath, [join(root, 'packages', 'client', 'scripts', 'build.mjs'), '--if-stale']);
  run(process.execPath, [tsc, '-b', 'packages/server', ...(tools ? ['packages/server/tools'] : [])]);
  pruneStaleOutputs(join(root, 'packages', 'server', 'src'), join(root, 'packages', 'server', 'dist'));
  if (tools)
    pruneStaleOutputs(join(root, 'packages', 'server', 'tools'), join(root, 'packages', 'server', 'tools-dist'));
  installNode18Runtime();
  // The widget app the service serves at /widget (it bundles the client); skipped when up to date.
  run(process.execPath, [join(root, 'packages', 'widget', 'scripts', 'build.mjs'), '--if-stale']);
  // The console app the service serves at /console; skipped when up to date.
  run(process.execPath, [join(root, 'packages', 'console', 'scripts', 'build.mjs'), '--if-stale']);
  // The embed helper, then the demo EMR whose page bundles it; each skipped when up to date.
  run(process.execPath, [join(root, 'packages', 'embed', 'scripts', 'build.mjs'), '--if-stale']);
  run(process.execPath, [join(root, 'examples', 'emr-demo', 'scripts', 'build.mjs'), '--if-stale']);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) setup({ tools: process.argv.includes('--tools') });
