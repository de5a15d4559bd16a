// The offline speech recognizer comes from Debian's packages. `npm start` installs them when they
// are missing and it can (root, apt-get present); otherwise the service still starts and realtime
// sessions say how to install them. Plain Node, no dependencies.
import { execFileSync, spawnSync } from 'node:child_process';

export const RECOGNIZER_PACKAGES = ['libpocketsphinx3', 'pocketsphinx-en-us'];

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function installed(name) {
  return spawnSync('dpkg', ['-s', name], { stdio: 'ignore' }).status === 0;
}

export function ensureRecognizerPackages() {
  if (process.env.CHARTWRIGHT_SKIP_SYSTEM_PACKAGES === '1' || !has('dpkg')) return;
  const missing = RECOGNIZER_PACKAGES.filter((name) => !installed(name));
  if (missing.length === 0) return;
  const command = `apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    process.stderr.write(`chartwright: the speech recognizer is not installed; realtime needs: ${command}\n`);
    return;
  }
  process.stderr.write(`chartwright: installing the speech recognizer (${missing.join(', ')})…\n`);
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    try {
      // A fresh machine may have no package lists yet.
      execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
      execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      process.stderr.write(`chartwright: could not install the speech recognizer; realtime needs: ${command}\n`);
    }
  }
}
