import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

import type { FastifyReply, FastifyRequest } from 'fastify';

import { AppError } from '../errors.js';

/**
 * A Vite app's build served from its folder (`index.html`, content-hashed `assets/` each beside a
 * gzip copy), for the widget and the console alike: the page's text with the headers and the
 * missing-build answer both pages share (each adds its own CSP), and the assets with their types,
 * compressed when the browser takes gzip, cached for a year (a new build gives new names).
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

/**
 * The headers of an app's page, whatever it answers: HTML never cached and sending no Referer (each
 * app's routes say why), and never sniffed as anything else.
 */
export function appPageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .type('text/html; charset=utf-8');
}

/** A page of its own for when the app cannot be shown: a title and one paragraph (trusted HTML). */
export const messagePage = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>${body}</p></main></body>
</html>
`;

/**
 * The 503 for a service running without the app's build (a checkout where it was never built):
 * logged, and a page saying how to make one, framed only where the app itself may be.
 */
export function sendUnbuiltApp(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { appDir: string; app: string; title: string; frameAncestors: string },
): FastifyReply {
  const { appDir, app, title, frameAncestors } = options;
  request.log.error({ appDir }, `the ${app} app is not built: no index.html`);
  return reply
    .code(503)
    .header('content-security-policy', `default-src 'none'; frame-ancestors ${frameAncestors}`)
    .send(
      messagePage(
        `${title} is not available`,
        `The ${app} app has not been built on this server. An operator builds it with <code>npm run build -w @chartwright/${app}</code> (<code>npm start</code> does it).`,
      ),
    );
}
