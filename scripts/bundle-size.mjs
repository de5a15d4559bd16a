// What a browser downloads for an app built by Vite: each file of its build (index.html and the
// scripts and styles under assets/) as served (minified) and gzip-compressed (Node's zlib at its
// default level, as most servers and CDNs use). `node scripts/bundle-size.mjs <dist>` prints it;
// the bench imports bundleSize(). Plain Node, no dependencies.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The build's files in `dist`, each with its size and its gzip size in bytes, and their totals. */
export function bundleSize(dist) {
  const names = [
    'index.html',
    ...readdirSync(join(dist, 'assets'))
      .filter((name) => /\.(js|css)$/.test(name))
      .sort()
      .map((name) => join('assets', name)),
  ];
  const files = names.map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
  });
  const sum = (key) => files.reduce((total, file) => total + file[key], 0);
  return { files, bytes: sum('bytes'), gzipBytes: sum('gzipBytes') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  const size = bundleSize(resolve(process.argv[2] ?? 'dist'));
  for (const { file, bytes, gzipBytes } of size.files)
    process.stdout.write(`${file}: ${kib(bytes)}, ${kib(gzipBytes)} gzip\n`);
  process.stdout.write(`total: ${kib(size.bytes)}, ${kib(size.gzipBytes)} gzip\n`);
}
