import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

import type { FastifyReply, FastifyRequest } from 'fastify';

import { AppError } from '../errors.js';

/**
 * A Vite app's build served from its folder (`index.html`, content-hashed `assets/` each beside a
 * gzip copy): the page's text, and the assets with their types, compressed when the browser takes
 * gzip, cached for a year (a new build gives new names).
 */

/** Vite's content-hashed file names: nothing else, so no path can leave the assets folder. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css|map|svg|woff2)$/;
const ASSET_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** The build's index.html, or null when the app was never built there. */
export async function readBuiltPage(appDir: string): Promise<string | null> {
  try {
    return await readFile(join(appDir, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}

async function readAsset(appDir: string, file: string): Promise<Buffer | null> {
  try {
    return await readFile(join(appDir, 'assets', file));
  } catch {
    return null;
  }
}

/** Sends the asset `file` of the build in `appDir`; `app` names the app in the 404 ("console"). */
export async function sendBuiltAsset(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { appDir: string; file: string; app: string },
): Promise<FastifyReply> {
  const { appDir, file, app } = options;
  const type = ASSET_TYPES[extname(file)];
  const notFound = () =>
    new AppError('route_not_found', `No ${app} asset is named ${JSON.stringify(file.slice(0, 100))}.`);
  if (!ASSET_NAME.test(file) || type === undefined) throw notFound();
  // The build keeps a gzip copy of each asset; the plain file serves clients that take no gzip.
  const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
  const compressed = gzip ? await readAsset(appDir, `${file}.gz`) : null;
  const body = compressed ?? (await readAsset(appDir, file));
  if (body === null) throw notFound();
  if (compressed !== null) reply.header('content-encoding', 'gzip');
  return reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'accept-encoding')
    .header('x-content-type-options', 'nosniff')
    .type(type)
    .send(body);
}

/** A page of its own for when the app cannot be shown: a title and one paragraph (trusted HTML). */
export const messagePage = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>${body}</p></main></body>
</html>
`;
