// Prints the size of the browser bundle as a page downloads it: minified, then gzip-compressed
// (Node's zlib at its default level, as most servers and CDNs use). `--update-readme` also writes
// the figures into README.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const minified = readFileSync(join(packageDir, 'dist', 'browser', 'chartwright.min.js'));
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const figures = `${kib(minified.length)} minified, ${kib(gzipSync(minified).length)} gzip`;
process.stdout.write(`dist/browser/chartwright.min.js: ${figures}\n`);

if (process.argv.includes('--update-readme')) {
  const readmePath = join(packageDir, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const pattern = /\*\*[\d.]+ KiB minified, [\d.]+ KiB gzip\*\*/;
  if (!pattern.test(readme)) throw new Error('README.md has no "**… KiB minified, … KiB gzip**" figure to update');
  writeFileSync(readmePath, readme.replace(pattern, `**${figures}**`));
}
