// Prints what a host page downloads for the helper: the script-tag bundle and the ES module, each
// minified and gzip-compressed (Node's zlib at its default level). `--update-readme` also writes
// the script-tag figures into README.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { transform } from 'esbuild';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const figures = (code) => `${kib(code.length)} minified, ${kib(gzipSync(code).length)} gzip`;

const script = readFileSync(join(packageDir, 'dist', 'chartwright-embed.min.js'));
// A bundler minifies the ES module as part of the host's own bundle; measured the same way here.
const module = Buffer.from(
  (await transform(readFileSync(join(packageDir, 'dist', 'index.js'), 'utf8'), { minify: true, format: 'esm' })).code,
);
const scriptFigures = figures(script);
process.stdout.write(`dist/chartwright-embed.min.js (script tag): ${scriptFigures}\n`);
process.stdout.write(`dist/index.js (ES module, once minified): ${figures(module)}\n`);

if (process.argv.includes('--update-readme')) {
  const readmePath = join(packageDir, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const pattern = /\*\*[\d.]+ KiB minified, [\d.]+ KiB gzip\*\*/;
  if (!pattern.test(readme)) throw new Error('README.md has no "**… KiB minified, … KiB gzip**" figure to update');
  writeFileSync(readmePath, readme.replace(pattern, `**${scriptFigures}**`));
}
