import { noteSchema, type Note } from '@chartwright/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  FakeChatCompletionsServer,
  fromRequest,
  type ChatCompletionRequest,
} from '@chartwright/testing/fake-chat-completions-server.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

import { testConfig } from '../config/config.js';

// A synthetic visit, written for these tests.
const VISIT = [
  '[doctor] what brings you in today ?',
  '[patient] i have had a cough for two weeks .',
  '[doctor] any fever ?',
  '[patient] no fever .',
  '[doctor] what do you take ?',
  '[patient] i take lisinopril ten milligrams once a day .',
  '[doctor] any cancer in the family ?',
  '[patient] my mother had breast cancer .',
  '[doctor] your lungs are clear . i think this is a viral bronchitis . drink fluids and follow up in two weeks .',
].join('\n');

/** The id the prompt's fact sheet gives the fact whose line matches `pattern`. */
function factId(request: ChatCompletionRequest, pattern: RegExp): string {
  const prompt = request.body.messages.map((message) => message.content).join('\n');
  const line = prompt.split('\n').find((candidate) => /^- f\d+ \[/.test(candidate) && pattern.test(candidate));
  const id = line?.match(/^- (f\d+) /)?.[1];
  if (id === undefined) throw new Error(`the fact sheet has no fact matching ${String(pattern)}`);
  return id;
}

/**
 * What a careless model answers: a faithful sentence, a negation flipped, a dose nobody said, the
 * mother's cancer given to the patient, and a sentence citing nothing.
 */
const carelessModel = fromRequest((request) => ({
  sections: {
    subjective: [
      { text: 'Cough for 2 weeks.', facts: [factId(request, /\[problem; present; about the patient[^\]]*\]: cough$/)] },
      { text: 'Reports fever.', facts: [factId(request, /\[problem; absent;[^\]]*\]: fever$/)] },
      { text: 'Takes lisinopril 20 mg daily.', facts: [factId(request, /\[medication;[^\]]*\]: lisinopril/)] },
      { text: 'History of breast cancer.', turns: [7] },
      { text: 'Smokes a pack a day.' },
    ],
    objective: [{ text: 'Lungs clear.', turns: [8] }],
    assessment: [{ text: 'Viral bronchitis.', turns: [8] }],
    plan: [{ text: 'Fluids; follow up in 2 weeks.', turns: [8] }],
  },
}));

describe('POST /api/v1/notes with an OpenAI-compatible engine: the verifier', () => {
  const fake = new FakeChatCompletionsServer();
  let h: Harness;
  beforeAll(async () => {
    await fake.start();
    h = await createHarness({
      config: {
        notes: {
          ...testConfig().notes,
          engine: 'openai',
          openai: { baseUrl: fake.baseUrl, apiKey: null, model: 'fake-model', timeoutMs: 5000 },
          retentionDays: 30,
        },
      },
    });
  });
  afterEach(() => {
    fake.reset();
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
  });

  const create = (payload: Record<string, unknown>) =>
    h.request({ method: 'POST', url: '/api/v1/notes', key: h.project.testKey, payload });

  it('drops the contradicting sentences, flags the uncited one and records what it did', async () => {
    fake.script(carelessModel);
    const response = await create({ template_id: 'soap', conversation_text: VISIT, include: ['facts'] });
    expect(response.statusCode).toBe(201);
    const note = noteSchema.parse(response.json());
    expect(note.engine).toEqual({ name: 'openai', version: 'fake-model' });
    expect(note.fallback).toBeNull();

    const subjective = note.sections.find((section) => section.key === 'subjective');
    expect(subjective?.sentences.map((sentence) => [sentence.text, sentence.support])).toEqual([
      ['Cough for 2 weeks.', 'stated'],
      ['Smokes a pack a day.', 'unsupported'],
    ]);
    expect(note.note).not.toMatch(/Reports fever|20 mg|History of breast cancer/);

    const byCode = (code: string) => note.flags.filter((flag) => flag.code === code);
    for (const code of ['polarity_mismatch', 'number_mismatch', 'subject_mismatch']) {
      expect(byCode(code), code).toMatchObject([{ section: 'subjective', sentence: null }]);
    }
    expect(byCode('uncited_sentence')).toMatchObject([{ section: 'subjective', sentence: 1, facts: [] }]);
    expect(note.verification).toEqual({ sentences: 8, dropped: 3, flagged: 1 });

    const fever = note.facts?.find((fact) => fact.kind === 'problem' && fact.text === 'fever');
    expect(fever?.polarity).toBe('absent');
    expect(byCode('polarity_mismatch')[0]?.facts).toEqual([fever?.id]);
    for (const flag of note.flags) expect(flag.message).not.toMatch(/fever|lisinopril|cancer|smokes/i);
  });

  it('gives the model the fact sheet with fact ids and turn ids, and asks for citations', async () => {
    fake.script(carelessModel);
    await create({ template_id: 'soap', conversation_text: VISIT });
    const [request] = fake.requests;
    const [system, user] = request?.body.messages ?? [];
    expect(system?.content).toMatch(/"facts": \[<fact ids>\]/);
    expect(user?.content).toMatch(/^\[3\] patient: no fever \.$/m);
    expect(user?.content).toMatch(/^- f\d+ \[problem; absent; about the patient; turns 3\]: fever$/m);
  });

  it('returns the same review fields on GET', async () => {
    fake.script(carelessModel);
    const created = (await create({ template_id: 'soap', conversation_text: VISIT })).json<Note>();
    const read = await h.request({ method: 'GET', url: `/api/v1/notes/${created.id}`, key: h.project.testKey });
    const note = read.json<Note>();
    expect(note.flags).toEqual(created.flags);
    expect(note.verification).toEqual({ sentences: 8, dropped: 3, flagged: 1 });
    expect(note.omissions).toEqual(created.omissions);
  });
});

describe('POST /api/v1/notes with the offline engine: the verifier', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const create = (payload: Record<string, unknown>) =>
    h.request({ method: 'POST', url: '/api/v1/notes', key: h.project.testKey, payload });

  it('classes every sentence and flags none of a faithful note', async () => {
    const note = (await create({ template_id: 'history_and_physical', conversation_text: VISIT })).json<Note>();
    const sentences = note.sections.flatMap((section) => section.sentences);
    expect(sentences.length).toBeGreaterThan(3);
    for (const sentence of sentences) expect(sentence.support, sentence.text).toMatch(/^(stated|chart|inferred)$/);
    expect(note.flags).toEqual([]);
    expect(note.warnings).toEqual([]);
    expect(note.verification).toEqual({ sentences: sentences.length, dropped: 0, flagged: 0 });
  });

  it('flags a negation the recognizer heard with low confidence, with the word, turn and confidence', async () => {
    const response = await create({
      template_id: 'soap',
      include: ['facts'],
      segments: [
        { speaker: 'clinician', text: 'Any fever?' },
        {
          speaker: 'patient',
          text: 'No fever, just a cough for a week.',
          words: [
            { word: 'no', confidence: 0.42 },
            { word: 'fever', confidence: 0.93 },
          ],
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const note = response.json<Note>();
    // One flag for the word, naming every fact of the turn that rests on it.
    expect(note.flags).toMatchObject([
      { code: 'low_confidence_word', section: 'subjective', words: [{ word: 'no', confidence: 0.42, turn: 1 }] },
    ]);
    const fever = note.facts?.find((fact) => fact.text === 'fever');
    expect(note.flags[0]?.facts).toContain(fever?.id);
    expect(note.note).not.toMatch(/low confidence|check/i);
  });

  it('warns when the conversation is not English or holds nothing clinical', async () => {
    const spanish = await create({
      template_id: 'soap',
      conversation_text:
        '[doctor] buenos días , ¿qué le trae por aquí hoy ?\n[patient] tengo dolor de garganta y fiebre desde hace tres días , y me duele mucho al tragar la comida .',
    });
    expect(spanish.json<Note>().warnings.map((warning) => warning.code)).toContain('not_english');
    const chat = await create({
      template_id: 'soap',
      conversation_text:
        '[doctor] good morning , how was the drive over here today ?\n[patient] it was fine , a little traffic on the bridge but nothing too bad at all .',
    });
    expect(chat.json<Note>().warnings.map((warning) => warning.code)).toEqual(['no_clinical_content']);
  });
});
