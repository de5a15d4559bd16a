import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { extname, join } from 'node:path';

import type { ChartStore } from './chart-store.js';
import { ASSET_TYPES, HttpError, json, readJson, widgetMessage, type Reply } from './http-replies.js';
import { findPatient, PATIENTS } from './patients.js';
import { downloadPdf } from './pdf-copy.js';
import type { Clinician, WidgetTokenMinter } from './widget-tokens.js';

export interface EmrRouteDependencies {
  clinician: Clinician;
  widgetUrl: string;
  publicDir: string;
  minter: WidgetTokenMinter;
  store: ChartStore;
  /** Counts a widget token minted for a page. */
  minted(): void;
}

type Handler = (request: IncomingMessage, match: RegExpExecArray) => Promise<Reply> | Reply;

/** The demo EMR's routes: the page and its assets, the charts, and what the page relays from the widget. */
export class EmrRoutes {
  private readonly widgetOrigin: string;
  private readonly routes: [method: string, path: RegExp, handler: Handler][];

  constructor(private readonly deps: EmrRouteDependencies) {
    this.widgetOrigin = new URL(deps.widgetUrl).origin;
    const { clinician, widgetUrl, store } = deps;
    this.routes = [
      ['GET', /^\/(?:patients\/[^/]+)?$/, () => this.page()],
      ['GET', /^\/assets\/([^/]+)$/, (_request, match) => this.asset(match[1] ?? '')],
      ['GET', /^\/api\/session$/, () => json(200, { clinician: { name: clinician.name }, widgetUrl })],
      ['GET', /^\/api\/patients$/, () => json(200, { patients: PATIENTS })],
      ['GET', /^\/api\/patients\/([^/]+)$/, (_request, match) => this.chart(match[1] ?? '')],
      ['POST', /^\/api\/widget-token$/, (request) => this.widgetToken(request)],
      ['POST', /^\/api\/patients\/([^/]+)\/visits$/, (_r, m) => json(201, store.startVisit(this.patient(m).id))],
      ['POST', /^\/api\/patients\/([^/]+)\/sessions$/, (request, match) => this.session(request, match)],
      ['POST', /^\/api\/patients\/([^/]+)\/notes$/, (request, match) => this.note(request, match)],
      ['POST', /^\/api\/patients\/([^/]+)\/documents$/, (request, match) => this.document(request, match)],
      ['GET', /^\/api\/documents\/([\w-]+)\.pdf$/, (_request, match) => this.pdf(match[1] ?? '')],
    ];
  }

  async route(request: IncomingMessage): Promise<Reply> {
    const { pathname } = new URL(request.url ?? '/', 'http://demo.invalid');
    const method = request.method ?? 'GET';
    for (const [routeMethod, path, handler] of this.routes) {
      const match = method === routeMethod ? path.exec(pathname) : null;
      if (match !== null) return handler(request, match);
    }
    throw new HttpError(404, 'not_found', `${method} ${pathname} is not a route of the demo EMR.`);
  }

  private async page(): Promise<Reply> {
    return {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        // The page may frame the widget's origin and nothing else, and talks only to its own server.
        'content-security-policy': `default-src 'self'; frame-src ${this.widgetOrigin}; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
      },
      body: await readFile(join(this.deps.publicDir, 'index.html')),
    };
  }

  private async asset(name: string): Promise<Reply> {
    const type = ASSET_TYPES[extname(name)];
    if (type === undefined || !/^[\w.-]+$/.test(name)) throw new HttpError(404, 'not_found', 'No such asset.');
    const body = await readFile(join(this.deps.publicDir, name)).catch(() => {
      throw new HttpError(404, 'not_found', `${name} is not built; run npm run build -w @chartwright/emr-demo.`);
    });
    return {
      status: 200,
      headers: { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
      body,
    };
  }

  private patientChart(id: string) {
    const chart = findPatient(decodeURIComponent(id));
    if (chart === undefined) throw new HttpError(404, 'patient_not_found', 'No patient has this id.');
    return chart;
  }

  /** The patient named by the path's first group. */
  private patient(match: RegExpExecArray) {
    return this.patientChart(match[1] ?? '').patient;
  }

  private chart(id: string): Reply {
    const chart = this.patientChart(id);
    return json(200, { ...chart, chart: this.deps.store.chart(chart.patient.id) });
  }

  private async widgetToken(request: IncomingMessage): Promise<Reply> {
    const body = (await readJson(request)) as { patientId?: unknown };
    const chart = this.patientChart(typeof body.patientId === 'string' ? body.patientId : '');
    // The visit, hence the emrSessionId, comes from the EMR's records, never from the browser.
    const visit = this.deps.store.currentVisit(chart.patient.id);
    const minted = await this.deps.minter.mint(this.deps.clinician, visit.emrSessionId);
    this.deps.minted();
    return json(200, minted);
  }

  private async session(request: IncomingMessage, match: RegExpExecArray): Promise<Reply> {
    const patient = this.patient(match);
    const message = widgetMessage(await readJson(request), 'SESSION_STARTED', patient.id);
    return json(200, this.deps.store.recordSession(patient.id, message.sessionId));
  }

  private async note(request: IncomingMessage, match: RegExpExecArray): Promise<Reply> {
    const patient = this.patient(match);
    const message = widgetMessage(await readJson(request), 'PUSH_NOTE', patient.id);
    return json(201, this.deps.store.fileNote(patient.id, message));
  }

  private async document(request: IncomingMessage, match: RegExpExecArray): Promise<Reply> {
    const patient = this.patient(match);
    const message = widgetMessage(await readJson(request), 'PUSH_DOCUMENT', patient.id);
    const pdf = message.pdfUrl === undefined ? null : await downloadPdf(message.pdfUrl, this.widgetOrigin);
    return json(201, this.deps.store.fileDocument(patient.id, message, pdf));
  }

  private pdf(id: string): Reply {
    const pdf = this.deps.store.pdf(id);
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
}
