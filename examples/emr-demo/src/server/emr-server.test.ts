import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { PushDocumentMessage, PushNoteMessage } from '@chartwright/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import type { FiledNote, Visit } from './chart-store.js';
import { startEmrDemo, type EmrDemo } from './emr-server.js';
import { PATIENTS } from './patients.js';

const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

/** A JWT's claims, read without verifying it: the service verifies, the test only looks. */
const claimsOf = (token: string): unknown => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());

const NOTE: PushNoteMessage = {
  type: 'PUSH_NOTE',
  note: 'HISTORY OF PRESENT ILLNESS\n\nCough for a week.',
  sections: { hpi: 'Cough for a week.', exam: '', impression: '', plan: '' },
  transcript: 'Patient: I have had a cough for a week.',
  sessionId: 'ses_1',
  patientId: 'MRN-1002',
};

/** The demo EMR's server against the real service, without a browser: its partner backend and chart API. */
describe('the demo EMR server', () => {
  let h: Harness;
  let serviceUrl: string;
  let demo: EmrDemo;

  beforeAll(async () => {
    h = await createHarness();
    serviceUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { partnerKey } = await h.createPartner({ origins: ['http://localhost:8081'] });
    demo = await startEmrDemo({
      chartwrightUrl: serviceUrl,
      widgetUrl: `${serviceUrl}/widget`,
      partnerKey,
      publicDir: PUBLIC_DIR,
    });
  });
  afterAll(async () => {
    await demo.close();
    await h.close();
  });

  async function call(method: string, path: string, body?: unknown, type = 'application/json') {
    const response = await fetch(`${demo.url}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.startsWith('application/json') === true;
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: (isJson ? JSON.parse(text) : null) as unknown,
    };
  }

  it('lists its synthetic patients, one with sections of its own and one the widget refuses', async () => {
    const json = (await call('GET', '/api/patients')).json as { patients: typeof PATIENTS };
    expect(json.patients.map(({ patient }) => patient.id)).toEqual([
      'MRN-1001',
      'MRN-1002',
      'MRN-1003',
      'MRN-1004',
      'MRN-1099',
    ]);
    expect(json.patients[1]?.noteConfig?.sections.map((section) => section.key)).toEqual([
      'hpi',
      'exam',
      'impression',
      'plan',
    ]);
  });

  it('mints a widget token for the open chart’s visit; the partner key never leaves the server', async () => {
    const { status, text, json: body } = await call('POST', '/api/widget-token', { patientId: 'MRN-1001' });
    const json = body as { token: string; expiresAt: string };
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(['expiresAt', 'token']);
    expect(text).not.toMatch(/ptn_/);
    const visit = demo.store.currentVisit('MRN-1001');
    expect(claimsOf(json.token)).toMatchObject({
      emrUserId: 'clin-0001',
      emrSessionId: visit.emrSessionId,
      iss: 'http://widget.test',
    });
    expect(demo.tokensMinted).toBe(1);

    // A new visit is a new emrSessionId, so the widget opens a new encounter.
    const started = await call('POST', '/api/patients/MRN-1001/visits', {});
    expect(started.status).toBe(201);
    const { emrSessionId } = started.json as Visit;
    expect(emrSessionId).not.toBe(visit.emrSessionId);
    const next = (await call('POST', '/api/widget-token', { patientId: 'MRN-1001' })).json as { token: string };
    expect(claimsOf(next.token)).toMatchObject({ emrSessionId });
  });

  it('refuses a token for a patient it does not have, and a body it cannot read', async () => {
    expect(await call('POST', '/api/widget-token', { patientId: 'MRN-0000' })).toMatchObject({
      status: 404,
      json: { error: { code: 'patient_not_found' } },
    });
    expect(await call('POST', '/api/widget-token', '{"patientId":', 'application/json')).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid_json' } },
    });
    expect(await call('POST', '/api/widget-token', 'patientId=MRN-1001', 'text/plain')).toMatchObject({
      status: 415,
      json: { error: { code: 'unsupported_media_type' } },
    });
  });

  it('files a PUSH_NOTE under its chart, newest first, checked with the protocol’s validator', async () => {
    const filed = await call('POST', '/api/patients/MRN-1002/notes', NOTE);
    expect(filed.status).toBe(201);
    expect(filed.json).toMatchObject({ sessionId: 'ses_1', sections: NOTE.sections, transcript: NOTE.transcript });
    const edited = { ...NOTE, sections: { ...NOTE.sections, plan: 'Inhaler.' } };
    await call('POST', '/api/patients/MRN-1002/notes', edited);
    const { chart } = (await call('GET', '/api/patients/MRN-1002')).json as { chart: { notes: FiledNote[] } };
    expect(chart.notes.map((note) => note.sections?.['plan'])).toEqual(['Inhaler.', '']);

    expect(await call('POST', '/api/patients/MRN-1002/notes', { ...NOTE, patientId: 'MRN-1001' })).toMatchObject({
      status: 409,
      json: { error: { code: 'patient_mismatch' } },
    });
    expect(await call('POST', '/api/patients/MRN-1002/notes', { ...NOTE, note: 7, sessionId: '' })).toMatchObject({
      status: 400,
      json: {
        error: { code: 'invalid_body', message: 'note: must be a string, not a number; sessionId: must not be empty' },
      },
    });
    expect((await call('POST', '/api/patients/MRN-1002/notes', { ...NOTE, type: 'PUSH_DOCUMENT' })).status).toBe(400);
  });

  it('records SESSION_STARTED against the current visit', async () => {
    const visit = demo.store.startVisit('MRN-1003');
    for (let launch = 0; launch < 2; launch++) {
      await call('POST', '/api/patients/MRN-1003/sessions', { type: 'SESSION_STARTED', sessionId: 'ses_9' });
    }
    expect(demo.store.currentVisit('MRN-1003')).toMatchObject({
      emrSessionId: visit.emrSessionId,
      sessionIds: ['ses_9', 'ses_9'],
    });
  });

  it('follows PDF links only to the widget’s origin, and keeps only what is a PDF', async () => {
    const document: PushDocumentMessage = {
      type: 'PUSH_DOCUMENT',
      title: 'Patient letter',
      content: 'Dear Mr Lee',
      documentType: 'pdf',
      pdfUrl: 'https://attacker.example/steal',
      sessionId: 'ses_2',
      patientId: 'MRN-1004',
    };
    const foreign = await call('POST', '/api/patients/MRN-1004/documents', document);
    expect(foreign.status).toBe(201);
    expect(foreign.json).toMatchObject({
      pdfPath: null,
      pdfProblem: expect.stringContaining('not on the widget') as unknown,
    });

    const notPdf = await call('POST', '/api/patients/MRN-1004/documents', {
      ...document,
      pdfUrl: `${serviceUrl}/healthz`,
    });
    expect(notPdf.json).toMatchObject({ pdfPath: null, pdfProblem: 'The link did not give a PDF.' });

    const letter = await call('POST', '/api/patients/MRN-1004/documents', {
      ...document,
      documentType: 'letter',
      pdfUrl: undefined,
    });
    expect(letter.json).toMatchObject({ documentType: 'letter', pdfUrl: null, pdfPath: null, pdfProblem: null });
    expect((await call('GET', '/api/documents/doc-unknown.pdf')).status).toBe(404);
  });

  it('says when the service cannot mint, without crashing', async () => {
    const unreachable = await startEmrDemo({
      chartwrightUrl: 'http://127.0.0.1:9',
      widgetUrl: 'http://127.0.0.1:9/widget',
      partnerKey: 'ptn_x.y',
      publicDir: PUBLIC_DIR,
    });
    const wrongKey = await startEmrDemo({
      chartwrightUrl: serviceUrl,
      widgetUrl: `${serviceUrl}/widget`,
      partnerKey: 'ptn_unknown.secret',
      publicDir: PUBLIC_DIR,
    });
    try {
      const down = await fetch(`${unreachable.url}/api/widget-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ patientId: 'MRN-1001' }),
      });
      expect(down.status).toBe(502);
      expect(await down.json()).toMatchObject({ error: { code: 'widget_token_failed' } });
      const refused = await fetch(`${wrongKey.url}/api/widget-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ patientId: 'MRN-1001' }),
      });
      expect(await refused.json()).toEqual({
        error: {
          code: 'widget_token_failed',
          message: 'Chartwright refused the widget token: 401 invalid_partner_key',
        },
      });
    } finally {
      await unreachable.close();
      await wrongKey.close();
    }
  });

  it('serves its page with a policy that frames only the widget, and only its own built assets', async () => {
    const page = await call('GET', '/patients/MRN-1001');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(new RegExp(`frame-src ${serviceUrl}[;]`));
    expect(page.text).toContain('<script type="module" src="/assets/chart.js">');
    expect((await call('GET', '/assets/..%2Fserver%2Fpatients.ts')).status).toBe(404);
    expect((await call('GET', '/assets/index.html')).status).toBe(404);
    expect((await call('GET', '/api/nothing')).status).toBe(404);
  });
});
