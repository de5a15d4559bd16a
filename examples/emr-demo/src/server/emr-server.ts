import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { ChartStore } from './chart-store.js';
import { EmrRoutes } from './emr-routes.js';
import { HttpError, json, type Reply } from './http-replies.js';
import { WidgetTokenError, WidgetTokenMinter, type Clinician } from './widget-tokens.js';

export interface EmrDemoOptions {
  /** The Chartwright service as this server reaches it, for the token endpoint. */
  chartwrightUrl: string;
  /** The widget page as browsers reach it, e.g. `http://localhost:8080/widget`. */
  widgetUrl: string;
  /** `X-Partner-Key` of the partner whose allowed origin is this demo's `publicUrl`. Never sent to a browser. */
  partnerKey: string;
  /** Address to bind. Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** The origin browsers use for this demo (the partner's allowed origin). Default `http://<host>:<port>`. */
  publicUrl?: string;
  clinician?: Clinician;
  /** The built page (index.html, chart.js, styles.css). Default: `public/` beside this module in dist. */
  publicDir?: string;
}

export interface EmrDemo {
  /** Where browsers open the demo. */
  url: string;
  store: ChartStore;
  /** Widget tokens minted so far. */
  readonly tokensMinted: number;
  close(): Promise<void>;
}

export const DEMO_CLINICIAN: Clinician = Object.freeze({
  name: 'Dr. Ana Rivera',
  email: 'ana.rivera@northwind-clinic.example',
  emrUserId: 'clin-0001',
});

/** The reply for a failed request: its own code when it is one of ours, else an opaque 500. */
function failure(error: unknown): Reply {
  if (error instanceof HttpError) return json(error.status, { error: { code: error.code, message: error.message } });
  if (error instanceof WidgetTokenError) {
    return json(502, { error: { code: 'widget_token_failed', message: error.message } });
  }
  process.stderr.write(`emr-demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return json(500, { error: { code: 'internal_error', message: 'The demo EMR failed; see its console.' } });
}

/**
 * The demo EMR: a chart app whose page embeds the Chartwright widget with @chartwright/embed, and
 * the partner backend it needs. Browsers never see the partner key: they ask `POST
 * /api/widget-token` for a token for the open chart's visit, and this server mints it.
 */
export async function startEmrDemo(options: EmrDemoOptions): Promise<EmrDemo> {
  const clinician = options.clinician ?? DEMO_CLINICIAN;
  const publicDir = options.publicDir ?? fileURLToPath(new URL('./public/', import.meta.url));
  const store = new ChartStore();
  let tokensMinted = 0;
  const routes = new EmrRoutes({
    clinician,
    widgetUrl: options.widgetUrl,
    publicDir,
    minter: new WidgetTokenMinter({ chartwrightUrl: options.chartwrightUrl, partnerKey: options.partnerKey }),
    store,
    minted: () => tokensMinted++,
  });

  const server = createServer((request, response) => {
    void routes
      .route(request)
      .catch(failure)
      .then(({ status, headers, body }) => {
        response.writeHead(status, headers);
        response.end(body);
      });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    store,
    get tokensMinted() {
      return tokensMinted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
