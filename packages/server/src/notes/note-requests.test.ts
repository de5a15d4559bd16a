import {
  factSchema,
  NOTE_SEGMENT_LIMITS,
  noteSchema,
  type ErrorBody,
  type Note,
  type NoteSegmentInput,
} from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import type { Dialect } from '../store/database.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { segmentsText } from '../text/segment-conversation.js';

// A synthetic visit, written for these tests, as the recognizer's final segments.
const SEGMENTS: NoteSegmentInput[] = [
  { id: 'seg_000001', speaker: 'clinician', text: 'what brings you in today', startMs: 0, endMs: 1200, channel: 0 },
  { id: 'seg_000002', speaker: 'patient', text: 'i have had a cough for about two weeks', startMs: 1500, endMs: 3500 },
  { id: 'seg_000003', speaker: 'patient', text: 'and some shortness of breath when i climb stairs', startMs: 3600 },
  { speaker: 'clinician', text: 'any fever or chest pain' },
  {
    speaker: 'patient',
    text: 'no fever no chest pain',
    words: [
      { word: 'no', startMs: 9000, endMs: 9200, confidence: 0.41 },
      { word: 'fever', startMs: 9200, endMs: 9600, confidence: 0.93 },
      { word: 'no', confidence: 0.88 },
      { word: 'chest', confidence: 0.9 },
      { word: 'pain', confidence: 0.95 },
    ],
  },
  { speaker: 'patient', text: 'i take lisinopril 10 mg once a day for my blood pressure' },
  { speaker: 'clinician', text: 'i think this is acute bronchitis let us start an albuterol inhaler' },
];

const VISIT = [
  '[doctor] good morning , what brings you in today ?',
  '[patient] i have had a cough for about two weeks and some shortness of breath when i climb stairs .',
  '[doctor] any fever or chest pain ?',
  '[patient] no fever . no chest pain .',
  '[patient] just lisinopril 10 mg once a day for my blood pressure .',
  '[doctor] i think this is acute bronchitis . let us start an albuterol inhaler and follow up in two weeks .',
].join('\n');

const SOAP_LABELS = ['Subjective', 'Objective', 'Assessment', 'Plan'];

const errorOf = (response: LightMyRequestResponse) => response.json<ErrorBody>().error;

function harnessWith(dialect: Dialect = 'sqlite'): Promise<Harness> {
  return createHarness({ dialect, config: { bodyLimitBytes: 8 * 1024 * 1024 } });
}

describe('notes with custom sections', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWith();
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers SOAP labels under the caller’s keys (docs/notes.md), when written and when read back', async () => {
    const sections = SOAP_LABELS.map((label) => ({ key: `emr_${label.toLowerCase()}`, label }));
    const response = await h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key: h.project.testKey,
      payload: { template_id: 'custom', conversation_text: VISIT, sections },
    });
    expect(response.statusCode, response.body).toBe(201);
    const note = noteSchema.parse(response.json());
    expect(note.template_id).toBe('soap');
    expect(note.sections.map((section) => section.key)).toEqual(sections.map((section) => section.key));
    expect(note.sections.map((section) => section.label)).toEqual(SOAP_LABELS);
    expect(note.sections.find((section) => section.key === 'emr_subjective')?.text).toContain('cough');

    const read = await h.request({ method: 'GET', url: `/api/v1/notes/${note.id}`, key: h.project.testKey });
    expect(read.json<Note>().sections).toEqual(note.sections);
  });
});

describe('note style, review fields and segments', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWith();
  });
  afterEach(async () => {
    await h.close();
  });

  const create = (payload: Record<string, unknown>) =>
    h.request({ method: 'POST', url: '/api/v1/notes', key: h.project.testKey, payload });
  const read = (id: string, query = '') =>
    h.request({ method: 'GET', url: `/api/v1/notes/${id}${query}`, key: h.project.testKey });

  it('is detailed by default, takes concise, and keeps the style with the note', async () => {
    const detailed = noteSchema.parse((await create({ template_id: 'soap', conversation_text: VISIT })).json());
    expect(detailed.style).toBe('detailed');
    const concise = await create({ template_id: 'soap', conversation_text: VISIT, style: 'concise' });
    expect(concise.statusCode, concise.body).toBe(201);
    const note = noteSchema.parse(concise.json());
    expect(note.style).toBe('concise');
    // The style is part of what the note was written from.
    expect(note.input_sha256).not.toBe(detailed.input_sha256);
    expect((await read(note.id)).json<Note>().style).toBe('concise');
  });

  it('answers what the verifier found for the offline engine too, and keeps it', async () => {
    const note = (await create({ template_id: 'soap', conversation_text: VISIT })).json<Note>();
    const sentences = note.sections.flatMap((section) => section.sentences).length;
    expect(note).toMatchObject({ flags: [], warnings: [], verification: { sentences, dropped: 0, flagged: 0 } });
    expect(Array.isArray(note.omissions)).toBe(true);
    expect(note).not.toHaveProperty('facts');
    const again = (await read(note.id)).json<Note>();
    expect(again).toMatchObject({ flags: [], omissions: note.omissions, verification: note.verification });
  });

  it('writes the note from segments as from the same visit typed as text', async () => {
    const fromSegments = await create({ template_id: 'soap', segments: SEGMENTS });
    expect(fromSegments.statusCode, fromSegments.body).toBe(201);
    const note = noteSchema.parse(fromSegments.json());
    expect(note.note.toLowerCase()).toContain('cough');
    expect(note.note).toContain('10 mg');
    // Adjacent segments of one speaker are one turn, as the `Patient:` line of the text is.
    const typed = (await create({ template_id: 'soap', conversation_text: segmentsText(SEGMENTS) })).json<Note>();
    expect(note.sections).toEqual(typed.sections);
    expect(note.input_sha256).not.toBe(typed.input_sha256);
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    [
      'both conversation_text and segments',
      { template_id: 'soap', conversation_text: VISIT, segments: SEGMENTS },
      'segments',
      'cannot be sent with conversation_text: send the visit as one of them',
    ],
    ['neither', { template_id: 'soap' }, 'conversation_text', 'is required (or send segments instead)'],
    ['no segments', { template_id: 'soap', segments: [] }, 'segments', 'must have at least 1 item'],
    [
      'segments without text',
      { template_id: 'soap', segments: [{ text: ' ' }, { speaker: 'patient', text: '' }] },
      'segments',
      'must hold some text: every segment is empty',
    ],
    [
      'a segment without text',
      { template_id: 'soap', segments: [{ speaker: 'patient' }] },
      'segments[0].text',
      'is required',
    ],
    [
      'an unknown speaker name',
      { template_id: 'soap', segments: [{ speaker: 'doctor', text: 'hello' }] },
      'segments[0].speaker',
      'must be one of clinician, patient, other, unknown',
    ],
    [
      'a confidence over 1',
      { template_id: 'soap', segments: [{ text: 'no', words: [{ word: 'no', confidence: 1.5 }] }] },
      'segments[0].words[0].confidence',
      'must be at most 1',
    ],
    [
      'an unknown segment field',
      { template_id: 'soap', segments: [{ text: 'no', speakr: 'patient' }] },
      'segments[0].speakr',
      'is not a known field',
    ],
    [
      'too many segments',
      {
        template_id: 'soap',
        segments: Array.from({ length: NOTE_SEGMENT_LIMITS.maxSegments + 1 }, () => ({ text: 'a' })),
      },
      'segments',
      `must have at most ${NOTE_SEGMENT_LIMITS.maxSegments} items`,
    ],
    [
      'too many words',
      {
        template_id: 'soap',
        segments: [
          { text: 'a', words: Array.from({ length: NOTE_SEGMENT_LIMITS.maxWords + 1 }, () => ({ word: 'a' })) },
        ],
      },
      'segments',
      `must have at most ${NOTE_SEGMENT_LIMITS.maxWords} words in all; these have ${NOTE_SEGMENT_LIMITS.maxWords + 1}`,
    ],
    [
      'an unknown style',
      { template_id: 'soap', conversation_text: VISIT, style: 'brief' },
      'style',
      'must be one of detailed, concise',
    ],
    [
      'an unknown include',
      { template_id: 'soap', conversation_text: VISIT, include: ['codes'] },
      'include[0]',
      'must be "facts"',
    ],
  ];
  it.each(invalid)('refuses %s with invalid_body naming the field', async (_name, payload, path, message) => {
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    const error = errorOf(response);
    expect(error.code).toBe('invalid_body');
    expect(error.details).toContainEqual({ path, message });
  });

  it('reports a missing visit beside the other problems of the body', async () => {
    const error = errorOf(await create({ template_id: 7 }));
    expect(error.details?.map((detail) => detail.path)).toEqual(['template_id', 'conversation_text']);
  });

  it('refuses segments whose text is over the conversation limit with 413 naming segments', async () => {
    const text = 'a'.repeat(50_001);
    const response = await create({ template_id: 'soap', segments: Array.from({ length: 5 }, () => ({ text })) });
    expect(response.statusCode).toBe(413);
    expect(errorOf(response)).toMatchObject({ code: 'conversation_too_long', param: 'segments' });
  });

  it('refuses an unknown include or query parameter on GET with invalid_query', async () => {
    const note = (await create({ template_id: 'soap', conversation_text: VISIT })).json<Note>();
    const unknownValue = await read(note.id, '?include=facts,codes');
    expect(unknownValue.statusCode).toBe(400);
    expect(errorOf(unknownValue)).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_query',
      param: 'include[1]',
    });
    const unknownParameter = await read(note.id, '?inclde=facts');
    expect(errorOf(unknownParameter)).toMatchObject({ code: 'invalid_query', param: 'inclde' });
    expect((await read(note.id, '?include=facts')).json<Note>().facts?.length).toBeGreaterThan(0);
  });
});

describe.each(TEST_DIALECTS)('notes with their facts on %s', (dialect) => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWith(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('returns the facts beside the note when asked, on POST and GET, and sentences cite them', async () => {
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key: h.project.testKey,
      payload: { template_id: 'soap', conversation_text: VISIT, include: ['facts'], style: 'concise' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const note = noteSchema.parse(created.json());
    const facts = note.facts ?? [];
    expect(facts.length).toBeGreaterThan(0);
    for (const fact of facts) factSchema.parse(fact);
    expect(facts).toContainEqual(expect.objectContaining({ kind: 'problem', polarity: 'absent' }));
    expect(note.style).toBe('concise');
    const ids = new Set(facts.map((fact) => fact.id));
    const cited = note.sections.flatMap((section) => section.sentences).flatMap((sentence) => sentence.facts ?? []);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(ids.has(id), id).toBe(true);

    const plain = await h.request({ method: 'GET', url: `/api/v1/notes/${note.id}`, key: h.project.testKey });
    expect(plain.json<Note>()).not.toHaveProperty('facts');
    for (const query of ['?include=facts', '?include=facts&include=facts', '?include=%20facts%20']) {
      const withFacts = await h.request({
        method: 'GET',
        url: `/api/v1/notes/${note.id}${query}`,
        key: h.project.testKey,
      });
      expect(withFacts.statusCode, query).toBe(200);
      expect(withFacts.json<Note>()).toEqual(note);
    }
  });
});
