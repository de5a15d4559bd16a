import { CURATED_TEMPLATES_JSON } from '@chartwright/server/internal/notes/templates.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Chartwright } from '../client.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { CLIENT_VERSION } from '../core/version.js';
import { recordingFetch, startTestServer, type TestServer } from '../test-support/server.js';

const CONVERSATION = [
  'Doctor: What brings you in today?',
  'Patient: I have had a sore throat and a fever for three days.',
  'Doctor: Any cough? Patient: A little, mostly at night.',
  'Doctor: Your throat is red and your temperature is 38.4. It looks like a viral pharyngitis.',
  'Doctor: Rest, fluids and paracetamol; come back if it lasts more than a week.',
].join('\n');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function client(apiKey: ConstructorParameters<typeof Chartwright>[0]['apiKey'] = server.harness.project.testKey) {
  const recorded = recordingFetch();
  return { chartwright: new Chartwright({ apiKey, baseUrl: server.baseUrl, fetch: recorded.fetch }), ...recorded };
}

describe('templates.list', () => {
  it('returns every template the service lists', async () => {
    const { chartwright } = client();
    const templates = await chartwright.templates.list();
    expect(templates).toEqual(JSON.parse(CURATED_TEMPLATES_JSON));
    expect(templates.map((template) => template.id)).toContain('soap');
  });
});

describe('notes', () => {
  it('creates a note from camelCase parameters, sends the wire names, and retrieves it', async () => {
    const { chartwright, attempts } = client();
    const note = await chartwright.notes.create({
      templateId: 'soap',
      conversationText: CONVERSATION,
      patient: { firstName: 'Ann', lastName: 'Example', gender: 'female' },
      extraContext: 'Seen in the walk-in clinic.',
    });

    expect(JSON.parse(attempts[0]!.body!)).toEqual({
      template_id: 'soap',
      conversation_text: CONVERSATION,
      patient: { firstName: 'Ann', lastName: 'Example', gender: 'female' },
      extra_context: 'Seen in the walk-in clinic.',
    });
    expect(note).toMatchObject({ object: 'note', templateId: 'soap', fallback: null });
    expect(note.templateVersion).toBeGreaterThan(0);
    expect(note.inputSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(new Date(note.expiresAt).getTime()).toBeGreaterThan(new Date(note.createdAt).getTime());
    expect(note.sections.map((section) => section.key)).toContain('subjective');
    expect(note.note).toMatch(/SUBJECTIVE/);
    expect(Object.keys(note).filter((key) => key.includes('_'))).toEqual([]);

    const retrieved = await chartwright.notes.retrieve(note.id);
    expect(retrieved).toEqual(note);
  });

  it('deletes a note: it is gone, and deleting it again is a NotFoundError', async () => {
    const { chartwright, attempts } = client();
    const note = await chartwright.notes.create({ templateId: 'soap', conversationText: CONVERSATION });
    await expect(chartwright.notes.delete(note.id)).resolves.toBeUndefined();
    expect(attempts.at(-1)).toMatchObject({ method: 'DELETE' });
    await expect(chartwright.notes.retrieve(note.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(chartwright.notes.delete(note.id)).rejects.toMatchObject({ status: 404, code: 'note_not_found' });
    await expect(chartwright.notes.delete('')).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('notes with issue 14’s fields', () => {
  const segments = [
    { id: 'seg_000001', speaker: 'clinician' as const, text: 'Any fever?', startMs: 0, endMs: 800, channel: 0 },
    {
      speaker: 'patient' as const,
      text: 'No fever, just a sore throat for three days.',
      words: [{ word: 'no', startMs: 900, endMs: 1100, confidence: 0.44 }],
    },
  ];

  it('sends style, include and segments (their fields as the realtime events name them) and types the answer', async () => {
    const { chartwright, attempts } = client();
    const note = await chartwright.notes.create({
      templateId: 'soap',
      segments,
      style: 'concise',
      include: ['facts'],
    });
    expect(JSON.parse(attempts[0]!.body!)).toEqual({
      template_id: 'soap',
      segments,
      style: 'concise',
      include: ['facts'],
    });
    // The service's verifier: the "no" heard at 0.44 is flagged, the facts come when asked.
    expect(note).toMatchObject({ style: 'concise', warnings: [], verification: { dropped: 0 } });
    expect(note.facts?.length).toBeGreaterThan(0);
    expect(note.note.toLowerCase()).toContain('sore throat');
    // Typed: a flag's code and a sentence's support class are the protocol's unions.
    const codes: string[] = note.flags.map((flag) => flag.code);
    const support = note.sections.flatMap((section) => section.sentences).map((sentence) => sentence.support);
    expect(codes).toEqual(['low_confidence_word']);
    expect(support.every((value) => typeof value === 'string')).toBe(true);
  });

  it('retrieves a note with its facts when asked, and with request options alone as before', async () => {
    const { chartwright, attempts } = client();
    const note = await chartwright.notes.create({ templateId: 'soap', conversationText: CONVERSATION });
    expect(note).not.toHaveProperty('facts');

    const withFacts = await chartwright.notes.retrieve(note.id, { include: ['facts'] }, { timeout: 10_000 });
    expect(attempts.at(-1)?.url).toBe(`${server.baseUrl}/api/v1/notes/${note.id}?include=facts`);
    if (withFacts.status !== 'ready') throw new Error(`a synchronous note is ready, not ${withFacts.status}`);
    expect(withFacts.facts?.length).toBeGreaterThan(0);
    expect(withFacts).toEqual({ ...note, facts: withFacts.facts });

    const plain = await chartwright.notes.retrieve(note.id, { timeout: 10_000 });
    expect(attempts.at(-1)?.url).toBe(`${server.baseUrl}/api/v1/notes/${note.id}`);
    expect(plain).toEqual(note);
    await chartwright.notes.retrieve(note.id, { include: [] });
    expect(attempts.at(-1)?.url).toBe(`${server.baseUrl}/api/v1/notes/${note.id}`);
  });

  it('surfaces the service’s validation of segments as an InvalidRequestError naming the field', async () => {
    const { chartwright } = client();
    const failure = await chartwright.notes
      .create({ templateId: 'soap', conversationText: CONVERSATION, segments })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidRequestError);
    expect(failure).toMatchObject({ code: 'invalid_body', param: 'segments' });
    await expect(
      chartwright.notes.retrieve('note_x', { include: 'facts' as unknown as ['facts'] }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('realtime.tokens.create', () => {
  it('mints a temporary token for the key’s environment, for the lifetime asked', async () => {
    const { chartwright, attempts } = client();
    const token = await chartwright.realtime.tokens.create({ expiresInSeconds: 120 });
    expect(token.token).toMatch(/^svc_rt_/);
    expect(token.wsUrl).toBe('ws://sandbox.test/api/v1/realtime');
    expect(token.expiresAt).toBe(new Date(server.harness.clock.now() + 120_000).toISOString());
    expect(JSON.parse(attempts[0]!.body!)).toEqual({ expiresInSeconds: 120 });
  });

  it('defaults to the longest lifetime, an hour', async () => {
    const { chartwright } = client(server.harness.project.liveKey);
    const token = await chartwright.realtime.tokens.create();
    expect(token.wsUrl).toBe('ws://api.test/api/v1/realtime');
    expect(token.expiresAt).toBe(new Date(server.harness.clock.now() + 3_600_000).toISOString());
  });
});

describe('apiKey', () => {
  it('may be an async function, asked again for every request so a rotated key is picked up', async () => {
    const { project, keys } = server.harness;
    const first = await keys.create({ projectId: project.id, environment: 'test' });
    let current = first.secret;
    let calls = 0;
    const { chartwright, attempts } = client(() => {
      calls += 1;
      return Promise.resolve(current);
    });
    await chartwright.templates.list();
    const { replacement } = await keys.rotate(first.key.id);
    current = replacement.secret;
    await keys.revoke(first.key.id);
    await chartwright.templates.list();
    expect(calls).toBe(2);
    expect(attempts.map((attempt) => attempt.headers.get('authorization'))).toEqual([
      `Bearer ${first.secret}`,
      `Bearer ${replacement.secret}`,
    ]);
  });
});

describe('headers', () => {
  it('identifies the library and runtime in Node, and sends default and per-call headers', async () => {
    const recorded = recordingFetch();
    const chartwright = new Chartwright({
      apiKey: server.harness.project.liveKey,
      baseUrl: `${server.baseUrl}/`,
      fetch: recorded.fetch,
      defaultHeaders: { 'x-app': 'scribe-demo' },
    });
    await chartwright.templates.list({ headers: { 'x-request-id': 'trace-0001-abcd', authorization: 'Bearer nope' } });
    const [attempt] = recorded.attempts;
    expect(attempt!.url).toBe(`${server.baseUrl}/api/v1/templates`);
    expect(attempt!.headers.get('x-chartwright-client')).toBe(
      `chartwright-client-js/${CLIENT_VERSION} node/${process.version}`,
    );
    expect(attempt!.headers.get('x-app')).toBe('scribe-demo');
    expect(attempt!.headers.get('x-request-id')).toBe('trace-0001-abcd');
    expect(attempt!.headers.get('authorization')).toBe(`Bearer ${server.harness.project.liveKey}`);
    expect(attempt!.headers.get('accept')).toBe('application/json');
  });
});
