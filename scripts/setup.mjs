// Brings a fresh clone to a runnable state: installs dependencies when they are missing or older
// than the lockfile, then builds (incrementally; a no-op when nothing changed). Plain Node, no
// dependencies, so it runs before `npm install` ever has.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
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

export function setup({ quiet = false } = {}) {
  if (needsInstall()) {
    if (!quiet) process.stderr.write('chartwright: installing dependencies (first run)…\n');
    run(npm, [existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install', '--no-audit', '--no-fund']);
  }
  run(process.execPath, [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-b',
    'packages/protocol',
    'packages/server',
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) setup();
