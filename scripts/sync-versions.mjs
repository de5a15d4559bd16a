// After `changeset version` has bumped package.json versions: the version constants the packages
// report at run time (the client's x-chartwright-client header, the service's OpenAPI document and
// start line, the widget's WIDGET_READY message) are set to their package's new version. Tests keep them equal.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONSTANTS = [
  ['client', 'src/core/version.ts', 'CLIENT_VERSION'],
  ['server', 'src/version.ts', 'SERVICE_VERSION'],
  ['widget', 'src/version.ts', 'WIDGET_VERSION'],
];

for (const [name, file, constant] of CONSTANTS) {
  const packageDir = join(root, 'packages', name);
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const path = join(packageDir, file);
  const source = readFileSync(path, 'utf8');
  const updated = source.replace(new RegExp(`(export const ${constant} = )'[^']*'`), `$1'${version}'`);
  if (!updated.includes(`${constant} = '${version}'`)) throw new Error(`${path}: no ${constant} constant to set`);
  if (updated !== source) writeFileSync(path, updated);
}
