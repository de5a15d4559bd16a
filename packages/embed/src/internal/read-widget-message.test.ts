import { validateWidgetToEmrMessage, type WidgetToEmrMessage } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import { readWidgetMessage } from './read-widget-message.js';

/** One valid message of every type, as the widget sends them. */
const VALID: WidgetToEmrMessage[] = [
  { type: 'WIDGET_READY', version: '0.1.0' },
  { type: 'SESSION_STARTED', sessionId: 'ses_1' },
  {
    type: 'PUSH_NOTE',
    note: 'HPI\n\nCough.',
    sections: { hpi: 'Cough.', exam: '' },
    transcript: 'Clinician: hello',
    sessionId: 'ses_1',
    patientId: 'MRN-1',
  },
  { type: 'PUSH_NOTE', note: '', sessionId: 'ses_1', patientId: 'MRN-1' },
  {
    type: 'PUSH_DOCUMENT',
    title: 'Letter',
    content: 'Dear Ann',
    documentType: 'pdf',
    pdfUrl: 'https://scribe.example.org/api/widget/documents/doc_1/pdf?signature=x',
    sessionId: 'ses_1',
    patientId: 'MRN-1',
  },
  { type: 'REQUEST_PATIENT_CONTEXT' },
  { type: 'TOKEN_EXPIRING', expiresInMs: 120_000 },
  { type: 'REQUEST_TOKEN_REFRESH' },
  { type: 'TOKEN_EXPIRED' },
  { type: 'WIDGET_ERROR', code: 'INVALID_PATIENT_DATA', message: 'patient.id: is required' },
];

describe('readWidgetMessage', () => {
  it.each(VALID.map((message) => [message.type, message] as const))(
    'reads a valid %s exactly as the protocol’s validator does',
    (_type, message) => {
      const protocol = validateWidgetToEmrMessage(message);
      expect(protocol.ok).toBe(true);
      expect(readWidgetMessage(message)).toEqual({ kind: 'message', message: protocol.ok ? protocol.message : null });
    },
  );

  it('drops fields the contract does not name, as the protocol does', () => {
    const read = readWidgetMessage({ type: 'SESSION_STARTED', sessionId: 'ses_1', debug: { secret: 1 } });
    expect(read).toEqual({ kind: 'message', message: { type: 'SESSION_STARTED', sessionId: 'ses_1' } });
  });

  it.each([
    null,
    undefined,
    'PUSH_NOTE',
    42,
    [],
    {},
    { type: 7 },
    { type: 'FUTURE_MESSAGE', x: 1 },
    { type: 'toString' },
  ])('ignores %j: not a message of a type this version knows (a newer widget may add types)', (data) => {
    expect(readWidgetMessage(data)).toEqual({ kind: 'unknown' });
  });

  it.each([
    [{ type: 'WIDGET_READY' }, ['version: must be a string']],
    [{ type: 'SESSION_STARTED', sessionId: '' }, ['sessionId: must be a non-empty string']],
    [
      { type: 'PUSH_NOTE', note: 3, sections: { a: 1 }, transcript: false, sessionId: 's', patientId: null },
      [
        'sections: must map section keys to strings',
        'transcript: must be a string when present',
        'note: must be a string',
        'patientId: must be a non-empty string',
      ],
    ],
    [
      { type: 'PUSH_DOCUMENT', title: 't', content: 'c', documentType: 'fax', sessionId: 's', patientId: 'p' },
      ['documentType: must be one of letter, referral, form, pdf'],
    ],
    [{ type: 'TOKEN_EXPIRING', expiresInMs: -1 }, ['expiresInMs: must be a number of milliseconds, 0 or more']],
    [{ type: 'TOKEN_EXPIRING', expiresInMs: '60000' }, ['expiresInMs: must be a number of milliseconds, 0 or more']],
    [{ type: 'WIDGET_ERROR', message: 'x' }, ['code: must be a non-empty string']],
  ])('names every problem of a malformed known message: %j', (data, problems) => {
    expect(validateWidgetToEmrMessage(data).ok).toBe(false);
    expect(readWidgetMessage(data)).toEqual({ kind: 'invalid', type: data.type, problems });
  });
});
