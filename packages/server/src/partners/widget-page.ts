import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

import type { FastifyReply } from 'fastify';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { route, type Area } from '../http/route.js';
import type { WidgetSessionService } from './widget-sessions.js';

export interface WidgetPageOptions {
  widgetSessions: WidgetSessionService;
  clock: Clock;
  /** The widget app's build: `index.html` and `assets/` (packages/widget/dist). */
  appDir: string;
}

const message = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>${body}</p></main></body>
</html>
`;

/**
 * The app's CSP: its own scripts, styles and API (the realtime WebSocket included: 'self' covers
 * ws/wss to the same host), plus `blob:` scripts for the microphone's AudioWorklet module.
 */
const appPolicy = (origins: readonly string[]) =>
  [
    "default-src 'self'",
    "script-src 'self' blob:",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${origins.join(' ')}`,
  ].join('; ');

/** Vite's content-hashed file names: nothing else, so no path can leave the assets folder. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css|map|svg|woff2)$/;
const ASSET_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/**
 * What the page tells the app before any request: the service's clock (token expiries are the
 * service's times) and the origins allowed to frame it (so a widget whose token has expired can
 * still tell its EMR). JSON in a data block, with `<` escaped so it cannot close the element.
 */
function bootScript(serverNow: number, frameOrigins: readonly string[]): string {
  const json = JSON.stringify({ serverNow, frameOrigins }).replaceAll('<', '\\u003c');
  return `<script id="chartwright-boot" type="application/json">${json}</script>`;
}

async function readIndex(appDir: string): Promise<string | null> {
  try {
    return await readFile(join(appDir, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * The widget page and its assets. Only the partner's allowed origins may frame the page (CSP
 * frame-ancestors, derived from the token's partner). An expired token still yields its partner's
 * origins, so the app can load inside the EMR and report TOKEN_EXPIRED; a forged or malformed token
 * gets a page no one may frame. The token travels in the URL, so the page never sends a Referer and
 * is never cached. Assets have content-hashed names and are cached for a year.
 */
export function widgetPageRoutes(open: Area<'none', null>, options: WidgetPageOptions): void {
  const { widgetSessions, clock, appDir } = options;

  route(open, 'widgetPage', async ({ query, request, reply }) => {
    reply
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8');
    const token = typeof query['token'] === 'string' ? query['token'] : '';
    const origins = token === '' ? null : await widgetSessions.framingOrigins(token);
    if (origins === null || origins.length === 0) {
      return reply
        .code(401)
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
        .send(message('Chartwright', 'This widget link is not valid. Reopen the scribe from your EMR.'));
    }
    const index = await readIndex(appDir);
    if (index === null) {
      request.log.error({ appDir }, 'the widget app is not built: no index.html');
      return unbuilt(reply, origins);
    }
    return reply
      .header('content-security-policy', appPolicy(origins))
      .send(index.replace('</head>', `${bootScript(clock.now(), origins)}</head>`));
  });

  route(open, 'widgetAsset', async ({ params, request, reply }) => {
    const { file } = params;
    const type = ASSET_TYPES[extname(file)];
    if (!ASSET_NAME.test(file) || type === undefined) throw assetNotFound(file);
    // The build keeps a gzip copy of each asset; the plain file serves clients that take no gzip.
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    const compressed = gzip ? await readAsset(appDir, `${file}.gz`) : null;
    const body = compressed ?? (await readAsset(appDir, file));
    if (body === null) throw assetNotFound(file);
    if (compressed !== null) reply.header('content-encoding', 'gzip');
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('vary', 'accept-encoding')
      .header('x-content-type-options', 'nosniff')
      .type(type)
      .send(body);
  });
}

const assetNotFound = (file: string) =>
  new AppError('route_not_found', `No widget asset is named ${JSON.stringify(file.slice(0, 100))}.`);

async function readAsset(appDir: string, file: string): Promise<Buffer | null> {
  try {
    return await readFile(join(appDir, 'assets', file));
  } catch {
    return null;
  }
}

/** The service runs without the app's build (a checkout where it was never built): say how to make one. */
function unbuilt(reply: FastifyReply, origins: readonly string[]): FastifyReply {
  return reply
    .code(503)
    .header('content-security-policy', `default-src 'none'; frame-ancestors ${origins.join(' ')}`)
    .send(
      message(
        'Chartwright scribe is not available',
        'The widget app has not been built on this server. An operator builds it with <code>npm run build -w @chartwright/widget</code> (<code>npm start</code> does it).',
      ),
    );
}
