import type { PatientContextMessage } from '@chartwright/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { storeRealtimeSession, VISIT } from '@chartwright/testing/widget-encounters.js';
import { nodeWidget, type NodeWidget } from '../test-support/node-widget.js';
import { activeEncounterOf, workspaceOf } from './widget-state.js';

/** Documents and the clinician's profile, through the controller in Node against the real service. */
const ORIGINS = ['https://emr.example.com'];
const PATIENT = {
  type: 'PATIENT_CONTEXT',
  patient: { id: 'MRN-5', name: 'Ana Example' },
} as PatientContextMessage;

describe('the widget’s documents against the service', () => {
  let h: Harness;
  let baseUrl: string;
  let partnerKey: string;
  let partnerId: string;
  const widgets: NodeWidget[] = [];

  beforeAll(async () => {
    h = await createHarness();
    baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    ({ partnerKey, id: partnerId } = await h.createPartner({ origins: ORIGINS }));
  });
  afterEach(async () => {
    for (const widget of widgets.splice(0)) await widget.controller.dispose();
  });
  afterAll(async () => {
    await h.close();
  });

  async function open(emrSessionId: string): Promise<NodeWidget> {
    const { token } = await h.mintWidgetToken(partnerKey, {
      userEmail: 'dr.rivera@clinic.example',
      emrUserId: 'emr-user-docs',
      emrSessionId,
    });
    const widget = nodeWidget(h, token, { baseUrl, frameOrigins: ORIGINS });
    widgets.push(widget);
    await widget.controller.start();
    return widget;
  }

  it('puts every note and document it sends to the chart on record first, and sends no stale revision', async () => {
    const widget = await open('visit-pushes');
    const { controller } = widget;
    await controller.receive(PATIENT);
    const encounterId = activeEncounterOf(controller.store.state)?.encounterId ?? '';
    await storeRealtimeSession(h, partnerId, encounterId, VISIT, { id: 'rts_pushes' });
    await controller.generateNote();
    const note = activeEncounterOf(controller.store.state)?.note;
    await controller.sendNote();
    expect(widget.postedOf('PUSH_NOTE')).toHaveLength(1);
    await controller.createDocument('letter');
    const document = activeEncounterOf(controller.store.state)?.documents[0];
    await controller.sendDocument(document?.id ?? '', {});
    expect(widget.postedOf('PUSH_DOCUMENT')).toHaveLength(1);

    const pushes = (await h.repositories.auditEvents.list({ action: 'push' })).map((record) => ({
      resource: `${record.resource_type} ${record.resource_id ?? ''}`,
      actor: record.actor_kind,
      encounter: record.encounter_id,
      outcome: record.outcome,
    }));
    expect(pushes).toEqual([
      { resource: `note ${note?.id ?? ''}`, actor: 'clinician', encounter: encounterId, outcome: 'success' },
      { resource: `document ${document?.id ?? ''}`, actor: 'clinician', encounter: encounterId, outcome: 'success' },
    ]);

    // The note changed in another tab: sent again unedited from this one, its revision is stale, so it
    // is neither recorded nor sent, and the clinician is told.
    const other = await open('visit-pushes');
    other.controller.editNoteSection('plan', 'Changed elsewhere.');
    await other.controller.sendNote();
    expect(other.postedOf('PUSH_NOTE')).toHaveLength(1);
    await controller.sendNote();
    expect(widget.postedOf('PUSH_NOTE')).toHaveLength(1);
    expect(controller.store.state.notice).not.toBeNull();
    expect(await h.repositories.auditEvents.list({ action: 'push', resourceType: 'note' })).toHaveLength(3);
  });

  it('signs with the name the clinician saved, keeps one referral, and restores the edit a rewrite replaced', async () => {
    const widget = await open('visit-documents');
    const { controller } = widget;
    await controller.receive(PATIENT);
    const encounterId = activeEncounterOf(controller.store.state)?.encounterId ?? '';
    await storeRealtimeSession(h, partnerId, encounterId, VISIT, { id: 'rts_documents' });
    await controller.generateNote();
    expect(activeEncounterOf(controller.store.state)?.note).not.toBeNull();

    await controller.saveDisplayName('Dr. Ana Rivera');
    expect(workspaceOf(controller.store.state)?.widgetSession.clinician.displayName).toBe('Dr. Ana Rivera');
    await controller.createDocument('referral', { recipient: 'Dr. Lee, Respirology' });
    const documents = () => activeEncounterOf(controller.store.state)?.documents ?? [];
    const [first] = documents();
    expect(first?.content).toContain('To: Dr. Lee, Respirology\nFrom: Dr. Ana Rivera');
    await controller.sendDocument(first?.id ?? '', { title: 'Referral letter', content: 'My own words.' });
    expect(widget.postedOf('PUSH_DOCUMENT')[0]?.content).toBe('My own words.');

    await controller.createDocument('referral');
    expect(documents()).toHaveLength(1);
    expect(documents()[0]).toMatchObject({
      id: first?.id,
      revision: 3,
      recipient: 'Dr. Lee, Respirology',
      previousEdit: { revision: 2, content: 'My own words.' },
    });
    await controller.restoreDocumentEdit(first?.id ?? '');
    expect(documents()[0]).toMatchObject({ revision: 4, content: 'My own words.', previousEdit: null });
    expect(controller.store.state.notice).toBeNull();

    // A relaunch shows the same: the name, and one referral.
    const again = await open('visit-documents');
    expect(workspaceOf(again.controller.store.state)?.widgetSession.clinician.displayName).toBe('Dr. Ana Rivera');
    expect(activeEncounterOf(again.controller.store.state)?.documents.map((document) => document.revision)).toEqual([
      4,
    ]);
  });
});
