// Prints what a browser downloads for the widget: each file of the build as served (minified) and
// gzip-compressed (Node's zlib at its default level, as most servers and CDNs use), and the total.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const files = [
  'index.html',
  ...readdirSync(join(dist, 'assets'))
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => join('assets', name)),
];
let raw = 0;
let gzip = 0;
for (const file of files) {
  const bytes = readFileSync(join(dist, file));
  const compressed = gzipSync(bytes).length;
  raw += bytes.length;
  gzip += compressed;
  process.stdout.write(`${file}: ${kib(bytes.length)}, ${kib(compressed)} gzip\n`);
}
process.stdout.write(`total: ${kib(raw)}, ${kib(gzip)} gzip\n`);
