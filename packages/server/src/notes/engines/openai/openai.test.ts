import { Writable } from 'node:stream';

import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { Template } from '@chartwright/protocol';
import {
  completion,
  FakeChatCompletionsServer,
  hang,
  json,
  status,
} from '@chartwright/testing/fake-chat-completions-server.js';

import type { Conversation } from '../../../text/conversation.js';
import { parseConversation } from '../../../text/parse-conversation.js';
import { extractiveGenerator } from '../extractive/index.js';
import type { GeneratedNote, GenerationInput, NoteGenerator, NoteProducer } from '../../generator.js';
import { findCuratedTemplate } from '../../templates.js';
import { EngineFailure, createOpenAiGenerator, withFallback, type OpenAiGeneratorOptions } from './index.js';

class LogCapture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString('utf8');
    callback();
  }
}

// --- Synthetic visit -----------------------------------------------------------------------------

const conversation: Conversation = parseConversation(
  [
    '[doctor] Hi, what brings you in today?',
    '[patient] I have had a sore throat and a fever of 38.5 for three days.',
    '[doctor] Any cough or trouble swallowing?',
    '[patient] No cough. Swallowing hurts a bit.',
    '[doctor] Your tonsils are swollen with exudate. The rapid strep test is positive.',
    '[doctor] This is strep throat. I will prescribe amoxicillin 500 mg twice a day for ten days.',
  ].join('\n'),
);

const soap = findCuratedTemplate('soap')!;
const input: GenerationInput = {
  template: soap,
  conversation,
  context: { medical: { allergies: [{ name: 'Sulfa drugs', reaction: 'rash' }] } },
};

const goodReply = {
  sections: {
    subjective: [
      { text: 'Sore throat and fever of 38.5 for three days.', turns: [1] },
      { text: 'Denies cough; reports painful swallowing.', turns: [2, 3] },
      { text: 'Allergic to sulfa drugs (rash).', turns: [], context: ['medical.allergies[0]'] },
    ],
    objective: [
      { text: 'Tonsils swollen with exudate.', turns: [4] },
      { text: 'Rapid strep test positive.', turns: [4] },
    ],
    assessment: [{ text: 'Strep throat.', turns: [5] }],
    plan: [{ text: 'Amoxicillin 500 mg twice a day for ten days.', turns: [5] }],
  },
};

/** The real offline engine as the fallback, counting how often it is asked. */
const offline: NoteGenerator & { calls: number } = {
  engine: extractiveGenerator.engine,
  calls: 0,
  generate(request: GenerationInput, options?: { signal?: AbortSignal }): Promise<GeneratedNote> {
    this.calls += 1;
    return extractiveGenerator.generate(request, options);
  },
};

const fake = new FakeChatCompletionsServer();

beforeAll(async () => {
  await fake.start();
});
afterEach(() => {
  fake.reset();
  offline.calls = 0;
});
afterAll(async () => {
  await fake.close();
});

const engine = (options: Partial<OpenAiGeneratorOptions> = {}) =>
  createOpenAiGenerator({ baseUrl: fake.baseUrl, model: 'fake-model', timeoutMs: 2000, ...options });

async function failureOf(promise: Promise<unknown>): Promise<EngineFailure> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(EngineFailure);
  return error as EngineFailure;
}

const sentences = (note: GeneratedNote, key: string) =>
  note.sections.find((section) => section.key === key)?.sentences.map((sentence) => sentence.text);

// --- Tests ---------------------------------------------------------------------------------------

describe('createOpenAiGenerator against an OpenAI-compatible server', () => {
  it('maps a valid reply to the template sections, with evidence', async () => {
    fake.script(json(goodReply));
    const generator = engine();
    expect(generator.engine).toEqual({ name: 'openai', version: 'fake-model' });

    const note = await generator.generate(input);
    expect(note.sections.map((section) => [section.key, section.label])).toEqual(
      soap.sections.map((section) => [section.key, section.label]),
    );
    expect(note.sections[0]?.sentences).toEqual([
      { text: 'Sore throat and fever of 38.5 for three days.', evidence: { turns: [1], context: [] } },
      { text: 'Denies cough; reports painful swallowing.', evidence: { turns: [2, 3], context: [] } },
      { text: 'Allergic to sulfa drugs (rash).', evidence: { turns: [], context: ['medical.allergies[0]'] } },
    ]);
    expect(sentences(note, 'plan')).toEqual(['Amoxicillin 500 mg twice a day for ten days.']);
    expect(fake.requests).toHaveLength(1);
  });

  it('sends the model, deterministic JSON settings, the template and the numbered conversation', async () => {
    fake.script(json(goodReply));
    await engine({ baseUrl: `${fake.baseUrl}/` }).generate(input);

    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body.model).toBe('fake-model');
    expect(request?.body.temperature).toBe(0);
    expect(request?.body.response_format).toEqual({ type: 'json_object' });

    const [system, user] = request?.body.messages ?? [];
    expect(system?.role).toBe('system');
    for (const section of soap.sections) {
      expect(system?.content).toContain(`"${section.key}"`);
      expect(system?.content).toContain(section.label);
      expect(system?.content).toContain(section.description);
    }
    expect(user?.role).toBe('user');
    for (const turn of conversation.turns) {
      expect(user?.content).toContain(`[${turn.index}] ${turn.speaker}: ${turn.text}`);
    }
    expect(user?.content).toContain('medical.allergies[0]: allergy: Sulfa drugs; reaction: rash');
  });

  it('sends the API key as a bearer token only when one is configured', async () => {
    fake.script(json(goodReply), json(goodReply));
    await engine({ apiKey: 'sk-fake-123' }).generate(input);
    await engine({ apiKey: '' }).generate(input);
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-fake-123', undefined]);
  });

  it('reads a reply wrapped in ``` fences and prose, from a server that ignores JSON mode', async () => {
    fake.script(completion(`Here is the note.\n\n\`\`\`json\n${JSON.stringify(goodReply, null, 2)}\n\`\`\`\n`));
    const note = await engine().generate(input);
    expect(sentences(note, 'assessment')).toEqual(['Strep throat.']);
  });

  it('asks once more with the problems after an invalid reply, and uses a valid second reply', async () => {
    fake.script(completion('Sure, here is the SOAP note: the patient has strep throat.'), json(goodReply));
    const note = await engine().generate(input);
    expect(sentences(note, 'assessment')).toEqual(['Strep throat.']);

    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1]?.body.messages ?? [];
    expect(retry.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(retry[2]?.content).toBe('Sure, here is the SOAP note: the patient has strep throat.');
    expect(retry[3]?.content).toMatch(/could not be used:\n- the reply is not a JSON object/);
  });

  it('tells the model when its invalid reply was cut off at the output limit', async () => {
    fake.script(completion('{"sections": {"subjective": [{"text": "Sore thr', 'length'), json(goodReply));
    await engine().generate(input);
    expect(fake.requests[1]?.body.messages[3]?.content).toContain('cut off at the output limit');
  });

  it('fails with invalid_output after two invalid replies, and the fallback writes the note', async () => {
    fake.script(completion('not json'), json({ sections: { subjective: 'Sore throat.' } }));
    expect((await failureOf(engine().generate(input))).code).toBe('invalid_output');
    expect(fake.requests).toHaveLength(2);

    fake.script(completion('not json'), completion(null));
    const outcome = await withFallback(engine(), offline)(input);
    expect(outcome.engine).toEqual(extractiveGenerator.engine);
    expect(outcome.fallback).toEqual({ engine: { name: 'openai', version: 'fake-model' }, reason: 'invalid_output' });
    expect(outcome.note).toEqual(await extractiveGenerator.generate(input));
    expect(offline.calls).toBe(1);
  });

  it('drops hallucinated turn numbers, and keeps statements with no evidence left, uncited', async () => {
    fake.script(
      json({
        sections: {
          subjective: [
            { text: 'Sore throat for three days.', turns: [1, 17] },
            { text: 'History of asthma.', turns: [40] },
          ],
          objective: [{ text: 'Temperature 38.5.', turns: [1] }],
          assessment: [],
          plan: [{ text: 'Chest x-ray ordered.', turns: [] }],
        },
      }),
    );
    const note = await engine().generate(input);
    expect(note.sections[0]?.sentences).toEqual([
      { text: 'Sore throat for three days.', evidence: { turns: [1], context: [] } },
      { text: 'History of asthma.', evidence: { turns: [], context: [] } },
    ]);
    expect(sentences(note, 'plan')).toEqual(['Chest x-ray ordered.']);
    for (const sentence of note.sections.flatMap((section) => section.sentences)) {
      expect(sentence.evidence.turns.every((turn) => turn >= 0 && turn < conversation.turns.length)).toBe(true);
    }
  });

  it('refuses statements under section keys the template does not have', async () => {
    const unknown = { sections: { ...goodReply.sections, diagnosis: [{ text: 'Pharyngitis.', turns: [5] }] } };
    fake.script(json(unknown), json(goodReply));
    const note = await engine().generate(input);
    expect(note.sections.map((section) => section.key)).toEqual(['subjective', 'objective', 'assessment', 'plan']);
    expect(JSON.stringify(note)).not.toContain('Pharyngitis');
    expect(fake.requests[1]?.body.messages[3]?.content).toContain('"diagnosis" is not a section of this template');

    fake.script(json(unknown), json(unknown));
    const outcome = await withFallback(engine(), offline)(input);
    expect(outcome.fallback?.reason).toBe('invalid_output');
  });

  it('falls back with provider_error on an HTTP error, without retrying', async () => {
    fake.script(status(500));
    const outcome = await withFallback(engine(), offline)(input);
    expect(outcome.fallback).toEqual({ engine: { name: 'openai', version: 'fake-model' }, reason: 'provider_error' });
    expect(outcome.engine.name).toBe('extractive');
    expect(fake.requests).toHaveLength(1);

    fake.script(status(401));
    const failure = await failureOf(engine().generate(input));
    expect([failure.code, failure.status]).toEqual(['provider_error', 401]);
  });

  it('treats a 200 that is not a chat completion as provider_error', async () => {
    fake.script(status(200, '{"object":"list","data":[]}'));
    expect((await failureOf(engine().generate(input))).code).toBe('provider_error');
    fake.script(status(200, '<html>gateway</html>'));
    expect((await failureOf(engine().generate(input))).code).toBe('provider_error');
  });

  it('treats an unreachable server as provider_error', async () => {
    const closed = new FakeChatCompletionsServer();
    await closed.start();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const outcome = await withFallback(engine({ baseUrl }), offline)(input);
    expect(outcome.fallback?.reason).toBe('provider_error');
  });

  it('times out a server that never answers and falls back with provider_timeout', async () => {
    fake.script(hang);
    const started = performance.now();
    const outcome = await withFallback(engine({ timeoutMs: 200 }), offline)(input);
    const elapsed = performance.now() - started;
    expect(outcome.fallback).toEqual({ engine: { name: 'openai', version: 'fake-model' }, reason: 'provider_timeout' });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1500);
  });

  it('counts the corrective retry in the same time budget', async () => {
    fake.script(completion('not json'), hang);
    const started = performance.now();
    // A budget a loaded CI machine still answers the first request within, so the retry happens.
    expect((await failureOf(engine({ timeoutMs: 1000 }).generate(input))).code).toBe('provider_timeout');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(fake.requests).toHaveLength(2);
  });

  it('stops when the caller aborts, without falling back', async () => {
    fake.script(hang);
    const controller = new AbortController();
    // Aborts once the request is at the server, however long a loaded machine takes to send it.
    void vi.waitFor(() => expect(fake.requests).toHaveLength(1), { timeout: 4000 }).then(() => controller.abort());
    const produce = withFallback(engine({ timeoutMs: 5000 }), offline);
    await expect(produce(input, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(offline.calls).toBe(0);

    await expect(engine().generate(input, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('logs engine, timing and reason codes, never the conversation, the note or the key', async () => {
    const logs = new LogCapture();
    // Fastify's logger, which the service hands to the engines, is what they log with.
    const logger: FastifyBaseLogger = pino({ level: 'info' }, logs);
    fake.script(completion('not json'), json(goodReply), status(503));
    await engine({ logger, apiKey: 'sk-very-secret' }).generate(input);
    await withFallback(engine({ logger, apiKey: 'sk-very-secret' }), offline, { logger })(input);

    expect(logs.text).toContain('"engine":"openai"');
    expect(logs.text).toContain('"attempts":2');
    expect(logs.text).toContain('"reason":"provider_error"');
    expect(logs.text).toContain('"status":503');
    for (const forbidden of [
      'sore throat',
      'Sore throat',
      'strep',
      'Strep',
      'amoxicillin',
      'Sulfa',
      'sk-very-secret',
    ]) {
      expect(logs.text).not.toContain(forbidden);
    }
  });

  it('rejects a timeout that is not a positive number', () => {
    expect(() => engine({ timeoutMs: 0 })).toThrow(RangeError);
  });
});

describe('withFallback', () => {
  // The real engine whose HTTP client (the third-party part) fails the way it is told to.
  const failing = (error: Error, model = 'fake-model') => engine({ model, fetch: () => Promise.reject(error) });
  const template: Template = soap;

  it('is a NoteProducer reporting the primary engine and no fallback when the primary succeeds', async () => {
    fake.script(json(goodReply));
    const produce: NoteProducer = withFallback(engine(), offline);
    const outcome = await produce(input);
    expect(outcome.engine).toEqual({ name: 'openai', version: 'fake-model' });
    expect(outcome.fallback).toBeNull();
    expect(offline.calls).toBe(0);
  });

  it('falls back with provider_error on an unexpected error of the primary', async () => {
    const outcome = await withFallback(failing(new TypeError('bug')), offline)({ ...input, template });
    expect(outcome.fallback).toEqual({ engine: { name: 'openai', version: 'fake-model' }, reason: 'provider_error' });
    expect(outcome.engine).toEqual(extractiveGenerator.engine);
  });

  it('passes an error of the fallback engine on', async () => {
    const broken = failing(new Error('fallback broke'), 'fallback-model');
    await expect(withFallback(failing(new TypeError('primary broke')), broken)(input)).rejects.toMatchObject({
      code: 'provider_error',
    });
  });
});
