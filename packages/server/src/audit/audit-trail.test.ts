import { endpoint, isConsoleEndpoint, type EndpointId } from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { PHI, phiFoundIn } from '@chartwright/testing/phi-visit.js';
import {
  openWidget,
  storeRealtimeSession,
  widgetCall,
  type OpenWidget,
} from '@chartwright/testing/widget-encounters.js';
import { widgetPatientKey } from '../encounters/encounter-service.js';
import type { AuditEventRow } from '../store/audit-events.js';
import { AuditLog } from './audit-log.js';
import { AUDITED_OPERATIONS } from './audited-operations.js';

/**
 * Every operation that touches patient data, called through the API as the widget, a developer's
 * server and an EMR fetching a PDF call it, leaves one audit record saying who, what, how, from where
 * and with what outcome, and no PHI. The walk must cover every audited operation of the table.
 */
describe.each(TEST_DIALECTS)('the audit trail (%s)', (dialect) => {
  let h: Harness;
  let partner: { id: string; partnerKey: string };
  let widget: OpenWidget;
  let audit: AuditLog;
  const walked = new Set<EndpointId>();

  beforeEach(async () => {
    h = await createHarness({ dialect });
    partner = await h.createPartner();
    audit = new AuditLog({
      events: h.repositories.auditEvents,
      clock: h.clock,
      key: h.config.audit.hmacKey ?? '',
      retentionMs: 1,
    });
  });
  afterEach(async () => {
    await h.close();
  });

  const records = () => h.repositories.auditEvents.list({});
  const patientRef = () => audit.patientRef(widgetPatientKey(partner.id, PHI.mrn));
  const url = (suffix = '') => `/api/widget/encounters/${widget.sessionId}${suffix}`;

  /** The one record the call left, checked against what the call was. */
  async function expectRecorded(
    operationId: EndpointId,
    response: LightMyRequestResponse,
    expected: Partial<AuditEventRow>,
    before: number,
  ): Promise<AuditEventRow> {
    const added = (await records()).slice(before);
    expect(added, `${operationId} leaves one record`).toHaveLength(1);
    const [record] = added as [AuditEventRow];
    const operation = AUDITED_OPERATIONS[operationId];
    if (operation === 'no_phi') throw new Error(`${operationId} is not audited`);
    expect(record).toMatchObject({
      resource_type: operation.resourceType,
      outcome: response.statusCode < 400 ? 'success' : 'failure',
      status: response.statusCode,
      ip: '127.0.0.1',
      request_id: response.headers['x-request-id'],
      ...expected,
    });
    walked.add(operationId);
    return record;
  }

  /** A call as the clinician in the widget. */
  async function asClinician(
    operationId: EndpointId,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    payload: unknown,
    expected: Partial<AuditEventRow>,
  ): Promise<LightMyRequestResponse> {
    const before = (await records()).length;
    const response = await widgetCall(h, widget.token, method, path, payload);
    expect(response.statusCode, `${operationId}: ${response.body}`).toBeLessThan(500);
    await expectRecorded(
      operationId,
      response,
      {
        actor_kind: 'clinician',
        actor_id: widget.clinicianId,
        partner_id: partner.id,
        project_id: h.project.id,
        environment: 'test',
        encounter_id: widget.sessionId,
        ...expected,
      },
      before,
    );
    return response;
  }

  /** A call as the developer's server, with the sandbox key. */
  async function asServer(
    operationId: EndpointId,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    payload: unknown,
    expected: Partial<AuditEventRow>,
  ): Promise<LightMyRequestResponse> {
    const before = (await records()).length;
    const response = await h.request({
      method,
      url: path,
      key: h.project.testKey,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    await expectRecorded(
      operationId,
      response,
      {
        actor_kind: 'api_key',
        actor_id: h.project.testKeyId,
        partner_id: null,
        project_id: h.project.id,
        environment: 'test',
        ...expected,
      },
      before,
    );
    return response;
  }

  it('records every access to patient data, with no PHI in any record', async () => {
    let before = (await records()).length;
    widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-audit' });
    const [opened] = (await records()).slice(before);
    expect(opened).toMatchObject({
      action: 'create',
      resource_type: 'encounter',
      resource_id: widget.sessionId,
      encounter_id: widget.sessionId,
      actor_kind: 'clinician',
      patient_ref: null,
      status: 200,
    });
    walked.add('openWidgetEncounter');

    const withPatient = { patient_ref: patientRef() };
    await asClinician(
      'setWidgetPatientContext',
      'PUT',
      url('/patient-context'),
      {
        patient: { id: PHI.mrn, name: PHI.name, dob: PHI.dob, healthCardNumber: PHI.healthCard },
      },
      { action: 'update', resource_id: widget.sessionId, ...withPatient },
    );
    await asClinician(
      'recordWidgetConsent',
      'POST',
      url('/consent'),
      { method: 'verbal', note: PHI.consentNote },
      {
        action: 'create',
        resource_id: widget.sessionId,
        ...withPatient,
      },
    );
    await asClinician(
      'createWidgetRealtimeToken',
      'POST',
      '/api/widget/realtime-tokens',
      { sessionId: widget.sessionId },
      {
        action: 'create',
        resource_id: null,
        ...withPatient,
      },
    );
    // The relaunch of the same visit reads it back.
    before = (await records()).length;
    const relaunched = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-audit' });
    expect(relaunched.sessionId).toBe(widget.sessionId);
    expect((await records()).slice(before)).toMatchObject([
      { action: 'read', resource_type: 'encounter', ...withPatient },
    ]);

    await storeRealtimeSession(
      h,
      partner.id,
      widget.sessionId,
      [
        ['clinician', 'How is the throat?'],
        ['patient', `Worse, and ${PHI.spoken}.`],
      ],
      { id: 'rts_audited', endReason: 'stopped', stereo: true },
    );
    await asClinician('getWidgetTranscript', 'GET', url('/transcript'), undefined, {
      action: 'read',
      resource_id: widget.sessionId,
      ...withPatient,
    });
    await asClinician(
      'correctWidgetTranscriptSegment',
      'PUT',
      url('/realtime-sessions/rts_audited/segments/seg_000002'),
      {
        text: PHI.corrected,
      },
      { action: 'update', resource_id: 'rts_audited/seg_000002', ...withPatient },
    );
    await asClinician(
      'swapWidgetSpeakerRoles',
      'POST',
      url('/realtime-sessions/rts_audited/speaker-swaps'),
      {
        speakerLabel: 'S1',
      },
      { action: 'update', resource_id: 'rts_audited', ...withPatient },
    );

    const note = await asClinician(
      'generateWidgetNote',
      'POST',
      url('/notes'),
      {},
      { action: 'create', ...withPatient },
    );
    const noteId = note.json<{ id: string }>().id;
    expect((await records()).at(-1)?.resource_id).toBe(noteId);
    await asClinician('listWidgetNotes', 'GET', url('/notes'), undefined, {
      action: 'read',
      resource_id: null,
      ...withPatient,
    });
    await asClinician(
      'updateWidgetNote',
      'PUT',
      url(`/notes/${noteId}`),
      { revision: 1, sections: { plan: 'Review.' } },
      {
        action: 'update',
        resource_id: noteId,
        ...withPatient,
      },
    );
    await asClinician(
      'recordWidgetNotePush',
      'POST',
      url(`/notes/${noteId}/pushes`),
      { revision: 2 },
      {
        action: 'push',
        resource_id: noteId,
        ...withPatient,
      },
    );

    const document = await asClinician(
      'createWidgetDocument',
      'POST',
      url('/documents'),
      { documentType: 'letter' },
      {
        action: 'create',
        ...withPatient,
      },
    );
    const documentId = document.json<{ id: string }>().id;
    await asClinician('listWidgetDocuments', 'GET', url('/documents'), undefined, { action: 'read', ...withPatient });
    await asClinician(
      'updateWidgetDocument',
      'PUT',
      url(`/documents/${documentId}`),
      { revision: 1, title: 'Letter' },
      {
        action: 'update',
        resource_id: documentId,
        ...withPatient,
      },
    );
    await asClinician(
      'recordWidgetDocumentPush',
      'POST',
      url(`/documents/${documentId}/pushes`),
      { revision: 2 },
      {
        action: 'push',
        resource_id: documentId,
        ...withPatient,
      },
    );
    const pdf = await asClinician('createWidgetDocumentPdf', 'POST', url(`/documents/${documentId}/pdf`), undefined, {
      action: 'export',
      resource_id: documentId,
      ...withPatient,
    });
    // The EMR's server fetches the PDF with the link alone: the record names the link, and the encounter says whose.
    before = (await records()).length;
    const link = new URL(pdf.json<{ pdfUrl: string }>().pdfUrl);
    const download = await h.request({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(download.statusCode).toBe(200);
    await expectRecorded(
      'downloadWidgetDocumentPdf',
      download,
      {
        action: 'export',
        actor_kind: 'pdf_link',
        actor_id: null,
        partner_id: partner.id,
        project_id: h.project.id,
        resource_id: documentId,
        encounter_id: widget.sessionId,
        ...withPatient,
      },
      before,
    );

    await asClinician('getWidgetEncounter', 'GET', url(), undefined, {
      action: 'read',
      resource_id: widget.sessionId,
      ...withPatient,
    });
    await asClinician('deleteWidgetDocument', 'DELETE', url(`/documents/${documentId}`), undefined, {
      action: 'delete',
      resource_id: documentId,
      ...withPatient,
    });
    await asClinician('deleteWidgetNote', 'DELETE', url(`/notes/${noteId}`), undefined, {
      action: 'delete',
      resource_id: noteId,
      ...withPatient,
    });
    await asClinician('withdrawWidgetConsent', 'DELETE', url('/consent'), undefined, {
      action: 'delete',
      resource_id: widget.sessionId,
      ...withPatient,
    });

    // A developer's server: notes and realtime sessions of its own project, none of them a widget encounter's.
    const restNote = await asServer(
      'createNote',
      'POST',
      '/api/v1/notes',
      {
        template_id: 'soap',
        conversation_text: `Patient: ${PHI.restNote}.`,
      },
      { action: 'create', encounter_id: null, patient_ref: null },
    );
    const restNoteId = restNote.json<{ id: string }>().id;
    expect((await records()).at(-1)?.resource_id).toBe(restNoteId);
    await asServer('retrieveNote', 'GET', `/api/v1/notes/${restNoteId}`, undefined, {
      action: 'read',
      resource_id: restNoteId,
    });
    // Where the project's notes are sent: its webhook endpoints and callback secret.
    const webhookEndpoint = await asServer(
      'createWebhookEndpoint',
      'POST',
      '/api/v1/webhooks/endpoints',
      { url: 'https://hooks.example.com/notes' },
      { action: 'create', resource_type: 'webhook_endpoint', encounter_id: null, patient_ref: null },
    );
    const endpointId = webhookEndpoint.json<{ id: string }>().id;
    expect((await records()).at(-1)?.resource_id).toBe(endpointId);
    await asServer('deleteWebhookEndpoint', 'DELETE', `/api/v1/webhooks/endpoints/${endpointId}`, undefined, {
      action: 'delete',
      resource_type: 'webhook_endpoint',
      resource_id: endpointId,
    });
    await asServer('createCallbackSecret', 'POST', '/api/v1/webhooks/callback-secret', undefined, {
      action: 'rotate',
      resource_type: 'callback_secret',
      resource_id: null,
    });
    await asServer('deleteNote', 'DELETE', `/api/v1/notes/${restNoteId}`, undefined, {
      action: 'delete',
      resource_id: restNoteId,
    });
    await storeRealtimeSession(h, null, null, [['unknown', 'Hello.']], { id: 'rts_server', endReason: 'stopped' });
    await asServer('retrieveRealtimeSession', 'GET', '/api/v1/realtime/sessions/rts_server', undefined, {
      action: 'read',
      resource_id: 'rts_server',
      encounter_id: null,
    });
    await asServer('deleteRealtimeSession', 'DELETE', '/api/v1/realtime/sessions/rts_server', undefined, {
      action: 'delete',
      resource_id: 'rts_server',
    });

    // Deleting the encounter takes its patient along, but its record still says whose it was.
    await asClinician('deleteWidgetEncounter', 'DELETE', url(), undefined, {
      action: 'delete',
      resource_id: widget.sessionId,
      ...withPatient,
    });

    // The console's operations touch no patient data; console/console-walk.test.ts walks them.
    const audited = Object.entries(AUDITED_OPERATIONS)
      .filter(
        ([operationId, operation]) => operation !== 'no_phi' && !isConsoleEndpoint(endpoint(operationId as EndpointId)),
      )
      .map(([operationId]) => operationId)
      .sort();
    expect([...walked].sort()).toEqual(audited);
    expect(phiFoundIn(Buffer.from(JSON.stringify(await records())))).toEqual([]);
    expect(await audit.verify()).toEqual({ records: (await records()).length, broken: null });
  });

  it('records refused and failed calls with their outcome, and nothing for a caller never authenticated', async () => {
    widget = await openWidget(h, partner.partnerKey);
    const other = await openWidget(h, partner.partnerKey, { emrUserId: 'emr-user-2' });
    const before = (await records()).length;
    const foreign = await widgetCall(h, other.token, 'GET', url('/transcript'));
    expect(foreign.statusCode).toBe(404);
    expect((await records()).slice(before)).toMatchObject([
      {
        action: 'read',
        resource_type: 'transcript',
        resource_id: widget.sessionId,
        actor_id: other.clinicianId,
        outcome: 'failure',
        status: 404,
        error_code: 'encounter_not_found',
      },
    ]);

    const missing = await h.request({ method: 'GET', url: '/api/v1/notes/note_nope', key: h.project.testKey });
    expect(missing.statusCode).toBe(404);
    expect((await records()).at(-1)).toMatchObject({
      outcome: 'failure',
      error_code: 'note_not_found',
      resource_id: 'note_nope',
    });

    const count = (await records()).length;
    expect((await h.request({ method: 'GET', url: '/api/v1/notes/note_nope', key: 'sk_test_wrong' })).statusCode).toBe(
      401,
    );
    expect((await widgetCall(h, 'not-a-token', 'GET', url('/transcript'))).statusCode).toBe(401);
    expect(await records()).toHaveLength(count);
  });
});
