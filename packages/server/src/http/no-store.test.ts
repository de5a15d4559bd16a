import {
  isConsoleEndpoint,
  REST_ENDPOINTS,
  type Note,
  type WidgetDocument,
  type WidgetDocumentPdf,
  type WidgetNote,
} from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import {
  CHART,
  openWidget,
  storeRealtimeSession,
  VISIT,
  widgetCall,
  type OpenWidget,
} from '@chartwright/testing/widget-encounters.js';

/** Routes whose answers hold no patient data and no credential: public keys, the app, health, templates. */
const WITHOUT_PHI = new Set([
  'listTemplates',
  'widgetJwks',
  'widgetAsset',
  'openApiDocument',
  'liveness',
  'readiness',
  'realtimeReadiness',
]);

describe('Cache-Control: no-store on every response that carries patient data or a credential', () => {
  let h: Harness;
  let partner: { id: string; partnerKey: string };
  let widget: OpenWidget;
  beforeEach(async () => {
    h = await createHarness();
    partner = await h.createPartner();
    widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
  });
  afterEach(async () => {
    await h.close();
  });

  /** Calls every operation of the endpoint table with what makes it succeed; returns each answer. */
  async function walk(): Promise<Map<string, LightMyRequestResponse>> {
    const answers = new Map<string, LightMyRequestResponse>();
    const encounter = `/api/widget/encounters/${widget.sessionId}`;
    const onWidget = async (id: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
      const response = await widgetCall(h, widget.token, method, url, payload);
      answers.set(id, response);
      return response;
    };
    const onApi = async (id: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
      const response = await h.request({
        method,
        url,
        key: h.project.testKey,
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
      answers.set(id, response);
      return response;
    };
    const open = async (id: string, url: string) => {
      const response = await h.app.inject({ method: 'GET', url });
      answers.set(id, response);
      return response;
    };

    answers.set(
      'createWidgetToken',
      await h.app.inject({
        method: 'POST',
        url: '/api/widget/token',
        headers: { 'x-partner-key': partner.partnerKey },
        payload: { userEmail: 'dr.rivera@clinic.example', emrUserId: 'emr-user-1', emrSessionId: 'visit-1' },
      }),
    );
    await onWidget('getWidgetSession', 'GET', '/api/widget/session');
    await onWidget('updateWidgetProfile', 'PUT', '/api/widget/profile', { displayName: 'Dr. Ana Rivera' });
    await onWidget('openWidgetEncounter', 'POST', '/api/widget/encounters');
    await onWidget('setWidgetPatientContext', 'PUT', `${encounter}/patient-context`, CHART);
    await onWidget('recordWidgetConsent', 'POST', `${encounter}/consent`, { method: 'verbal' });
    await onWidget('createWidgetRealtimeToken', 'POST', '/api/widget/realtime-tokens', { sessionId: widget.sessionId });
    await storeRealtimeSession(h, partner.id, widget.sessionId, VISIT, { id: 'rts_visit', stereo: true });
    await onWidget('getWidgetTranscript', 'GET', `${encounter}/transcript`);
    const session = `${encounter}/realtime-sessions/rts_visit`;
    await onWidget('correctWidgetTranscriptSegment', 'PUT', `${session}/segments/seg_000002`, { text: 'a cough' });
    await onWidget('swapWidgetSpeakerRoles', 'POST', `${session}/speaker-swaps`, { speakerLabel: 'S1' });
    const note = (await onWidget('generateWidgetNote', 'POST', `${encounter}/notes`, {})).json<WidgetNote>();
    await onWidget('listWidgetNotes', 'GET', `${encounter}/notes`);
    await onWidget('updateWidgetNote', 'PUT', `${encounter}/notes/${note.id}`, { sections: { plan: 'Rest.' } });
    await onWidget('recordWidgetNotePush', 'POST', `${encounter}/notes/${note.id}/pushes`, { revision: 2 });
    const document = (
      await onWidget('createWidgetDocument', 'POST', `${encounter}/documents`, { documentType: 'letter' })
    ).json<WidgetDocument>();
    await onWidget('listWidgetDocuments', 'GET', `${encounter}/documents`);
    await onWidget('updateWidgetDocument', 'PUT', `${encounter}/documents/${document.id}`, { title: 'Your visit' });
    await onWidget('recordWidgetDocumentPush', 'POST', `${encounter}/documents/${document.id}/pushes`, { revision: 2 });
    const link = (
      await onWidget('createWidgetDocumentPdf', 'POST', `${encounter}/documents/${document.id}/pdf`)
    ).json<WidgetDocumentPdf>();
    await onWidget('getWidgetEncounter', 'GET', encounter);
    const pdf = new URL(link.pdfUrl);
    await open('downloadWidgetDocumentPdf', `${pdf.pathname}${pdf.search}`);
    await open('widgetPage', `/widget?token=${widget.token}`);

    await onApi('listTemplates', 'GET', '/api/v1/templates');
    const restNote = (
      await onApi('createNote', 'POST', '/api/v1/notes', {
        template_id: 'soap',
        conversation_text: 'Clinician: What brings you in?\nPatient: A cough for three days.',
      })
    ).json<Note>();
    await onApi('retrieveNote', 'GET', `/api/v1/notes/${restNote.id}`);
    await onApi('createRealtimeToken', 'POST', '/api/v1/realtime/tokens');
    await storeRealtimeSession(h, null, null, [['unknown', 'Hello.']], { id: 'rts_server', endReason: 'stopped' });
    await onApi('retrieveRealtimeSession', 'GET', '/api/v1/realtime/sessions/rts_server');
    await onApi('deleteRealtimeSession', 'DELETE', '/api/v1/realtime/sessions/rts_server');
    const webhookEndpoint = (
      await onApi('createWebhookEndpoint', 'POST', '/api/v1/webhooks/endpoints', { url: 'https://hooks.example.com/x' })
    ).json<{ id: string }>();
    await onApi('listWebhookEndpoints', 'GET', '/api/v1/webhooks/endpoints');
    await onApi('createCallbackSecret', 'POST', '/api/v1/webhooks/callback-secret');
    await onApi('listWebhookDeliveries', 'GET', `/api/v1/webhooks/deliveries?note_id=${restNote.id}`);
    await onApi('deleteWebhookEndpoint', 'DELETE', `/api/v1/webhooks/endpoints/${webhookEndpoint.id}`);
    await onApi('deleteNote', 'DELETE', `/api/v1/notes/${restNote.id}`);
    // Deletions last, the encounter's own last of all.
    await onWidget('deleteWidgetDocument', 'DELETE', `${encounter}/documents/${document.id}`);
    await onWidget('deleteWidgetNote', 'DELETE', `${encounter}/notes/${note.id}`);
    await onWidget('withdrawWidgetConsent', 'DELETE', `${encounter}/consent`);
    await onWidget('deleteWidgetEncounter', 'DELETE', encounter);
    return answers;
  }

  it('walks every route of the REST and widget APIs, the PDF links and the widget page', async () => {
    const answers = await walk();
    // The console's operations are walked by console/console-walk.test.ts.
    const carrying = REST_ENDPOINTS.filter(
      (spec) => spec.auth !== 'realtime' && !WITHOUT_PHI.has(spec.operationId) && !isConsoleEndpoint(spec),
    ).map((spec) => spec.operationId);
    // Every operation is walked, so a new route cannot slip past without a decision here.
    expect([...answers.keys()].sort()).toEqual(carrying.concat(['listTemplates']).sort());
    for (const [id, response] of answers) {
      if (id === 'listTemplates') continue;
      expect(response.statusCode, `${id}: ${response.body}`).toBeLessThan(300);
      expect(response.headers['cache-control'], id).toBe('no-store');
    }
    // The template list keeps its own revalidation policy (private, so no shared cache keeps it either).
    expect(answers.get('listTemplates')?.headers['cache-control']).toBe('private, no-cache');
  });

  it('sends no-store on refusals of those routes too', async () => {
    const refusals = [
      await widgetCall(h, widget.token, 'GET', '/api/widget/encounters/ses_unknown'),
      await widgetCall(h, 'not-a-token', 'GET', '/api/widget/session'),
      await h.app.inject({ method: 'POST', url: '/api/widget/token', payload: {} }),
      await h.request({ method: 'GET', url: '/api/v1/notes/note_unknown', key: h.project.testKey }),
      await h.request({ method: 'GET', url: '/api/v1/realtime/sessions/rts_unknown' }),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });
});
