import { describe, expect, it } from 'vitest';

import { WIDGET_ERROR_CODES, widgetErrorFor } from './errors.js';
import {
  validateEmrToWidgetMessage,
  validateWidgetToEmrMessage,
  type WidgetMessageInvalid,
} from './validate-message.js';

function refused(input: unknown): WidgetMessageInvalid {
  const result = validateEmrToWidgetMessage(input);
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

const patient = { id: 'pt-0001', name: 'Alex Example' };

describe('WIDGET_ERROR_CODES', () => {
  it('lists each code with a one-line meaning, frozen', () => {
    expect(Object.keys(WIDGET_ERROR_CODES)).toEqual([
      'INVALID_PATIENT_DATA',
      'INVALID_MESSAGE',
      'MICROPHONE_NOT_ALLOWED',
      'PATIENT_MISMATCH',
    ]);
    for (const meaning of Object.values(WIDGET_ERROR_CODES)) expect(meaning).toMatch(/^[^\n]+\.$/);
    expect(Object.isFrozen(WIDGET_ERROR_CODES)).toBe(true);
  });
});

describe('widgetErrorFor', () => {
  // The interface's "common validation failures", each as the WIDGET_ERROR the EMR receives.
  it.each<[string, unknown, string]>([
    ['missing patient.id', { name: 'Alex Example' }, 'patient.id: is required'],
    ['missing patient.name', { id: 'pt-0001' }, 'patient.name: is required'],
    [
      'gender outside the set',
      { ...patient, gender: 'x' },
      'patient.gender: must be one of male, female, other, unknown',
    ],
    ['invalid email', { ...patient, email: 'nope' }, 'patient.email: must be a valid e-mail address'],
  ])('reports %s as INVALID_PATIENT_DATA', (_case, badPatient, message) => {
    expect(widgetErrorFor(refused({ type: 'PATIENT_CONTEXT', patient: badPatient }))).toEqual({
      type: 'WIDGET_ERROR',
      code: 'INVALID_PATIENT_DATA',
      message,
    });
  });

  it.each(['1plan', 'plan-b'])('reports the section key %j as INVALID_PATIENT_DATA', (key) => {
    const input = { type: 'PATIENT_CONTEXT', patient, noteConfig: { sections: [{ key, label: 'Plan' }] } };
    expect(widgetErrorFor(refused(input))).toEqual({
      type: 'WIDGET_ERROR',
      code: 'INVALID_PATIENT_DATA',
      message: 'noteConfig.sections[0].key: must start with a letter and contain only letters, digits and underscore',
    });
  });

  it('joins every entry with "; "', () => {
    const result = refused({ type: 'PATIENT_CONTEXT', patient: { gender: 'F' } });
    expect(result.entries).toHaveLength(3);
    expect(widgetErrorFor(result)).toEqual({
      type: 'WIDGET_ERROR',
      code: 'INVALID_PATIENT_DATA',
      message: result.entries.join('; '),
    });
  });

  it('uses INVALID_MESSAGE for every other message and for payloads without a known type', () => {
    for (const input of [{ type: 'SET_CONTEXT' }, { type: 'TOKEN_REFRESH', token: '' }, { type: 'FOO' }, null, {}]) {
      const result = refused(input);
      expect(widgetErrorFor(result)).toEqual({
        type: 'WIDGET_ERROR',
        code: 'INVALID_MESSAGE',
        message: result.entries.join('; '),
      });
    }
  });

  it('produces a WIDGET_ERROR that itself validates', () => {
    const error = widgetErrorFor(refused({ type: 'PATIENT_CONTEXT', patient: {} }));
    expect(validateWidgetToEmrMessage(error)).toEqual({ ok: true, message: error });
  });
});
