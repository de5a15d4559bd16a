import { MAX_CONVERSATION_CHARACTERS, noteSchema, type ErrorBody, type Note } from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';

import { testConfig } from '../config/config.js';

// A synthetic visit, written for these tests.
const VISIT = [
  '[doctor] good morning , what brings you in today ?',
  '[patient] i have had a cough for about two weeks and some shortness of breath when i climb stairs .',
  '[doctor] any fever or chest pain ?',
  '[patient] no fever . no chest pain .',
  '[doctor] are you taking any medications ?',
  '[patient] just lisinopril 10 mg once a day for my blood pressure .',
  '[doctor] on exam your lungs have mild wheezing on the right side .',
  '[doctor] i think this is acute bronchitis . let us start an albuterol inhaler and follow up in two weeks .',
].join('\n');

const errorOf = (response: LightMyRequestResponse) => response.json<ErrorBody>().error;

describe('POST /api/v1/notes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ config: { bodyLimitBytes: 2 * 1024 * 1024 } });
  });
  afterEach(async () => {
    await h.close();
  });

  const create = (payload: unknown, key = h.project.testKey) =>
    h.request({ method: 'POST', url: '/api/v1/notes', key, payload: payload as Record<string, unknown> });

  it('writes a note for a curated template, every sentence with evidence', async () => {
    const response = await create({ template_id: 'soap', conversation_text: VISIT });
    expect(response.statusCode).toBe(201);
    const note = noteSchema.parse(response.json());
    expect(note).toMatchObject({ object: 'note', template_id: 'soap', template_version: 1, fallback: null });
    expect(note.engine.name).toBe('extractive');
    expect(note.sections.map((section) => section.key)).toEqual(['subjective', 'objective', 'assessment', 'plan']);
    const sentences = note.sections.flatMap((section) => section.sentences);
    expect(sentences.length).toBeGreaterThan(0);
    const turnCount = VISIT.split('\n').length;
    for (const sentence of sentences) {
      expect(sentence.evidence.turns.length + sentence.evidence.context.length).toBeGreaterThan(0);
      for (const turn of sentence.evidence.turns) expect(turn).toBeGreaterThanOrEqual(0);
      for (const turn of sentence.evidence.turns) expect(turn).toBeLessThan(turnCount);
    }
    for (const section of note.sections) {
      expect(section.text).toBe(section.sentences.map((sentence) => sentence.text).join(' '));
      if (section.sentences.length > 0) expect(note.note).toContain(section.label.toUpperCase());
    }
    expect(note.note).toContain('10 mg');
    expect(note.note.toLowerCase()).toContain('denies');
    expect(Date.parse(note.expires_at) - Date.parse(note.created_at)).toBe(h.config.notes.retentionDays * 86_400_000);
  });

  it('hashes its inputs so a note can be reproduced and compared', async () => {
    const first = (await create({ template_id: 'soap', conversation_text: VISIT })).json<Note>();
    const again = (await create({ template_id: 'soap', conversation_text: VISIT })).json<Note>();
    const other = (await create({ template_id: 'progress_note', conversation_text: VISIT })).json<Note>();
    expect(first.input_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(again.input_sha256).toBe(first.input_sha256);
    expect(again.note).toBe(first.note);
    expect(again.id).not.toBe(first.id);
    expect(other.input_sha256).not.toBe(first.input_sha256);
  });

  it('builds an ad-hoc template from sections, resolving the SOAP labels to SOAP', async () => {
    const custom = await create({
      template_id: 'custom',
      conversation_text: VISIT,
      sections: [
        { key: 'reason', label: 'Reason for visit' },
        { key: 'next', label: 'Next steps' },
      ],
    });
    expect(custom.statusCode).toBe(201);
    const note = custom.json<Note>();
    expect(note.template_id).toMatch(/^headings_/);
    expect(note.sections.map((section) => section.key)).toEqual(['reason', 'next']);
    const soap = await create({
      template_id: 'custom',
      conversation_text: VISIT,
      sections: ['Subjective', 'Objective', 'Assessment', 'Plan'].map((label) => ({ key: label[0], label })),
    });
    expect(soap.json<Note>().template_id).toBe('soap');
  });

  it('cites context given with the request under its own field names', async () => {
    const response = await create({
      template_id: 'history_and_physical',
      conversation_text: VISIT,
      context: { allergies: [{ name: 'Penicillin', reaction: 'rash' }] },
    });
    const note = response.json<Note>();
    const cited = note.sections
      .flatMap((section) => section.sentences)
      .flatMap((sentence) => sentence.evidence.context);
    expect(cited).toContain('context.allergies[0]');
    expect(note.note).toContain('Penicillin');
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['no template_id', { conversation_text: VISIT }, 'template_id', 'is required'],
    ['no conversation_text', { template_id: 'soap' }, 'conversation_text', 'is required (or send segments instead)'],
    [
      'a blank conversation',
      { template_id: 'soap', conversation_text: ' \n\t ' },
      'conversation_text',
      'must not be empty',
    ],
    [
      'a numeric template_id',
      { template_id: 7, conversation_text: VISIT },
      'template_id',
      'must be a string, not a number',
    ],
    [
      'an unknown field',
      { template_id: 'soap', conversation_text: VISIT, temperature: 0 },
      'temperature',
      'is not a known field',
    ],
    [
      'a bad section key',
      { template_id: 'custom', conversation_text: VISIT, sections: [{ key: '1st', label: 'First' }] },
      'sections[0].key',
      'must start with a letter and contain only letters, digits and underscore',
    ],
    [
      'no sections',
      { template_id: 'custom', conversation_text: VISIT, sections: [] },
      'sections',
      'must have at least 1 item',
    ],
    [
      'sections with a curated template',
      { template_id: 'soap', conversation_text: VISIT, sections: [{ key: 'a', label: 'A' }] },
      'sections',
      'is only allowed with template_id "custom"',
    ],
    [
      'custom without sections',
      { template_id: 'custom', conversation_text: VISIT },
      'sections',
      'is required with template_id "custom"',
    ],
  ];
  it.each(invalid)('refuses %s with a 400 naming the field', async (_name, payload, path, message) => {
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    const error = errorOf(response);
    expect(error.code).toBe('invalid_body');
    expect(error.details).toContainEqual({ path, message });
  });

  it('refuses an unknown template with template_not_found naming template_id', async () => {
    const response = await create({ template_id: 'soap_v9', conversation_text: VISIT });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toMatchObject({
      type: 'invalid_request_error',
      code: 'template_not_found',
      param: 'template_id',
    });
  });

  it('refuses a conversation over the limit with 413', async () => {
    const response = await create({
      template_id: 'soap',
      conversation_text: 'a'.repeat(MAX_CONVERSATION_CHARACTERS + 1),
    });
    expect(response.statusCode).toBe(413);
    expect(errorOf(response)).toMatchObject({ code: 'conversation_too_long', param: 'conversation_text' });
  });

  it('refuses a body over the body limit with 413', async () => {
    const small = await createHarness({ config: { bodyLimitBytes: 4096 } });
    try {
      const response = await small.request({
        method: 'POST',
        url: '/api/v1/notes',
        key: small.project.testKey,
        payload: { template_id: 'soap', conversation_text: 'x'.repeat(5000) },
      });
      expect(response.statusCode).toBe(413);
      expect(errorOf(response).code).toBe('request_too_large');
    } finally {
      await small.close();
    }
  });
});

describe('GET /api/v1/notes/{id}', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ config: { notes: { ...testConfig().notes, retentionDays: 7 } } });
  });
  afterEach(async () => {
    await h.close();
  });

  const make = async (key: string) =>
    (
      await h.request({
        method: 'POST',
        url: '/api/v1/notes',
        key,
        payload: { template_id: 'soap', conversation_text: VISIT },
      })
    ).json<Note>();
  const get = (id: string, key: string) => h.request({ method: 'GET', url: `/api/v1/notes/${id}`, key });

  it('returns the stored note to the environment that made it', async () => {
    const note = await make(h.project.testKey);
    const response = await get(note.id, h.project.testKey);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(note);
  });

  it('hides it from the other environment and from other projects', async () => {
    const note = await make(h.project.testKey);
    expect(errorOf(await get(note.id, h.project.liveKey)).code).toBe('note_not_found');
    const other = await h.projects.create('Other clinic');
    const otherKey = await h.keys.create({ projectId: other.id, environment: 'test' });
    const response = await get(note.id, otherKey.secret);
    expect(response.statusCode).toBe(404);
    expect(errorOf(response).code).toBe('note_not_found');
  });

  it('answers 404 for an id that never existed', async () => {
    expect((await get('note_missing', h.project.testKey)).statusCode).toBe(404);
  });

  it('stops serving a note at the end of its retention and deletes it', async () => {
    const note = await make(h.project.testKey);
    h.clock.advance(7 * 86_400_000 - 1);
    expect((await get(note.id, h.project.testKey)).statusCode).toBe(200);
    h.clock.advance(1);
    expect((await get(note.id, h.project.testKey)).statusCode).toBe(404);
    expect(await h.repositories.notes.deleteExpired(h.clock.now())).toBe(1);
    expect(await h.repositories.notes.deleteExpired(h.clock.now())).toBe(0);
  });
});

/**
 * An OpenAI-compatible provider stand-in: answers chat completions with a fixed SOAP reply, or
 * with an error when told to. The service under test is real; only the third-party API is faked.
 */
async function fakeProvider(behaviour: { status: number }) {
  const { createServer } = await import('node:http');
  const requests: { authorization: string | undefined; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      requests.push({ authorization: request.headers.authorization, body });
      if (behaviour.status !== 200) {
        response.writeHead(behaviour.status, { 'content-type': 'application/json' }).end('{"error":"down"}');
        return;
      }
      const content = JSON.stringify({
        sections: {
          subjective: [{ text: 'Cough for two weeks with shortness of breath on stairs.', turns: [1] }],
          objective: [{ text: 'Mild right-sided wheezing.', turns: [6] }],
          assessment: [{ text: 'Acute bronchitis.', turns: [7] }],
          plan: [{ text: 'Start an albuterol inhaler; follow up in two weeks.', turns: [7] }],
        },
      });
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('POST /api/v1/notes with NOTES_ENGINE=openai', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** The real service configured for a provider stand-in that answers with `status`. */
  async function serviceWithProvider(status: number, apiKey: string | null) {
    const provider = await fakeProvider({ status });
    const h = await createHarness({
      config: {
        notes: {
          ...testConfig().notes,
          engine: 'openai',
          openai: { baseUrl: provider.baseUrl, apiKey, model: 'clinical-7b', timeoutMs: 5000 },
          retentionDays: 30,
        },
      },
    });
    cleanups.push(
      () => h.close(),
      () => provider.close(),
    );
    const response = await h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key: h.project.testKey,
      payload: { template_id: 'soap', conversation_text: VISIT },
    });
    expect(response.statusCode).toBe(201);
    return { h, provider, note: response.json<Note>() };
  }

  it('writes the note with the provider and reports the engine', async () => {
    const { h, provider, note } = await serviceWithProvider(200, 'provider-key');
    expect(note.engine).toEqual({ name: 'openai', version: 'clinical-7b' });
    expect(note.fallback).toBeNull();
    expect(note.sections.find((section) => section.key === 'assessment')?.text).toBe('Acute bronchitis.');
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]?.authorization).toBe('Bearer provider-key');
    expect(h.logs.text).not.toContain('provider-key');
    expect(h.logs.text).not.toContain('bronchitis');
  });

  it('falls back to the extractive engine when the provider fails, and says so', async () => {
    const { h, provider, note } = await serviceWithProvider(503, null);
    expect(note.engine.name).toBe('extractive');
    expect(note.fallback).toEqual({ engine: { name: 'openai', version: 'clinical-7b' }, reason: 'provider_error' });
    expect(provider.requests[0]?.authorization).toBeUndefined();
    const stored = await h.request({ method: 'GET', url: `/api/v1/notes/${note.id}`, key: h.project.testKey });
    expect(stored.json<Note>().fallback).toEqual(note.fallback);
  });
});
