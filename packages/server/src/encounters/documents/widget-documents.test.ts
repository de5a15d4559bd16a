import {
  pushDocumentMessageSchema,
  type WidgetDocument,
  type WidgetDocumentList,
  type WidgetDocumentPdf,
  type WidgetNote,
} from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { testConfig } from '../../config/config.js';
import { createHarness, type Harness, type HarnessOptions } from '@chartwright/testing/harness.js';
import { flattened, pdftotextInstalled, pdfText } from '@chartwright/testing/pdf-text.js';
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
  'Doctor: Your temperature is 38.2 degrees and your lungs sound clear.',
  'Doctor: I think this is a viral upper respiratory infection.',
  'Doctor: Drink plenty of fluids and come back if you get worse in a week.',
].join('\n');

const havePdftotext = pdftotextInstalled();

describe.each(TEST_DIALECTS)('widget documents on %s', (dialect) => {
  let h: Harness;
  let partner: { id: string; partnerKey: string };
  let widget: OpenWidget;
  let note: WidgetNote;

  async function setUp(options: HarnessOptions = {}) {
    h = await createHarness({ dialect, ...options });
    partner = await h.createPartner();
    widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
    await setPatientContext(h, widget, CHART);
    const response = await call('POST', '/notes', { conversationText: VISIT_TEXT });
    expect(response.statusCode, response.body).toBe(201);
    note = response.json<WidgetNote>();
  }

  beforeEach(async () => {
    await setUp();
  });
  afterEach(async () => {
    await h.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', suffix: string, payload?: unknown) =>
    widgetCall(h, widget.token, method, `/api/widget/encounters/${widget.sessionId}${suffix}`, payload);

  async function createDocument(payload: unknown): Promise<WidgetDocument> {
    const response = await call('POST', '/documents', payload);
    expect(response.statusCode, response.body).toBe(201);
    const document = response.json<WidgetDocument>();
    // Exactly what PUSH_DOCUMENT carries.
    pushDocumentMessageSchema.parse({
      type: 'PUSH_DOCUMENT',
      title: document.title,
      content: document.content,
      documentType: document.pushDocumentType,
      sessionId: document.sessionId,
      patientId: CHART.patient.id,
    });
    return document;
  }

  describe('writing', () => {
    it('writes a referral letter with the reason, history, medications, allergies and plan', async () => {
      const referral = await createDocument({
        documentType: 'referral',
        recipient: 'Dr. Lee, Respirology',
        clinicianName: 'Dr. Ana Rivera',
      });
      expect(referral).toMatchObject({
        sessionId: widget.sessionId,
        documentType: 'referral',
        format: 'text',
        pushDocumentType: 'referral',
        title: 'Referral letter',
        fields: null,
        noteId: note.id,
        revision: 1,
      });
      const content = referral.content;
      expect(content).toMatch(/^\d{4}-\d{2}-\d{2}\n\nTo: Dr\. Lee, Respirology\nFrom: Dr\. Ana Rivera\n\n/);
      expect(content).toContain('Re: Jane Q. Doe, born 1980-02-03, health card 1234-567-890');
      expect(content).toContain('\n\nDear Dr. Lee,\n\n');
      expect(content).toContain('REASON FOR REFERRAL\nCough and fever for three days');
      expect(content).toContain('HISTORY\n');
      expect(content).toContain('Past medical history: Type 2 diabetes');
      expect(content).toContain('EXAMINATION AND RESULTS\n');
      expect(content).toContain('- HbA1c: 6.9 % (normal 4.0-5.6, 2026-01-10)');
      expect(content).toContain('CURRENT MEDICATIONS\n- Metformin 500 mg, twice daily\n\nALLERGIES');
      expect(content).not.toContain('Ibuprofen 200 mg,');
      expect(content).toContain('ALLERGIES\n- Penicillin (severe): hives');
      expect(content).toContain('ACTIVE PROBLEMS\n- Type 2 diabetes mellitus (E11.9)');
      expect(content).toContain('\nPLAN\n');
      expect(content).toMatch(/Kind regards,\n\nDr\. Ana Rivera$/);
      for (const heading of ['HISTORY', 'ASSESSMENT', 'PLAN']) {
        const soap = note.headings.find((candidate) => candidate.label.toUpperCase() === heading);
        const text = soap === undefined ? '' : (note.sections[soap.key] ?? '');
        if (text !== '') expect(content).toContain(text);
      }
    });

    it('writes a plain-language letter to the patient, signed with the clinician’s e-mail by default', async () => {
      const letter = await createDocument({ documentType: 'letter' });
      expect(letter).toMatchObject({ documentType: 'letter', format: 'text', pushDocumentType: 'letter' });
      expect(letter.title).toBe('Letter to patient');
      expect(letter.content).toContain('Dear Jane,');
      expect(letter.content).toContain('Thank you for coming to see me on 2026-03-04.');
      expect(letter.content).toContain('WHY YOU CAME IN\nCough and fever for three days');
      expect(letter.content).toContain('WHAT HAPPENS NEXT\n');
      expect(letter.content).toContain('YOUR MEDICINES\n- Metformin 500 mg, twice daily');
      expect(letter.content).toContain('In an emergency, call your local emergency number.');
      expect(letter.content).toMatch(/Kind regards,\n\ndr\.rivera@clinic\.example$/);
    });

    it('writes a form as labelled fields, its content one `Label: value` line each', async () => {
      const form = await createDocument({ documentType: 'form' });
      expect(form).toMatchObject({ documentType: 'form', pushDocumentType: 'form', title: 'Encounter summary form' });
      const fields = Object.fromEntries((form.fields ?? []).map((field) => [field.key, field.value]));
      expect(fields).toMatchObject({
        patient_name: 'Jane Q. Doe',
        date_of_birth: '1980-02-03',
        health_card_number: '1234-567-890',
        visit_date: '2026-03-04',
        reason_for_visit: 'Cough and fever for three days',
        medications: 'Metformin 500 mg, twice daily',
        allergies: 'Penicillin (severe): hives',
        clinician: 'dr.rivera@clinic.example',
      });
      expect(form.content.split('\n')).toEqual(
        (form.fields ?? []).map((field) => (field.value === '' ? `${field.label}:` : `${field.label}: ${field.value}`)),
      );
    });

    it('takes documentType pdf as a patient letter sent as a PDF, and a format for any kind', async () => {
      const pdf = await createDocument({ documentType: 'pdf' });
      expect(pdf).toMatchObject({ documentType: 'letter', format: 'pdf', pushDocumentType: 'pdf' });
      const referral = await createDocument({ documentType: 'referral', format: 'pdf' });
      expect(referral).toMatchObject({ documentType: 'referral', format: 'pdf', pushDocumentType: 'pdf' });
    });

    it('draws on the note named, and still writes documents for an encounter with no note', async () => {
      const other = await call('POST', '/notes', { conversationText: 'Doctor: The rash is better.' });
      const older = await createDocument({ documentType: 'form', noteId: note.id });
      expect(older.noteId).toBe(note.id);
      expect((await createDocument({ documentType: 'form' })).noteId).toBe(other.json<WidgetNote>().id);
      expectWidgetError(
        await call('POST', '/documents', { documentType: 'form', noteId: 'note_nope' }),
        404,
        'note_not_found',
      );

      const empty = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-empty' });
      const response = await widgetCall(h, empty.token, 'POST', `/api/widget/encounters/${empty.sessionId}/documents`, {
        documentType: 'referral',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json<WidgetDocument>()).toMatchObject({ noteId: null });
      expect(response.json<WidgetDocument>().content).toContain('REASON FOR REFERRAL\nNot recorded.');
    });

    it.each<[string, unknown, string[]]>([
      ['no documentType', {}, ['documentType']],
      ['an unknown documentType', { documentType: 'memo' }, ['documentType']],
      ['pdf sent as text', { documentType: 'pdf', format: 'text' }, ['format']],
      ['an unknown format', { documentType: 'letter', format: 'docx' }, ['format']],
      ['an empty recipient', { documentType: 'referral', recipient: ' ' }, ['recipient']],
      ['an unknown field', { documentType: 'letter', language: 'fr' }, ['language']],
    ])('refuses %s, naming the field', async (_name, body, fields) => {
      expectWidgetError(await call('POST', '/documents', body), 400, 'invalid_body', fields);
    });
  });

  describe('editing', () => {
    it('saves a letter’s edits as revisions and lists documents latest first', async () => {
      const letter = await createDocument({ documentType: 'letter' });
      h.clock.advance(1000);
      const form = await createDocument({ documentType: 'form' });
      const edited = await call('PUT', `/documents/${letter.id}`, {
        title: 'Your visit on 4 March',
        content: 'Dear Jane,\n\nRest and drink fluids.',
        format: 'pdf',
        revision: 1,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json<WidgetDocument>()).toMatchObject({
        id: letter.id,
        title: 'Your visit on 4 March',
        content: 'Dear Jane,\n\nRest and drink fluids.',
        format: 'pdf',
        pushDocumentType: 'pdf',
        revision: 2,
      });
      const listed = (await call('GET', '/documents')).json<WidgetDocumentList>().documents;
      expect(listed.map((document) => [document.id, document.revision])).toEqual([
        [form.id, 1],
        [letter.id, 2],
      ]);
      expectWidgetError(
        await call('PUT', `/documents/${letter.id}`, { title: 'Late', revision: 1 }),
        409,
        'revision_conflict',
      );
    });

    it('edits a form through its fields and rewrites its content from them', async () => {
      const form = await createDocument({ documentType: 'form' });
      const edited = await call('PUT', `/documents/${form.id}`, { fields: { plan: ' Return in two weeks.\n' } });
      expect(edited.statusCode, edited.body).toBe(200);
      const saved = edited.json<WidgetDocument>();
      expect(saved.fields?.find((field) => field.key === 'plan')?.value).toBe('Return in two weeks.');
      expect(saved.content).toContain('\nPlan: Return in two weeks.\n');
      // Only the plan line changed.
      expect(saved.content.replace(/^Plan:.*$/m, '')).toBe(form.content.replace(/^Plan:.*$/m, ''));
    });

    it.each<[string, string, unknown, string[]]>([
      ['nothing to change', 'letter', {}, ['']],
      ['an empty title', 'letter', { title: '' }, ['title']],
      ['content too long', 'letter', { content: 'x'.repeat(100_001) }, ['content']],
      ['fields on a letter', 'letter', { fields: { plan: 'x' } }, ['fields']],
      ['content on a form', 'form', { content: 'x' }, ['content']],
      ['content with fields', 'form', { content: 'x', fields: { plan: 'y' } }, ['content']],
      ['an unknown field of a form', 'form', { fields: { plan: 'x', bogus: 'y' } }, ['fields.bogus']],
      ['a field value too long', 'form', { fields: { plan: 'x'.repeat(5001) } }, ['fields.plan']],
    ])('refuses %s, naming the field', async (_name, documentType, body, fields) => {
      const document = await createDocument({ documentType });
      expectWidgetError(await call('PUT', `/documents/${document.id}`, body), 400, 'invalid_body', fields);
    });

    it('answers 404 for a document of another encounter', async () => {
      const letter = await createDocument({ documentType: 'letter' });
      const other = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-2' });
      const url = `/api/widget/encounters/${other.sessionId}/documents/${letter.id}`;
      expectWidgetError(await widgetCall(h, other.token, 'PUT', url, { title: 'x' }), 404, 'document_not_found');
      expectWidgetError(await widgetCall(h, other.token, 'POST', `${url}/pdf`), 404, 'document_not_found');
    });
  });

  describe.skipIf(!havePdftotext)('PDF links', () => {
    async function pdfLink(documentId: string): Promise<WidgetDocumentPdf> {
      const response = await call('POST', `/documents/${documentId}/pdf`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      return response.json<WidgetDocumentPdf>();
    }

    /** Fetches a link the way an EMR's server would: no credentials, just the URL. */
    const download = (url: string): Promise<LightMyRequestResponse> =>
      h.app.inject({ method: 'GET', url: url.replace(h.config.widgetBaseUrl, '') });

    function expectPdf(response: LightMyRequestResponse, filename: string): string {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.rawPayload.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
      return flattened(pdfText(response.rawPayload));
    }

    it('links a referral’s PDF that a real reader opens, with the document’s text and no PHI in the link', async () => {
      const referral = await createDocument({ documentType: 'referral', recipient: 'Dr. Lee, Respirology' });
      const link = await pdfLink(referral.id);
      expect(link).toMatchObject({
        documentId: referral.id,
        revision: 1,
        expiresAt: new Date(Math.floor(h.clock.now() / 1000) * 1000 + 900_000).toISOString(),
        filename: `referral-letter-${referral.id}.pdf`,
      });
      const url = new URL(link.pdfUrl);
      expect(`${url.origin}${url.pathname}`).toBe(`http://widget.test/api/widget/documents/${referral.id}/pdf`);
      expect([...url.searchParams.keys()]).toEqual(['revision', 'expires', 'signature']);
      for (const phi of ['Jane', 'Doe', 'MRN-0042', '1234-567-890', widget.sessionId]) {
        expect(link.pdfUrl).not.toContain(phi);
      }

      const text = expectPdf(await download(link.pdfUrl), link.filename);
      expect(text).toContain('Referral letter');
      // Every line of the document is in the PDF (wrapping aside; bullets become •).
      for (const line of referral.content.split('\n').filter((candidate) => candidate.trim() !== '')) {
        expect(text).toContain(flattened(line.replace(/^- /, '• ')));
      }
      expect(text).toContain('Page 1 of');
    });

    it('keeps serving the revision it was made for after an edit; a new link serves the edit', async () => {
      const form = await createDocument({ documentType: 'form' });
      const before = await pdfLink(form.id);
      await call('PUT', `/documents/${form.id}`, {
        fields: { plan: 'Zoë returns in two weeks.' },
        title: 'Visit form',
      });
      const after = await pdfLink(form.id);
      expect(after.revision).toBe(2);

      const old = expectPdf(await download(before.pdfUrl), before.filename);
      expect(old).toContain('Encounter summary form');
      expect(old).not.toContain('returns in two weeks');
      const fresh = expectPdf(await download(after.pdfUrl), after.filename);
      expect(fresh).toContain('Visit form');
      expect(fresh).toContain('Plan: Zoë returns in two weeks.');
    });

    it('refuses an expired link, and lasts WIDGET_PDF_LINK_TTL_SECONDS', async () => {
      const letter = await createDocument({ documentType: 'pdf' });
      const link = await pdfLink(letter.id);
      h.clock.advance(Date.parse(link.expiresAt) - h.clock.now() - 1);
      expect((await download(link.pdfUrl)).statusCode).toBe(200);
      h.clock.advance(1);
      const expired = await download(link.pdfUrl);
      expectWidgetError(expired, 403, 'pdf_link_expired');
      expect(expired.headers['content-type']).toMatch(/^application\/json/);

      await h.close();
      await setUp({ config: { widgetPdfLinks: { ttlSeconds: 60, secret: 'a-configured-secret-of-32-characters!' } } });
      const short = await pdfLink((await createDocument({ documentType: 'letter' })).id);
      expect(Date.parse(short.expiresAt) - Math.floor(h.clock.now() / 1000) * 1000).toBe(60_000);
    });

    it('refuses altered, incomplete and foreign links', async () => {
      const letter = await createDocument({ documentType: 'letter' });
      const form = await createDocument({ documentType: 'form' });
      const link = new URL((await pdfLink(letter.id)).pdfUrl);
      const formLink = new URL((await pdfLink(form.id)).pdfUrl);
      const signature = link.searchParams.get('signature') ?? '';
      const altered = (change: (url: URL) => void) => {
        const copy = new URL(link);
        change(copy);
        return copy.toString();
      };
      const refused = [
        altered((url) => url.searchParams.set('revision', '2')),
        altered((url) => url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600))),
        altered((url) =>
          url.searchParams.set('signature', `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`),
        ),
        altered((url) => url.searchParams.set('signature', formLink.searchParams.get('signature') ?? '')),
        altered((url) => (url.pathname = `/api/widget/documents/${form.id}/pdf`)),
        altered((url) => url.searchParams.delete('signature')),
        altered((url) => url.searchParams.set('revision', '-1')),
        altered((url) => (url.search = '')),
      ];
      for (const url of refused) expectWidgetError(await download(url), 403, 'invalid_pdf_link');
      // Another instance with another key does not honour this one's links.
      const elsewhere = await createHarness({
        dialect,
        config: {
          widgetPdfLinks: { ...testConfig().widgetPdfLinks, secret: 'another-instance-s-pdf-link-secret-0123' },
        },
      });
      try {
        const response = await elsewhere.app.inject({ method: 'GET', url: link.pathname + link.search });
        expectWidgetError(response, 403, 'invalid_pdf_link');
      } finally {
        await elsewhere.close();
      }
    });

    it('stops serving once the document is gone or its partner revoked', async () => {
      const letter = await createDocument({ documentType: 'letter' });
      const link = await pdfLink(letter.id);
      await h.partners.revoke(partner.id);
      expectWidgetError(await download(link.pdfUrl), 401, 'partner_revoked');
      await h.repositories.encounterDocuments.deleteExpired(Date.parse(letter.expiresAt));
      expectWidgetError(await download(link.pdfUrl), 404, 'document_not_found');
    });

    it('never writes patient data, note text or the link’s signature to the logs', async () => {
      await h.close();
      await setUp({ config: { logLevel: 'trace' } });
      const referral = await createDocument({ documentType: 'referral' });
      await call('PUT', `/documents/${referral.id}`, { content: `${referral.content}\nEdited by hand.` });
      const link = await pdfLink(referral.id);
      expectPdf(await download(link.pdfUrl), link.filename);
      await download(link.pdfUrl.replace(/signature=[^&]+/, 'signature=forged'));
      await call('PUT', `/notes/${note.id}`, { sections: { bogus: 'Secret clinical words' } });
      expect(h.logs.text).toContain('/api/widget/documents/');
      const signature = new URL(link.pdfUrl).searchParams.get('signature') ?? '';
      for (const secret of [
        'Jane',
        'Doe',
        'MRN-0042',
        '1234-567-890',
        'cough',
        'Edited by hand',
        'Secret',
        signature,
      ]) {
        expect(h.logs.text).not.toContain(secret);
      }
    });

    it('answers 404 for a PDF of a document not in the encounter', async () => {
      expectWidgetError(await call('POST', '/documents/doc_unknown/pdf'), 404, 'document_not_found');
    });
  });
});
