import { describe, expect, it } from 'vitest';

import { validateWidgetToEmrMessage } from './validate-message.js';
import { WIDGET_TO_EMR_MESSAGE_TYPES, widgetToEmrMessageSchema } from './widget-messages.js';

const ids = { sessionId: 'conv-0001', patientId: 'pt-0001' };

function entriesOf(input: unknown): string[] {
  const result = validateWidgetToEmrMessage(input);
  return result.ok ? [] : result.entries;
}

describe('widget → EMR message types', () => {
  it('lists each type once, frozen, in step with the union', () => {
    expect(WIDGET_TO_EMR_MESSAGE_TYPES).toHaveLength(9);
    expect(new Set(WIDGET_TO_EMR_MESSAGE_TYPES).size).toBe(9);
    expect(Object.isFrozen(WIDGET_TO_EMR_MESSAGE_TYPES)).toBe(true);
    expect(widgetToEmrMessageSchema.options.map((option) => option.shape.type.value)).toEqual([
      ...WIDGET_TO_EMR_MESSAGE_TYPES,
    ]);
  });
});

describe('valid widget → EMR messages', () => {
  it.each([
    { type: 'WIDGET_READY', version: '1.4.0' },
    { type: 'SESSION_STARTED', sessionId: 'conv-0001' },
    { type: 'PUSH_NOTE', note: 'S: cough. P: rest.', ...ids },
    {
      type: 'PUSH_NOTE',
      note: 'S: cough.',
      sections: { subjective: 'cough', plan: '' },
      transcript: 'Speaker 1: hello',
      ...ids,
    },
    { type: 'PUSH_NOTE', note: '', sections: {}, ...ids },
    { type: 'PUSH_DOCUMENT', title: 'Referral', content: 'Dear colleague', documentType: 'referral', ...ids },
    {
      type: 'PUSH_DOCUMENT',
      title: 'Summary',
      content: '',
      documentType: 'pdf',
      pdfUrl: 'https://widget.example.test/doc.pdf',
      ...ids,
    },
    { type: 'PUSH_DOCUMENT', title: 'Letter', content: 'x', documentType: 'letter', ...ids },
    { type: 'PUSH_DOCUMENT', title: 'Form', content: 'x', documentType: 'form', ...ids },
    { type: 'REQUEST_PATIENT_CONTEXT' },
    { type: 'TOKEN_EXPIRING', expiresInMs: 300_000 },
    { type: 'TOKEN_EXPIRING', expiresInMs: 0 },
    { type: 'REQUEST_TOKEN_REFRESH' },
    { type: 'TOKEN_EXPIRED' },
    { type: 'WIDGET_ERROR', code: 'INVALID_PATIENT_DATA', message: 'patient.id: is required' },
    { type: 'WIDGET_ERROR', code: 'SOME_FUTURE_CODE', message: '' },
  ])('accepts $type %#', (message) => {
    expect(validateWidgetToEmrMessage(message)).toEqual({ ok: true, message });
  });

  it('drops unknown fields a newer widget may add', () => {
    expect(validateWidgetToEmrMessage({ type: 'WIDGET_READY', version: '2.0.0', features: ['x'] })).toEqual({
      ok: true,
      message: { type: 'WIDGET_READY', version: '2.0.0' },
    });
  });
});

describe('invalid widget → EMR messages', () => {
  it.each<[unknown, string[]]>([
    [{ type: 'WIDGET_READY' }, ['version: is required']],
    [{ type: 'WIDGET_READY', version: 1 }, ['version: must be a string, not a number']],
    [{ type: 'SESSION_STARTED' }, ['sessionId: is required']],
    [{ type: 'SESSION_STARTED', sessionId: '' }, ['sessionId: must not be empty']],
    [{ type: 'PUSH_NOTE', ...ids }, ['note: is required']],
    [{ type: 'PUSH_NOTE', note: 'n' }, ['sessionId: is required', 'patientId: is required']],
    [
      { type: 'PUSH_NOTE', note: 'n', sessionId: '', patientId: '' },
      ['sessionId: must not be empty', 'patientId: must not be empty'],
    ],
    [
      { type: 'PUSH_NOTE', note: 'n', sections: { plan: 3 }, ...ids },
      ['sections.plan: must be a string, not a number'],
    ],
    // A colon in a free-form key is escaped, so every entry still splits at its first colon.
    [
      { type: 'PUSH_NOTE', note: 'n', sections: { 'a:b': 1 }, ...ids },
      ['sections.a\\u003ab: must be a string, not a number'],
    ],
    [{ type: 'PUSH_NOTE', note: 'n', sections: ['a'], ...ids }, ['sections: must be an object']],
    [{ type: 'PUSH_NOTE', note: 'n', transcript: null, ...ids }, ['transcript: must be a string, not null']],
    [
      { type: 'PUSH_DOCUMENT', ...ids },
      ['title: is required', 'content: is required', 'documentType: must be one of letter, referral, form, pdf'],
    ],
    [
      { type: 'PUSH_DOCUMENT', title: 't', content: 'c', documentType: 'Letter', pdfUrl: 5, ...ids },
      ['documentType: must be one of letter, referral, form, pdf', 'pdfUrl: must be a string, not a number'],
    ],
    [
      { type: 'PUSH_DOCUMENT', title: 't', content: 'c', documentType: 'pdf' },
      ['sessionId: is required', 'patientId: is required'],
    ],
    [{ type: 'TOKEN_EXPIRING' }, ['expiresInMs: is required']],
    [{ type: 'TOKEN_EXPIRING', expiresInMs: '1000' }, ['expiresInMs: must be a number, not a string']],
    [{ type: 'TOKEN_EXPIRING', expiresInMs: -1 }, ['expiresInMs: must be at least 0']],
    [{ type: 'TOKEN_EXPIRING', expiresInMs: Number.NaN }, ['expiresInMs: must be a finite number']],
    [{ type: 'WIDGET_ERROR' }, ['code: is required', 'message: is required']],
    [{ type: 'WIDGET_ERROR', code: '', message: 'm' }, ['code: must not be empty']],
    [
      { type: 'PATIENT_CONTEXT', patient: {} },
      [
        'type: unknown message type "PATIENT_CONTEXT", expected one of WIDGET_READY, SESSION_STARTED, PUSH_NOTE, PUSH_DOCUMENT, REQUEST_PATIENT_CONTEXT, TOKEN_EXPIRING, REQUEST_TOKEN_REFRESH, TOKEN_EXPIRED, WIDGET_ERROR',
      ],
    ],
    [null, ['message: must be an object, not null']],
    [{ version: '1' }, ['type: is required']],
  ])('refuses %j', (input, entries) => {
    expect(entriesOf(input)).toEqual(entries);
  });

  it('reports the type it was given', () => {
    expect(validateWidgetToEmrMessage({ type: 'PUSH_NOTE' })).toMatchObject({ ok: false, type: 'PUSH_NOTE' });
    expect(validateWidgetToEmrMessage({ type: 'NOPE' })).toMatchObject({ ok: false, type: 'NOPE' });
    expect(validateWidgetToEmrMessage([])).toMatchObject({ ok: false, type: null });
  });
});
