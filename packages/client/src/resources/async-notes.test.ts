import { testConfig } from '@chartwright/server/internal/config/config.js';
import { startWebhookReceiver, type WebhookReceiver } from '@chartwright/testing/webhook-receiver.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { Chartwright } from '../client.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { recordingFetch, startTestServer, type TestServer } from '../test-support/server.js';
import { verifyWebhook } from '../webhooks/verify-webhook.js';
import type { Note, NoteProgress } from './notes.js';

const CONVERSATION = [
  'Doctor: What brings you in today?',
  'Patient: A sore throat and a fever for three days.',
  'Doctor: Your throat is red. It looks like a viral pharyngitis. Rest and fluids.',
].join('\n');

let server: TestServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  const base = testConfig();
  server = await startTestServer({
    config: {
      jobs: {
        ...base.jobs,
        pollMs: 50,
        webhooks: { ...base.jobs.webhooks, allowedHttpHosts: ['127.0.0.1'], allowedAddresses: ['127.0.0.1/32'] },
      },
    },
  });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

function client() {
  const recorded = recordingFetch();
  const chartwright = new Chartwright({
    apiKey: server.harness.project.testKey,
    baseUrl: server.baseUrl,
    fetch: recorded.fetch,
  });
  return { chartwright, ...recorded };
}

describe('asynchronous notes', () => {
  it('creates a queued note with camelCase parameters, waits until it is ready, and its callback is verified', async () => {
    const { chartwright, attempts } = client();
    const { secret } = await chartwright.webhooks.createCallbackSecret();
    const queued: NoteProgress = await chartwright.notes.create({
      templateId: 'soap',
      conversationText: CONVERSATION,
      async: true,
      callbackUrl: `${receiver.url}/callback`,
    });
    expect(JSON.parse(attempts.at(-1)?.body ?? '{}')).toMatchObject({
      async: true,
      callback_url: `${receiver.url}/callback`,
    });
    expect(queued).toMatchObject({ object: 'note', status: 'queued', templateId: 'soap', error: null });

    const note: Note = await chartwright.notes.waitUntilReady(queued.id, { interval: 20, include: ['facts'] });
    expect(note).toMatchObject({ id: queued.id, status: 'ready', templateId: 'soap' });
    expect(note.facts?.length).toBeGreaterThan(0);

    await vi.waitFor(() => expect(receiver.received.filter((entry) => entry.path === '/callback')).toHaveLength(1));
    const [delivery] = receiver.received.filter((entry) => entry.path === '/callback');
    const event = await verifyWebhook(delivery?.body ?? '', delivery?.headers ?? {}, secret, {
      now: server.harness.clock.now(),
    });
    if (event.type !== 'note.ready') throw new Error(`expected note.ready, got ${event.type}`);
    expect(event.data.note).toEqual({ ...note, facts: undefined });

    const [logged] = await chartwright.webhooks.listDeliveries({ noteId: queued.id });
    expect(logged).toMatchObject({ noteId: queued.id, eventId: event.id, status: 'succeeded', endpointId: null });
    expect(logged?.attempts).toEqual([expect.objectContaining({ number: 1, status: 200, error: null })]);
  });

  it('still writes a synchronous note without async, typed as a Note', async () => {
    const { chartwright } = client();
    const note: Note = await chartwright.notes.create({ templateId: 'soap', conversationText: CONVERSATION });
    expect(note.status).toBe('ready');
    await expect(chartwright.notes.waitUntilReady(note.id)).resolves.toEqual(note);
  });
});

describe('webhook endpoints', () => {
  it('are created with their secret once, listed, and deleted', async () => {
    const { chartwright } = client();
    const endpoint = await chartwright.webhooks.endpoints.create({
      url: 'https://hooks.example.com/chartwright',
      events: ['note.failed'],
    });
    expect(endpoint).toMatchObject({ object: 'webhook_endpoint', events: ['note.failed'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const listed = await chartwright.webhooks.endpoints.list();
    expect(listed.find((entry) => entry.id === endpoint.id)).toEqual({
      id: endpoint.id,
      object: 'webhook_endpoint',
      url: endpoint.url,
      description: null,
      events: ['note.failed'],
      secretHint: endpoint.secretHint,
      createdAt: endpoint.createdAt,
    });
    await chartwright.webhooks.endpoints.delete(endpoint.id);
    await expect(chartwright.webhooks.endpoints.delete(endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses an address the service does not call, naming the field', async () => {
    const { chartwright } = client();
    const refused = await chartwright.webhooks.endpoints
      .create({ url: 'https://10.1.2.3/hook' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused).toMatchObject({ code: 'webhook_url_refused', param: 'url' });
  });
});

describe('a note streamed as Server-Sent Events', () => {
  it('streams its status as it changes, then each section and the written note, as retrieve gives it', async () => {
    const { chartwright, attempts } = client();
    const queued = await chartwright.notes.create({ templateId: 'soap', conversationText: CONVERSATION, async: true });
    const events = [];
    for await (const event of chartwright.notes.stream(queued.id, { include: ['facts'] })) events.push(event);

    expect(attempts.at(-1)?.headers.get('accept')).toBe('text/event-stream');
    expect(attempts.at(-1)?.url).toBe(`${server.baseUrl}/api/v1/notes/${queued.id}?include=facts`);
    const statuses = events.flatMap((event) => (event.type === 'status' ? [event.status] : []));
    expect(statuses.at(-1)).toBe('ready');
    // Each status once, in the order a note goes through them.
    expect((['queued', 'generating', 'ready'] as const).filter((status) => statuses.includes(status))).toEqual(
      statuses,
    );
    const last = events.at(-1);
    expect(last?.type).toBe('note');
    const note = last?.type === 'note' ? last.note : undefined;
    expect(note).toEqual(await chartwright.notes.retrieve(queued.id, { include: ['facts'] }));
    const sections = events.flatMap((event) => (event.type === 'section' ? [event.section] : []));
    expect(sections).toEqual(note?.status === 'ready' ? note.sections : []);
    expect(sections.map((section) => section.key)).toEqual(['subjective', 'objective', 'assessment', 'plan']);
  });

  it('streams a note written synchronously at once, and answers an unknown note with its 404 before any event', async () => {
    const { chartwright } = client();
    const note = await chartwright.notes.create({ templateId: 'soap', conversationText: CONVERSATION });
    const events = [];
    for await (const event of chartwright.notes.stream(note.id)) events.push(event.type);
    expect(events).toEqual(['status', ...note.sections.map(() => 'section'), 'note']);

    const unknown = chartwright.notes.stream('note_doesnotexist00000000')[Symbol.asyncIterator]().next();
    await expect(unknown).rejects.toBeInstanceOf(NotFoundError);
  });
});
