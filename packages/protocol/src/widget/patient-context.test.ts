import { describe, expect, it } from 'vitest';

import { validate } from '../validation.js';
import { widgetAppointmentSchema } from './appointment.js';
import { widgetMedicalContextSchema } from './medical-context.js';
import { widgetPatientSchema } from './patient.js';
import { validateEmrToWidgetMessage } from './validate-message.js';

// Synthetic fixtures only.
const patient = { id: 'pt-0001', name: 'Alex Example' };

function patientContext(fields: Record<string, unknown>): unknown {
  return { type: 'PATIENT_CONTEXT', patient, ...fields };
}

/** The entries of a refused message, or a failure naming the value that was accepted. */
function entriesOf(input: unknown): string[] {
  const result = validateEmrToWidgetMessage(input);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.message)}`);
  return result.entries;
}

function accepted(input: unknown) {
  const result = validateEmrToWidgetMessage(input);
  if (!result.ok) throw new Error(`expected acceptance, got ${result.entries.join('; ')}`);
  return result.message;
}

function acceptedPatient(fields: Record<string, unknown>) {
  const message = accepted({ type: 'PATIENT_CONTEXT', patient: fields });
  if (message.type !== 'PATIENT_CONTEXT') throw new Error('wrong type');
  return message.patient;
}

describe('PATIENT_CONTEXT.patient', () => {
  it('accepts the minimum patient, id and name only, and fills the name parts', () => {
    expect(accepted(patientContext({}))).toEqual({
      type: 'PATIENT_CONTEXT',
      patient: { id: 'pt-0001', name: 'Alex Example', firstName: 'Alex', lastName: 'Example' },
    });
  });

  it('accepts every documented field', () => {
    const full = {
      id: 'pt-0002',
      name: 'Sam Sample',
      firstName: 'Sam',
      lastName: 'Sample',
      dob: '1980-02-29',
      gender: 'other',
      healthCardNumber: '0000-000-000',
      email: 'sam.sample@example.test',
      phone: '555-0100',
    };
    expect(acceptedPatient(full)).toEqual(full);
  });

  it('reports a missing id and a missing name (spec: common validation failures)', () => {
    expect(entriesOf({ type: 'PATIENT_CONTEXT', patient: {} })).toEqual([
      'patient.id: is required',
      'patient.name: is required',
    ]);
  });

  it('reports a missing patient', () => {
    expect(entriesOf({ type: 'PATIENT_CONTEXT' })).toEqual(['patient: is required']);
    expect(entriesOf({ type: 'PATIENT_CONTEXT', patient: 'pt-0001' })).toEqual([
      'patient: must be an object, not a string',
    ]);
  });

  it('refuses an id or name that is empty after trimming, and keeps the trimmed value', () => {
    expect(entriesOf({ type: 'PATIENT_CONTEXT', patient: { id: '  ', name: '' } })).toEqual([
      'patient.id: must not be empty',
      'patient.name: must not be empty',
    ]);
    expect(acceptedPatient({ id: '  pt-0003\t', name: ' Alex Example ' })).toMatchObject({
      id: 'pt-0003',
      name: 'Alex Example',
    });
  });

  it('refuses ids and names of the wrong type', () => {
    expect(entriesOf({ type: 'PATIENT_CONTEXT', patient: { id: 42, name: ['Alex'] } })).toEqual([
      'patient.id: must be a string, not a number',
      'patient.name: must be a string, not an array',
    ]);
  });

  it.each(['male', 'female', 'other', 'unknown'])('accepts gender %s', (gender) => {
    expect(acceptedPatient({ ...patient, gender }).gender).toBe(gender);
  });

  it.each([
    [' Female ', 'female'],
    ['MALE', 'male'],
    ['\tOther\n', 'other'],
    ['Unknown', 'unknown'],
  ])('normalizes gender %j to %s', (gender, expected) => {
    expect(acceptedPatient({ ...patient, gender }).gender).toBe(expected);
  });

  it.each(['f', 'woman', '', 'non-binary'])('refuses gender %j outside the set (spec: common failures)', (gender) => {
    expect(entriesOf(patientContext({ patient: { ...patient, gender } }))).toEqual([
      'patient.gender: must be one of male, female, other, unknown',
    ]);
  });

  it('accepts a valid e-mail or the empty string, and refuses anything else (spec: invalid email)', () => {
    expect(acceptedPatient({ ...patient, email: 'a.b@example.test' }).email).toBe('a.b@example.test');
    expect(acceptedPatient({ ...patient, email: '' }).email).toBe('');
    for (const email of ['not-an-email', 'a@b', ' ', 'a@example.test ']) {
      expect(entriesOf(patientContext({ patient: { ...patient, email } }))).toEqual([
        'patient.email: must be a valid e-mail address',
      ]);
    }
    expect(entriesOf(patientContext({ patient: { ...patient, email: null } }))).toEqual([
      'patient.email: must be a string, not null',
    ]);
  });

  it('refuses optional string fields that are not strings', () => {
    const bad = { ...patient, firstName: 1, lastName: true, dob: 19800229, healthCardNumber: {}, phone: [] };
    expect(entriesOf(patientContext({ patient: bad }))).toEqual([
      'patient.firstName: must be a string, not a number',
      'patient.lastName: must be a string, not a boolean',
      'patient.dob: must be a string, not a number',
      'patient.healthCardNumber: must be a string, not an object',
      'patient.phone: must be a string, not an array',
    ]);
  });

  it('fills only the omitted name part and never overrides a given one', () => {
    expect(acceptedPatient({ id: 'p', name: 'Ludwig van Beethoven' })).toMatchObject({
      firstName: 'Ludwig',
      lastName: 'van Beethoven',
    });
    expect(acceptedPatient({ id: 'p', name: 'Alex Example', firstName: 'Lex' })).toMatchObject({
      firstName: 'Lex',
      lastName: 'Example',
    });
    expect(acceptedPatient({ id: 'p', name: 'Alex Example', lastName: 'Other' })).toMatchObject({
      firstName: 'Alex',
      lastName: 'Other',
    });
    expect(acceptedPatient({ id: 'p', name: 'Alex Example', firstName: '', lastName: ' Ex ' })).toMatchObject({
      firstName: '',
      lastName: 'Ex',
    });
  });

  it('drops unknown fields instead of refusing them', () => {
    const message = accepted({
      type: 'PATIENT_CONTEXT',
      patient: { ...patient, mrn: 'X-1' },
      context: { allergies: [{ name: 'Peanut', code: 'p' }], vitals: {} },
      appointment: { room: 4 },
      noteConfig: { sections: [{ key: 'plan', label: 'Plan', hint: 'x' }], style: 'short' },
      sentAt: 123,
    });
    expect(message).toEqual({
      type: 'PATIENT_CONTEXT',
      patient: { ...patient, firstName: 'Alex', lastName: 'Example' },
      context: { allergies: [{ name: 'Peanut' }] },
      appointment: {},
      noteConfig: { sections: [{ key: 'plan', label: 'Plan' }] },
    });
  });

  it('is exported on its own, with the same rules', () => {
    expect(validate(widgetPatientSchema, { id: 'p', name: 'Cher' })).toEqual({
      ok: true,
      value: { id: 'p', name: 'Cher', firstName: 'Cher', lastName: '' },
    });
  });
});

describe('PATIENT_CONTEXT.context', () => {
  const full = {
    allergies: [{ name: 'Penicillin', severity: 'severe', reaction: 'Rash' }],
    medications: [
      { name: 'Examplamine', dosage: '10 mg', frequency: 'daily', startDate: '2024-01-01', status: 'active' },
    ],
    diagnoses: [
      { name: 'Sample condition', code: 'Z00.0', codeSystem: 'ICD-10', date: '2024-01-02', status: 'resolved' },
    ],
    labResults: [{ name: 'HbA1c', value: '5.6', unit: '%', date: '2024-01-03', normalRange: '4.0-5.6' }],
    chiefComplaint: 'Cough',
    medicalHistory: 'None of note',
    customData: { visitCount: 3, nested: { flag: true } },
  };

  it('accepts every documented field, and an empty or omitted context', () => {
    expect(validate(widgetMedicalContextSchema, full)).toEqual({ ok: true, value: full });
    expect(validate(widgetMedicalContextSchema, {})).toEqual({ ok: true, value: {} });
    expect(accepted(patientContext({}))).not.toHaveProperty('context');
  });

  it.each([
    ['allergies', 'severity', ' Moderate ', 'moderate'],
    ['allergies', 'severity', 'MILD', 'mild'],
    ['medications', 'status', 'Discontinued', 'discontinued'],
    ['medications', 'status', ' ACTIVE', 'active'],
    ['diagnoses', 'status', 'Resolved ', 'resolved'],
    ['diagnoses', 'status', 'active', 'active'],
  ])('normalizes %s[].%s %j to %s', (list, field, value, expected) => {
    const result = validate(widgetMedicalContextSchema, { [list]: [{ name: 'X', [field]: value }] });
    expect(result).toEqual({ ok: true, value: { [list]: [{ name: 'X', [field]: expected }] } });
  });

  it('refuses values outside each enum with the allowed set', () => {
    const context = {
      allergies: [{ name: 'A', severity: 'high' }],
      medications: [{ name: 'M', status: 'paused' }],
      diagnoses: [{ name: 'D', status: 'chronic' }],
    };
    expect(entriesOf(patientContext({ context }))).toEqual([
      'context.allergies[0].severity: must be one of mild, moderate, severe',
      'context.medications[0].status: must be one of active, discontinued',
      'context.diagnoses[0].status: must be one of active, resolved',
    ]);
  });

  it('requires a non-empty name on every list item, and keeps it trimmed', () => {
    const context = {
      allergies: [{ reaction: 'Rash' }],
      medications: [{ name: '  ' }],
      diagnoses: [{ name: 7 }],
      labResults: [{ name: 'ok' }, {}],
    };
    expect(entriesOf(patientContext({ context }))).toEqual([
      'context.allergies[0].name: is required',
      'context.medications[0].name: must not be empty',
      'context.diagnoses[0].name: must be a string, not a number',
      'context.labResults[1].name: is required',
    ]);
    expect(validate(widgetMedicalContextSchema, { labResults: [{ name: ' HbA1c ' }] })).toEqual({
      ok: true,
      value: { labResults: [{ name: 'HbA1c' }] },
    });
  });

  it('refuses lists, strings and customData of the wrong shape', () => {
    const context = { allergies: 'none', chiefComplaint: 5, medicalHistory: null, customData: ['a'] };
    expect(entriesOf(patientContext({ context }))).toEqual([
      'context.allergies: must be an array, not a string',
      'context.chiefComplaint: must be a string, not a number',
      'context.medicalHistory: must be a string, not null',
      'context.customData: must be an object, not an array',
    ]);
    expect(entriesOf(patientContext({ context: 'x' }))).toEqual(['context: must be an object, not a string']);
  });
});

describe('PATIENT_CONTEXT.appointment', () => {
  it('accepts every documented field, and durations of zero or more minutes', () => {
    const full = { id: 'ap-1', dateTime: '2024-05-01T09:30:00Z', type: 'Follow-up', duration: 15, reason: 'Review' };
    expect(validate(widgetAppointmentSchema, full)).toEqual({ ok: true, value: full });
    for (const duration of [0, 7.5, 240]) {
      expect(validate(widgetAppointmentSchema, { duration })).toEqual({ ok: true, value: { duration } });
    }
  });

  it('refuses a duration that is not a finite number of zero or more', () => {
    const cases: [unknown, string][] = [
      ['30', 'appointment.duration: must be a number, not a string'],
      [null, 'appointment.duration: must be a number, not null'],
      [-5, 'appointment.duration: must be at least 0'],
      [Number.NaN, 'appointment.duration: must be a finite number'],
      [Number.POSITIVE_INFINITY, 'appointment.duration: must be a finite number'],
    ];
    for (const [duration, expected] of cases) {
      expect(entriesOf(patientContext({ appointment: { duration } }))).toEqual([expected]);
    }
  });

  it('refuses optional strings that are not strings', () => {
    expect(entriesOf(patientContext({ appointment: { id: 12, dateTime: 0, type: false, reason: {} } }))).toEqual([
      'appointment.id: must be a string, not a number',
      'appointment.dateTime: must be a string, not a number',
      'appointment.type: must be a string, not a boolean',
      'appointment.reason: must be a string, not an object',
    ]);
  });
});

describe('a PATIENT_CONTEXT with many problems', () => {
  it('lists every problem at once, in field order', () => {
    const input = {
      type: 'PATIENT_CONTEXT',
      patient: { name: ' ', gender: 'F', email: 'x' },
      appointment: { duration: '15' },
      noteConfig: { sections: [{ key: '1st', label: 'First' }] },
    };
    expect(entriesOf(input)).toEqual([
      'patient.id: is required',
      'patient.name: must not be empty',
      'patient.gender: must be one of male, female, other, unknown',
      'patient.email: must be a valid e-mail address',
      'appointment.duration: must be a number, not a string',
      'noteConfig.sections[0].key: must start with a letter and contain only letters, digits and underscore',
    ]);
  });
});
