import { describe, expect, it } from 'vitest';

import type { Fact } from '@chartwright/protocol';

import { findCuratedTemplate } from '../../templates.js';
import type { Conversation } from '../../../text/conversation.js';
import { contextItems, correctionMessage, initialMessages, numberedConversation } from './prompt.js';

const conversation: Conversation = {
  turns: [
    { index: 0, speaker: 'clinician', speakerLabel: 'Dr. Okafor', text: 'Any allergies?', sentences: [] },
    {
      index: 1,
      speaker: 'patient',
      speakerLabel: 'Patient',
      text: 'Just\npenicillin,\r\nit gives me hives.',
      sentences: [],
    },
    { index: 2, speaker: 'other', speakerLabel: 'Nurse', text: 'Blood pressure is 128 over 82.', sentences: [] },
    { index: 3, speaker: 'unknown', speakerLabel: null, text: 'Okay.', sentences: [] },
  ],
};

describe('numberedConversation', () => {
  it('writes one numbered line per turn, with the speaker', () => {
    expect(numberedConversation(conversation).split('\n')).toEqual([
      '[0] clinician: Any allergies?',
      '[1] patient: Just penicillin, it gives me hives.',
      '[2] other (Nurse): Blood pressure is 128 over 82.',
      '[3] unknown speaker: Okay.',
    ]);
  });
});

describe('contextItems', () => {
  it('lists the context under evidence paths, leaving out identifiers and contact details', () => {
    // A caller's patient object may carry more than NotePatient declares: none of it is sent.
    const patient = {
      id: 'emr-991',
      name: 'Ada Example',
      firstName: 'Ada',
      lastName: 'Example',
      dob: '1970-02-03',
      gender: 'female' as const,
      healthCardNumber: '9876543210',
      email: 'ada@example.com',
      phone: '555-0100',
    };
    const items = contextItems({
      patient,
      medical: {
        allergies: [{ name: 'Penicillin', severity: 'moderate', reaction: 'hives' }],
        medications: [{ name: 'Metformin', dosage: '500 mg', frequency: 'twice daily', status: 'active' }],
        diagnoses: [{ name: 'Type 2 diabetes', code: 'E11', codeSystem: 'ICD-10' }],
        labResults: [{ name: 'HbA1c', value: '7.1', unit: '%' }],
        chiefComplaint: 'Cough',
        customData: { smoker: false },
      },
      extra: 'Seen last month for the same complaint.',
    });
    expect(items).toEqual([
      { path: 'patient.name', text: 'Ada Example' },
      { path: 'patient.dob', text: 'date of birth 1970-02-03' },
      { path: 'patient.gender', text: 'gender female' },
      { path: 'medical.chiefComplaint', text: 'chief complaint: Cough' },
      { path: 'medical.allergies[0]', text: 'allergy: Penicillin; severity: moderate; reaction: hives' },
      {
        path: 'medical.medications[0]',
        text: 'medication: Metformin; dosage: 500 mg; frequency: twice daily; status: active',
      },
      { path: 'medical.diagnoses[0]', text: 'diagnosis: Type 2 diabetes; code: ICD-10 E11' },
      { path: 'medical.labResults[0]', text: 'lab result: HbA1c; value: 7.1 %' },
      { path: 'medical.customData.smoker', text: 'smoker: false' },
      { path: 'extra', text: 'Seen last month for the same complaint.' },
    ]);
    const all = JSON.stringify(items);
    for (const secret of ['emr-991', '9876543210', 'ada@example.com', '555-0100']) expect(all).not.toContain(secret);
  });

  it('names the patient from the name parts when the full name is missing', () => {
    expect(contextItems({ patient: { firstName: 'Ada', lastName: 'Example', gender: 'unknown' } })).toEqual([
      { path: 'patient.name', text: 'Ada Example' },
    ]);
  });

  it('is empty without context', () => {
    expect(contextItems({})).toEqual([]);
  });
});

describe('initialMessages', () => {
  const template = findCuratedTemplate('history_and_physical')!;

  it('states the rules and every section key, label and guidance, then the conversation and context', () => {
    const [system, user] = initialMessages(template, conversation, { medical: { allergies: [{ name: 'Latex' }] } });
    expect(system?.role).toBe('system');
    expect(system?.content).toMatch(/clinical documentation/);
    expect(system?.content).toMatch(/Never invent/);
    expect(system?.content).toMatch(/leave that section an empty list/);
    for (const section of template.sections) {
      expect(system?.content).toContain(`"${section.key}" (${section.label}): ${section.description}`);
      expect(system?.content).toContain(`"${section.key}": [`);
    }
    expect(user?.role).toBe('user');
    expect(user?.content).toContain('[1] patient: Just penicillin, it gives me hives.');
    expect(user?.content).toContain('- medical.allergies[0]: allergy: Latex');
  });

  it('gives the fact sheet: ids, kind, polarity, whom each is about, evidence and certainty', () => {
    const facts: Fact[] = [
      {
        id: 'f1',
        kind: 'allergy',
        text: 'penicillin',
        substance: 'penicillin',
        reaction: 'hives',
        polarity: 'present',
        subject: { type: 'patient' },
        speaker: 'patient',
        source: { turns: [1], context: [] },
        certainty: 'low',
      },
      {
        id: 'f2',
        kind: 'history',
        text: 'breast cancer',
        category: 'family',
        item: 'breast cancer',
        polarity: 'present',
        subject: { type: 'relative', relation: 'mother' },
        speaker: 'patient',
        source: { turns: [3], context: [] },
        certainty: 'high',
      },
    ];
    const [system, user] = initialMessages(template, conversation, {}, facts);
    expect(system?.content).toMatch(/"facts": \[<fact ids>\]/);
    expect(user?.content).toContain(
      '- f1 [allergy; present; about the patient; turns 1; heard with low confidence]: penicillin',
    );
    expect(user?.content).toContain(
      "- f2 [history; present; about the patient's mother, not the patient; turns 3]: breast cancer",
    );
    expect(initialMessages(template, conversation, {})[1]?.content).toContain('Facts: none found.');
  });

  it('says so when there is no context', () => {
    expect(initialMessages(template, conversation, {})[1]?.content).toMatch(/Context: none\.$/);
  });
});

describe('correctionMessage', () => {
  it('lists the problems (at most 20) and the keys again', () => {
    const template = findCuratedTemplate('soap')!;
    const problems = Array.from({ length: 25 }, (_, index) => `problem ${index}`);
    const message = correctionMessage(template, problems);
    expect(message.role).toBe('user');
    expect(message.content).toContain('- problem 19');
    expect(message.content).not.toContain('- problem 20');
    expect(message.content).toContain('- and 5 more');
    expect(message.content).toContain('"subjective", "objective", "assessment", "plan"');
  });
});
