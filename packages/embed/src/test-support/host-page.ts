import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { WidgetService } from '@chartwright/testing/widget-service.js';

/** The script-tag build, as an EMR page includes it. */
export const SCRIPT_BUNDLE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'chartwright-embed.min.js',
);

/**
 * An EMR page that loads the helper with a plain script tag and mounts the widget through the
 * global `Chartwright.mountWidget`, keeping what the callbacks hear in `window.heard`.
 */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>EMR page with the script-tag helper</title>
<div id="scribe" style="width: 420px; height: 720px"></div>
<script src="/chartwright-embed.min.js"></script>
<script>
  window.heard = [];
  const keep = (kind) => (value) => window.heard.push({ kind, value: JSON.parse(JSON.stringify(value)) });
  window.mountScribe = ({ widgetUrl, visit, patientContext }) => {
    window.scribe = Chartwright.mountWidget({
      container: document.getElementById('scribe'),
      widgetUrl,
      getToken: async () => (await fetch('/token?visit=' + encodeURIComponent(visit), { method: 'POST' })).text(),
      patientContext,
      onMessage: keep('message'),
      onNote: keep('note'),
      onSessionStarted: keep('session'),
      onError: (error) => keep('error')({ source: error.source, code: error.code, message: error.message }),
    });
  };
</script>
`;

export interface HostPage {
  /** `http://localhost:<port>`: the EMR page's origin (the partner's allowed origin). */
  origin: string;
  close(): Promise<void>;
}

/** Serves PAGE and the built bundle, and mints widget tokens for the partner (POST /token?visit=…). */
export async function startHostPage(service: WidgetService, port: number, partnerKey: string): Promise<HostPage> {
  const mint = async (visit: string) =>
    (
      await service.harness.mintWidgetToken(partnerKey, {
        userEmail: 'dr.rivera@clinic.example',
        emrUserId: 'emr-user-1',
        emrSessionId: visit,
      })
    ).token;
  const answer = async (method: string, url: URL): Promise<[number, string, string | Buffer]> => {
    if (url.pathname === '/') return [200, 'text/html; charset=utf-8', PAGE];
    if (url.pathname === '/chartwright-embed.min.js') return [200, 'text/javascript', readFileSync(SCRIPT_BUNDLE)];
    if (url.pathname === '/token' && method === 'POST') {
      return [200, 'text/plain', await mint(url.searchParams.get('visit') ?? 'visit')];
    }
    return [404, 'text/plain', 'not found'];
  };
  const server = createServer((request, response) => {
    void answer(request.method ?? 'GET', new URL(request.url ?? '/', 'http://localhost'))
      .catch((error: unknown): [number, string, string] => [500, 'text/plain', String(error)])
      .then(([status, type, body]) => {
        response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
        response.end(body);
      });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
