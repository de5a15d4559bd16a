import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { validateWidgetToEmrMessage, type WidgetToEmrMessage } from '@chartwright/protocol';

import { ChartStore } from './chart-store.js';
import { findPatient, PATIENTS } from './patients.js';
import { downloadPdf } from './pdf-copy.js';
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

const BODY_LIMIT_BYTES = 2 * 1024 * 1024;
const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw new HttpError(413, 'request_too_large', 'The body is larger than 2 MiB.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not JSON.');
  }
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

const json = (status: number, body: unknown): Reply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

/** A message the page relays from the widget, checked with the same validator the widget uses. */
function widgetMessage<T extends WidgetToEmrMessage['type']>(
  body: unknown,
  type: T,
  patientId: string,
): Extract<WidgetToEmrMessage, { type: T }> {
  const result = validateWidgetToEmrMessage(body);
  if (!result.ok) throw new HttpError(400, 'invalid_body', result.entries.join('; '));
  if (result.message.type !== type) throw new HttpError(400, 'invalid_body', `type: must be ${type}`);
  const message = result.message as Extract<WidgetToEmrMessage, { type: T }>;
  // Filed only under the chart it was made for: a widget still showing another patient is refused.
  if ('patientId' in message && message.patientId !== patientId) {
    throw new HttpError(409, 'patient_mismatch', `This ${type} is for patient ${message.patientId}, not ${patientId}.`);
  }
  return message;
}

/**
 * The demo EMR: a chart app whose page embeds the Chartwright widget with @chartwright/embed, and
 * the partner backend it needs. Browsers never see the partner key: they ask `POST
 * /api/widget-token` for a token for the open chart's visit, and this server mints it.
 */
export async function startEmrDemo(options: EmrDemoOptions): Promise<EmrDemo> {
  const clinician = options.clinician ?? DEMO_CLINICIAN;
  const publicDir = options.publicDir ?? fileURLToPath(new URL('./public/', import.meta.url));
  const widgetOrigin = new URL(options.widgetUrl).origin;
  const minter = new WidgetTokenMinter({ chartwrightUrl: options.chartwrightUrl, partnerKey: options.partnerKey });
  const store = new ChartStore();
  let tokensMinted = 0;

  const page = async (): Promise<Reply> => ({
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // The page may frame the widget's origin and nothing else, and talks only to its own server.
      'content-security-policy': `default-src 'self'; frame-src ${widgetOrigin}; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    },
    body: await readFile(join(publicDir, 'index.html')),
  });

  const asset = async (name: string): Promise<Reply> => {
    const type = ASSET_TYPES[extname(name)];
    if (type === undefined || !/^[\w.-]+$/.test(name)) throw new HttpError(404, 'not_found', 'No such asset.');
    const body = await readFile(join(publicDir, name)).catch(() => {
      throw new HttpError(404, 'not_found', `${name} is not built; run npm run build -w @chartwright/emr-demo.`);
    });
    return {
      status: 200,
      headers: { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
      body,
    };
  };

  const patientOf = (id: string) => {
    const chart = findPatient(decodeURIComponent(id));
    if (chart === undefined) throw new HttpError(404, 'patient_not_found', 'No patient has this id.');
    return chart;
  };

  const route = async (request: IncomingMessage): Promise<Reply> => {
    const { pathname } = new URL(request.url ?? '/', 'http://demo.invalid');
    const method = request.method ?? 'GET';
    let match: RegExpExecArray | null;

    if (method === 'GET' && (pathname === '/' || /^\/patients\/[^/]+$/.test(pathname))) return page();
    if (method === 'GET' && (match = /^\/assets\/([^/]+)$/.exec(pathname))) return asset(match[1] ?? '');
    if (method === 'GET' && pathname === '/api/session') {
      return json(200, { clinician: { name: clinician.name }, widgetUrl: options.widgetUrl });
    }
    if (method === 'GET' && pathname === '/api/patients') return json(200, { patients: PATIENTS });
    if (method === 'GET' && (match = /^\/api\/patients\/([^/]+)$/.exec(pathname))) {
      const chart = patientOf(match[1] ?? '');
      return json(200, { ...chart, chart: store.chart(chart.patient.id) });
    }
    if (method === 'POST' && pathname === '/api/widget-token') {
      const body = (await readJson(request)) as { patientId?: unknown };
      const chart = patientOf(typeof body.patientId === 'string' ? body.patientId : '');
      // The visit, hence the emrSessionId, comes from the EMR's records, never from the browser.
      const visit = store.currentVisit(chart.patient.id);
      const minted = await minter.mint(clinician, visit.emrSessionId);
      tokensMinted++;
      return json(200, minted);
    }
    if (method === 'POST' && (match = /^\/api\/patients\/([^/]+)\/visits$/.exec(pathname))) {
      return json(201, store.startVisit(patientOf(match[1] ?? '').patient.id));
    }
    if (method === 'POST' && (match = /^\/api\/patients\/([^/]+)\/sessions$/.exec(pathname))) {
      const { patient } = patientOf(match[1] ?? '');
      const message = widgetMessage(await readJson(request), 'SESSION_STARTED', patient.id);
      return json(200, store.recordSession(patient.id, message.sessionId));
    }
    if (method === 'POST' && (match = /^\/api\/patients\/([^/]+)\/notes$/.exec(pathname))) {
      const { patient } = patientOf(match[1] ?? '');
      const message = widgetMessage(await readJson(request), 'PUSH_NOTE', patient.id);
      return json(201, store.fileNote(patient.id, message));
    }
    if (method === 'POST' && (match = /^\/api\/patients\/([^/]+)\/documents$/.exec(pathname))) {
      const { patient } = patientOf(match[1] ?? '');
      const message = widgetMessage(await readJson(request), 'PUSH_DOCUMENT', patient.id);
      const pdf = message.pdfUrl === undefined ? null : await downloadPdf(message.pdfUrl, widgetOrigin);
      return json(201, store.fileDocument(patient.id, message, pdf));
    }
    if (method === 'GET' && (match = /^\/api\/documents\/([\w-]+)\.pdf$/.exec(pathname))) {
      const id = match[1] ?? '';
      const pdf = store.pdf(id);
      if (pdf === undefined) throw new HttpError(404, 'document_not_found', 'No saved PDF has this id.');
      return {
        status: 200,
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `inline; filename="${id}.pdf"`,
          'cache-control': 'no-store',
        },
        body: pdf,
      };
    }
    throw new HttpError(404, 'not_found', `${method} ${pathname} is not a route of the demo EMR.`);
  };

  const failure = (error: unknown): Reply => {
    if (error instanceof HttpError) return json(error.status, { error: { code: error.code, message: error.message } });
    if (error instanceof WidgetTokenError) {
      return json(502, { error: { code: 'widget_token_failed', message: error.message } });
    }
    process.stderr.write(`emr-demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return json(500, { error: { code: 'internal_error', message: 'The demo EMR failed; see its console.' } });
  };

  const server = createServer((request, response) => {
    void route(request)
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
