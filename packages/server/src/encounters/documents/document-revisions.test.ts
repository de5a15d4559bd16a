import type { WidgetClinician, WidgetDocument, WidgetDocumentList, WidgetSessionInfo } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import {
  CHART,
  expectWidgetError,
  openWidget,
  setPatientContext,
  widgetCall,
  type OpenWidget,
} from '@chartwright/testing/widget-encounters.js';

const VISIT_TEXT = [
  'Doctor: Good morning, what brings you in today?',
  'Patient: I have had a cough and a fever for three days.',
  'Doctor: I think this is a viral upper respiratory infection.',
  'Doctor: Drink plenty of fluids and come back if you get worse in a week.',
].join('\n');

describe.each(TEST_DIALECTS)('who signs a document, and one draft per kind, on %s', (dialect) => {
  let h: Harness;
  let partner: { id: string; partnerKey: string };
  let widget: OpenWidget;

  beforeEach(async () => {
    h = await createHarness({ dialect });
    partner = await h.createPartner();
    widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
    await setPatientContext(h, widget, CHART);
    const note = await call('POST', '/notes', { conversationText: VISIT_TEXT });
    expect(note.statusCode, note.body).toBe(201);
  });
  afterEach(async () => {
    await h.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', suffix: string, payload?: unknown) =>
    widgetCall(h, widget.token, method, `/api/widget/encounters/${widget.sessionId}${suffix}`, payload);

  async function write(payload: unknown): Promise<WidgetDocument> {
    const response = await call('POST', '/documents', payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<WidgetDocument>();
  }

  it('signs with the display name the clinician set once in their profile, kept across tokens', async () => {
    const before = await write({ documentType: 'referral', recipient: 'Dr. Lee, Respirology' });
    expect(before.content).toContain('From: dr.rivera@clinic.example');

    const saved = await widgetCall(h, widget.token, 'PUT', '/api/widget/profile', { displayName: ' Dr. Ana Rivera ' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<WidgetClinician>()).toEqual({
      id: widget.clinicianId,
      email: 'dr.rivera@clinic.example',
      emrUserId: 'emr-user-1',
      displayName: 'Dr. Ana Rivera',
    });
    // A later widget (a new token upserts the clinician) still has it.
    const later = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-2' });
    const session = await widgetCall(h, later.token, 'GET', '/api/widget/session');
    expect(session.json<WidgetSessionInfo>().clinician.displayName).toBe('Dr. Ana Rivera');

    const letter = await write({ documentType: 'letter' });
    expect(letter.content).toMatch(/Kind regards,\n\nDr\. Ana Rivera$/);
    const referral = await write({ documentType: 'referral' });
    expect(referral.content).toMatch(/\n\nTo: Dr\. Lee, Respirology\nFrom: Dr\. Ana Rivera\n\n/);
    expect(referral.content).not.toContain('dr.rivera@clinic.example');

    expectWidgetError(
      await widgetCall(h, widget.token, 'PUT', '/api/widget/profile', { displayName: '  ' }),
      400,
      'invalid_body',
      ['displayName'],
    );
  });

  it('addresses no one it was not told of: no "To: Colleague"', async () => {
    const referral = await write({ documentType: 'referral' });
    expect(referral.recipient).toBeNull();
    expect(referral.content).not.toMatch(/^To:/m);
    expect(referral.content).toContain('\n\nDear colleague,\n\n');
  });

  it('keeps one document per kind: regenerating writes a revision and keeps the clinician’s edit to restore', async () => {
    const first = await write({ documentType: 'referral', recipient: 'Dr. Lee, Respirology' });
    expect(first).toMatchObject({ revision: 1, origin: 'generated', previousEdit: null });
    const edit = await call('PUT', `/documents/${first.id}`, { content: 'My own words.', revision: 1 });
    expect(edit.json<WidgetDocument>()).toMatchObject({ revision: 2, origin: 'edited', previousEdit: null });
    await write({ documentType: 'letter' });
    h.clock.advance(1000);

    const again = await write({ documentType: 'referral', format: 'pdf' });
    expect(again).toMatchObject({
      id: first.id,
      revision: 3,
      origin: 'generated',
      format: 'pdf',
      recipient: 'Dr. Lee, Respirology',
      previousEdit: { revision: 2, title: 'Referral letter', content: 'My own words.', fields: null },
    });
    expect(again.content).toContain('To: Dr. Lee, Respirology');
    const listed = (await call('GET', '/documents')).json<WidgetDocumentList>().documents;
    expect(listed.map((document) => [document.documentType, document.revision])).toEqual([
      ['letter', 1],
      ['referral', 3],
    ]);

    // Restoring the edit is an edit: the regenerated text stays a revision of its own.
    const restored = await call('PUT', `/documents/${first.id}`, { content: 'My own words.', revision: 3 });
    expect(restored.json<WidgetDocument>()).toMatchObject({ revision: 4, origin: 'edited', previousEdit: null });
    const pdf = await call('POST', `/documents/${first.id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
  });

  it('keeps a form’s edited fields to restore', async () => {
    const form = await write({ documentType: 'form' });
    await call('PUT', `/documents/${form.id}`, { fields: { plan: 'Review in a week.' } });
    const again = await write({ documentType: 'form' });
    expect(again.id).toBe(form.id);
    expect(again.previousEdit?.fields?.find((field) => field.key === 'plan')?.value).toBe('Review in a week.');
    expect(again.fields?.find((field) => field.key === 'plan')?.value).not.toBe('Review in a week.');
  });
});
