import { validateWidgetToEmrMessage, type WidgetDocument, type WidgetNote } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import { editedSections, pushDocumentOf, pushNoteOf } from './push-messages.js';

const NOTE: WidgetNote = {
  id: 'note_1',
  sessionId: 'ses_1',
  revision: 2,
  templateId: 'headings_abc',
  templateVersion: 1,
  headings: [
    { key: 'story', label: 'History' },
    { key: 'billing', label: 'Billing codes' },
  ],
  sections: { story: 'Cough for three days.', billing: '' },
  note: 'HISTORY\n\nCough for three days.',
  transcript: 'Patient: I have had a cough for three days.',
  source: 'transcript',
  engine: { name: 'extractive', version: '1' },
  fallback: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-31T00:00:00.000Z',
  style: 'detailed',
  flags: [],
  omissions: [],
  warnings: [],
  verification: null,
};

const DOCUMENT: WidgetDocument = {
  id: 'doc_1',
  sessionId: 'ses_1',
  documentType: 'letter',
  format: 'pdf',
  pushDocumentType: 'pdf',
  title: 'Letter to patient',
  content: 'Dear Ana, …',
  fields: null,
  noteId: 'note_1',
  recipient: null,
  revision: 1,
  origin: 'generated',
  previousEdit: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-31T00:00:00.000Z',
};

const TARGET = { encounterId: 'ses_1', patientId: 'MRN 0042' };

describe('pushNoteOf', () => {
  it('carries the note, its sections under the EMR’s keys (empty ones too), the transcript and the ids', () => {
    const message = pushNoteOf(NOTE, TARGET);
    expect(message).toEqual({
      type: 'PUSH_NOTE',
      note: 'HISTORY\n\nCough for three days.',
      sections: { story: 'Cough for three days.', billing: '' },
      transcript: 'Patient: I have had a cough for three days.',
      sessionId: 'ses_1',
      patientId: 'MRN 0042',
    });
    expect(validateWidgetToEmrMessage(message)).toEqual({ ok: true, message });
  });
});

describe('pushDocumentOf', () => {
  it('sends a PDF document as documentType pdf with its link', () => {
    const message = pushDocumentOf(DOCUMENT, TARGET, 'https://widget.example/api/widget/documents/doc_1/pdf?x');
    expect(message).toEqual({
      type: 'PUSH_DOCUMENT',
      title: 'Letter to patient',
      content: 'Dear Ana, …',
      documentType: 'pdf',
      pdfUrl: 'https://widget.example/api/widget/documents/doc_1/pdf?x',
      sessionId: 'ses_1',
      patientId: 'MRN 0042',
    });
    expect(validateWidgetToEmrMessage(message)).toEqual({ ok: true, message });
  });

  it('leaves pdfUrl out of a text document', () => {
    const message = pushDocumentOf({ ...DOCUMENT, format: 'text', pushDocumentType: 'letter' }, TARGET);
    expect(message).not.toHaveProperty('pdfUrl');
    expect(message.documentType).toBe('letter');
  });
});

describe('editedSections', () => {
  it('keeps only the note’s sections whose text changed', () => {
    expect(editedSections(NOTE, { story: 'Cough for three days.', billing: 'J06.9', other: 'x' })).toEqual({
      billing: 'J06.9',
    });
    expect(editedSections(NOTE, { ...NOTE.sections })).toEqual({});
  });
});
