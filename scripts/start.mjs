// `npm start`: set up what a fresh clone lacks, then run the service in this process so signals
// (Ctrl-C, SIGTERM from a supervisor) reach its graceful shutdown directly.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { setup } from './setup.mjs';
import { ensureRecognizerPackages } from './system-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
setup();
ensureRecognizerPackages();
await import(pathToFileURL(join(root, 'packages', 'server', 'dist', 'main.js')).href);
