import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';

import { Chartwright } from '../client.js';

/** Built by `npm test` (scripts/setup.mjs) before the tests run. */
const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'browser', 'chartwright.min.js');

/** The browser bundle's exports, as the test pages expose them on `window.chartwright`. */
export type ChartwrightModule = typeof import('../index.js');

/** A page that loads the browser bundle and exposes it as `window.chartwright`. */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Chartwright browser test</title>
<script type="module">
  import * as chartwright from '/chartwright.min.js';
  window.chartwright = chartwright;
</script>
`;

/** For tests that need the page on the service's own origin: serves it at `/browser-test` and the bundle beside it. */
export function servePageFrom(app: FastifyInstance): void {
  app.get('/browser-test', (_request, reply) => reply.type('text/html').send(PAGE));
  app.get('/chartwright.min.js', (_request, reply) => reply.type('text/javascript').send(readFileSync(BUNDLE)));
}

export interface AppBackendOptions {
  /** The Chartwright service's address, for the backend's Node client. */
  chartwrightUrl: string;
  /** The backend's permanent key (read per token): it mints tokens with it and never sends it to the page. */
  apiKey: string | (() => string);
  /** Lifetime of the tokens it mints. Default 3600. */
  tokenSeconds?: number;
  /** Extra files, by path (`/speech.raw`). */
  files?: Record<string, { body: Uint8Array; type: string }>;
}

export interface AppBackend {
  /** `http://127.0.0.1:<port>`: `/` is the page, `/no-microphone` the same page where the microphone is forbidden. */
  url: string;
  /** Tokens minted through `POST /token` so far. */
  readonly minted: number;
  /** Every body the backend sent to the page. */
  readonly sent: string[];
  close(): Promise<void>;
}

/**
 * An application's own backend, as the README tells developers to write it: it serves the page
 * and the browser bundle, and mints temporary realtime tokens for it with the Node client and a
 * permanent key (`POST /token` → `{ token, expiresAt }`).
 */
export async function startAppBackend(options: AppBackendOptions): Promise<AppBackend> {
  const { apiKey } = options;
  const chartwright = new Chartwright({
    apiKey: typeof apiKey === 'string' ? apiKey : () => apiKey(),
    baseUrl: options.chartwrightUrl,
  });
  const sent: string[] = [];
  let minted = 0;
  type Reply = [status: number, type: string, body: string | Uint8Array, headers?: Record<string, string>];
  const route = async (method: string | undefined, path: string): Promise<Reply> => {
    if (method === 'GET' && path === '/') return [200, 'text/html', PAGE];
    if (method === 'GET' && path === '/no-microphone') {
      return [200, 'text/html', PAGE, { 'permissions-policy': 'microphone=()' }];
    }
    if (method === 'GET' && path === '/chartwright.min.js') return [200, 'text/javascript', readFileSync(BUNDLE)];
    if (method === 'POST' && path === '/token') {
      const { token, expiresAt } = await chartwright.realtime.tokens.create({
        expiresInSeconds: options.tokenSeconds ?? 3600,
      });
      minted++;
      return [200, 'application/json', JSON.stringify({ token, expiresAt })];
    }
    const file = options.files?.[path];
    if (method === 'GET' && file !== undefined) return [200, file.type, file.body];
    return [404, 'text/plain', 'not found'];
  };
  const reply = (response: ServerResponse, [status, type, body, headers = {}]: Reply) => {
    sent.push(typeof body === 'string' ? body : Buffer.from(body).toString('latin1'));
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    response.end(body);
  };
  const server = createServer((request, response) => {
    route(request.method, new URL(request.url ?? '/', 'http://localhost').pathname).then(
      (answer) => reply(response, answer),
      (error: unknown) => reply(response, [500, 'text/plain', String(error)]),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get minted() {
      return minted;
    },
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Opens the backend's page in a fresh context; resolves once the bundle is loaded. */
export async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => 'chartwright' in window);
  return page;
}
