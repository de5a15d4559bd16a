import { createServer, type AddressInfo } from 'node:net';

import { verifyWebhook, type WebhookEvent } from '@chartwright/client';
import type { ErrorBody, Note, NoteOrProgress, NoteProgress, WebhookDelivery } from '@chartwright/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { testConfig, type Config } from '../config/config.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { sampleValue } from '@chartwright/testing/metrics.js';
import { openTestDatabase, type TestDatabase } from '@chartwright/testing/databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '@chartwright/testing/webhook-receiver.js';

const VISIT = [
  '[doctor] what brings you in today ?',
  '[patient] i have had a cough for two weeks . no fever .',
  '[doctor] your lungs sound clear . it looks like a viral bronchitis .',
  '[doctor] rest , fluids , and come back if it is not better in a week .',
].join('\n');
const LONG_VISIT = Array.from({ length: 60 }, () => VISIT).join('\n');

/** Jobs polled often, retried at once, and webhooks allowed to this machine's test receiver over http. */
function jobsConfig(overrides: { inService?: boolean; maxAttempts?: number; workers?: number } = {}): Partial<Config> {
  const base = testConfig();
  return {
    notes: { ...base.notes, workers: overrides.workers ?? 1 },
    jobs: {
      ...base.jobs,
      inService: overrides.inService ?? true,
      pollMs: 50,
      notes: { maxAttempts: overrides.maxAttempts ?? 3, retryBaseMs: 10 },
      webhooks: {
        ...base.jobs.webhooks,
        retryBaseMs: 60_000,
        timeoutMs: 5_000,
        allowedHttpHosts: ['127.0.0.1'],
        allowedAddresses: ['127.0.0.1/32'],
      },
    },
  };
}

let h: Harness | undefined;
let second: Harness | undefined;
let receiver: WebhookReceiver | undefined;
let shared: TestDatabase | undefined;
afterEach(async () => {
  await second?.close();
  await h?.close();
  await receiver?.close();
  await shared?.dispose();
  h = second = receiver = shared = undefined;
});

async function call(harness: Harness, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return harness.request({ method, url, key: harness.project.testKey, ...(payload && { payload }) });
}

/** Queues a SOAP note of `conversation` (announced to `callbackUrl` when given) and returns its id. */
async function queueNote(harness: Harness, conversation: string, callbackUrl?: string): Promise<string> {
  const created = await call(harness, 'POST', '/api/v1/notes', {
    template_id: 'soap',
    conversation_text: conversation,
    async: true,
    ...(callbackUrl !== undefined && { callback_url: callbackUrl }),
  });
  return created.json<NoteProgress>().id;
}

async function noteWhen(
  harness: Harness,
  id: string,
  done: (note: NoteOrProgress) => boolean,
): Promise<NoteOrProgress> {
  return vi.waitFor(
    async () => {
      const body = (await call(harness, 'GET', `/api/v1/notes/${id}`)).json<NoteOrProgress>();
      if (!done(body)) throw new Error(`note ${id} is ${body.status}`);
      return body;
    },
    { timeout: 30_000, interval: 20 },
  );
}

async function callbackSecret(harness: Harness): Promise<string> {
  return (await call(harness, 'POST', '/api/v1/webhooks/callback-secret')).json<{ secret: string }>().secret;
}

async function deliveriesOf(harness: Harness, noteId: string): Promise<WebhookDelivery[]> {
  return (await call(harness, 'GET', `/api/v1/webhooks/deliveries?note_id=${noteId}`)).json<WebhookDelivery[]>();
}

async function verified(harness: Harness, body: string, headers: object, secret: string): Promise<WebhookEvent> {
  return verifyWebhook(body, headers as Record<string, string>, secret, { now: harness.clock.now() });
}

describe('asynchronous notes on the in-process queue (no Redis, SQLite)', () => {
  it('answers 202 queued, writes the note as a synchronous one, and delivers one signed event to each receiver', async () => {
    h = await createHarness({ config: jobsConfig() });
    receiver = await startWebhookReceiver();
    const secret = await callbackSecret(h);
    const endpoint = await call(h, 'POST', '/api/v1/webhooks/endpoints', {
      url: `${receiver.url}/endpoint`,
      events: ['note.ready'],
    });
    expect(endpoint.statusCode).toBe(201);
    const endpointSecret = endpoint.json<{ secret: string }>().secret;

    const request = { template_id: 'soap', conversation_text: VISIT, style: 'concise' } as const;
    const created = await call(h, 'POST', '/api/v1/notes', {
      ...request,
      async: true,
      callback_url: `${receiver.url}/callback`,
    });
    expect(created.statusCode).toBe(202);
    expect(created.json()).toMatchObject({ object: 'note', status: 'queued', template_id: 'soap', error: null });
    const id = created.json<NoteProgress>().id;
    expect(created.headers['location']).toBe(`/api/v1/notes/${id}`);

    const ready = (await noteWhen(h, id, (note) => note.status === 'ready')) as Note;
    const synchronous = (await call(h, 'POST', '/api/v1/notes', request)).json<Note>();
    expect(ready.note).toBe(synchronous.note);
    expect(ready.input_sha256).toBe(synchronous.input_sha256);

    await vi.waitFor(() => expect(receiver?.received).toHaveLength(2), { timeout: 10_000 });
    const byPath = new Map(receiver.received.map((entry) => [entry.path, entry]));
    const callback = byPath.get('/callback');
    const atEndpoint = byPath.get('/endpoint');
    const callbackEvent = await verified(h, callback?.body ?? '', callback?.headers ?? {}, secret);
    const endpointEvent = await verified(h, atEndpoint?.body ?? '', atEndpoint?.headers ?? {}, endpointSecret);
    expect(callbackEvent).toMatchObject({
      type: 'note.ready',
      environment: 'test',
      data: { note: { id, status: 'ready' } },
    });
    // One event, the same to every receiver.
    expect(endpointEvent.id).toBe(callbackEvent.id);
    expect(callback?.headers['chartwright-event-id']).toBe(callbackEvent.id);
    // Each receiver's secret signs only its own deliveries.
    await expect(verified(h, callback?.body ?? '', callback?.headers ?? {}, endpointSecret)).rejects.toMatchObject({
      code: 'webhook_signature_invalid',
    });

    const log = await deliveriesOf(h, id);
    expect(
      log.map((delivery) => [delivery.endpoint_id === null ? 'callback' : 'endpoint', delivery.status]).sort(),
    ).toEqual([
      ['callback', 'succeeded'],
      ['endpoint', 'succeeded'],
    ]);
    expect(log.every((delivery) => delivery.attempts.length === 1 && delivery.attempts[0]?.status === 200)).toBe(true);
    // The log says what happened to each attempt, never what it carried.
    expect(JSON.stringify(log)).not.toContain('bronchitis');

    // What /metrics says of it: one run ready, two attempts succeeded, nothing left in the queue.
    const scraped = await h.app.metrics.render();
    expect(sampleValue(scraped, 'chartwright_async_note_runs_total', { outcome: 'ready' })).toBe(1);
    expect(sampleValue(scraped, 'chartwright_webhook_attempts_total', { outcome: 'succeeded' })).toBe(2);
    expect(sampleValue(scraped, 'chartwright_job_queue_jobs', { kind: 'note', state: 'waiting' })).toBe(0);
    expect(sampleValue(scraped, 'chartwright_job_queue_jobs', { kind: 'delivery', state: 'active' })).toBe(0);
  });

  it('retries a delivery the receiver refused, with backoff, and logs each attempt', async () => {
    const harness = (h = await createHarness({ config: jobsConfig() }));
    receiver = await startWebhookReceiver({ status: (_path, earlier) => (earlier === 0 ? 503 : 204) });
    const secret = await callbackSecret(h);
    const id = await queueNote(h, VISIT, `${receiver.url}/hook`);
    await vi.waitFor(
      async () =>
        expect((await deliveriesOf(harness, id))[0]).toMatchObject({
          status: 'pending',
          attempts: [{ status: 503 }],
        }),
      { timeout: 30_000 },
    );
    const [pending] = await deliveriesOf(h, id);
    // The next attempt waits out the backoff (about a minute here: 60 s ± 20%).
    const wait = Date.parse(pending?.next_attempt_at ?? '') - h.clock.now();
    expect(wait).toBeGreaterThanOrEqual(48_000);
    expect(receiver.received).toHaveLength(1);
    h.clock.advance(wait);
    await vi.waitFor(async () => expect((await deliveriesOf(harness, id))[0]?.status).toBe('succeeded'), {
      timeout: 10_000,
    });
    const [delivered] = await deliveriesOf(h, id);
    expect(delivered?.attempts.map((attempt) => [attempt.number, attempt.status, attempt.error])).toEqual([
      [1, 503, null],
      [2, 204, null],
    ]);
    expect(receiver.received).toHaveLength(2);
    const [first, retried] = receiver.received;
    // The same event each time, signed anew.
    expect(retried?.body).toBe(first?.body);
    await expect(verified(h, retried?.body ?? '', retried?.headers ?? {}, secret)).resolves.toMatchObject({
      type: 'note.ready',
    });
  });

  it('retries a run whose note worker died, and fails the note once its attempts are spent, announcing note.failed', async () => {
    const harness = (h = await createHarness({ config: jobsConfig({ maxAttempts: 2 }) }));
    receiver = await startWebhookReceiver();
    const secret = await callbackSecret(h);
    await h.app.notePool.warmUp();
    const id = await queueNote(h, LONG_VISIT, `${receiver.url}/hook`);
    for (let run = 0; run < 2; run += 1) {
      // Kill the worker once it holds the note: each run fails with note_worker_crashed.
      await vi.waitFor(() => expect(harness.app.notePool.load().writing).toBe(1), { timeout: 10_000, interval: 1 });
      expect((await call(h, 'GET', `/api/v1/notes/${id}`)).json<NoteProgress>().status).toBe('generating');
      const [pid] = h.app.notePool.pids();
      process.kill(pid ?? 0, 'SIGKILL');
      await vi.waitFor(() => expect(harness.app.notePool.pids()).not.toContain(pid), { timeout: 10_000 });
      // Past the retry's backoff.
      h.clock.advance(60_000);
    }
    const failed = await noteWhen(h, id, (note) => note.status === 'failed');
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'note_generation_failed' } });
    expect((failed as NoteProgress).error?.message).toContain('note_worker_crashed');
    await vi.waitFor(() => expect(receiver?.received).toHaveLength(1), { timeout: 10_000 });
    const event = await verified(h, receiver.received[0]?.body ?? '', receiver.received[0]?.headers ?? {}, secret);
    expect(event).toMatchObject({
      type: 'note.failed',
      data: { note: { id, status: 'failed', error: { code: 'note_generation_failed' } } },
    });
    await expect(h.app.jobs.metrics()).resolves.toMatchObject({ notes: { retried: 1, failed: 1 } });
  });

  it('picks up notes left queued by a stopped service when it starts again', async () => {
    shared = await openTestDatabase('sqlite');
    h = await createHarness({ database: shared.database, config: jobsConfig({ inService: false }) });
    const id = await queueNote(h, VISIT);
    await h.close();
    expect(
      (await h.repositories.notes.getScoped(id, { projectId: h.project.id, environment: 'test' }, 0))?.status,
    ).toBe('queued');
    second = await createHarness({ database: shared.database, config: jobsConfig() });
    // The first harness's key works on the shared database.
    const ready = await noteWhen({ ...second, project: h.project }, id, (note) => note.status === 'ready');
    expect(ready).toMatchObject({ id, status: 'ready' });
  });

  it('stores one result and plans one delivery per receiver however many runs of a job overlap', async () => {
    const harness = (h = await createHarness({ config: jobsConfig({ inService: false }) }));
    receiver = await startWebhookReceiver();
    await callbackSecret(h);
    const id = await queueNote(h, LONG_VISIT, `${receiver.url}/hook`);
    const { asyncNotes, deliveries } = h.app.jobs;
    const first = asyncNotes.run(id);
    await vi.waitFor(() => expect(harness.app.notePool.load().writing).toBe(1), { timeout: 10_000, interval: 1 });
    // The first run looks dead (its lease ran out): another takes the note over while it still writes.
    h.clock.advance(16 * 60_000);
    await Promise.all([first, asyncNotes.run(id), asyncNotes.run(id)]);
    expect((await noteWhen(h, id, () => true)).status).toBe('ready');
    await expect(h.app.jobs.metrics()).resolves.toMatchObject({ notes: { ready: 1, superseded: 1 } });

    const planned = await deliveriesOf(h, id);
    expect(planned).toHaveLength(1);
    // Two senders of one delivery at once: one sends it, the other finds it taken.
    await Promise.all([deliveries.deliver(planned[0]?.id ?? ''), deliveries.deliver(planned[0]?.id ?? '')]);
    await deliveries.deliver(planned[0]?.id ?? '');
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(h, id))[0]).toMatchObject({
      status: 'succeeded',
      attempts: [{ number: 1, status: 200 }],
    });
  });

  it('keeps queued notes and the delivery log only as long as notes are kept', async () => {
    const harness = (h = await createHarness({ config: jobsConfig({ inService: false }) }));
    receiver = await startWebhookReceiver();
    await callbackSecret(harness);
    const submit = () => queueNote(harness, VISIT, `${receiver?.url ?? ''}/hook`);
    const neverRun = await submit();
    const written = await submit();
    await harness.app.jobs.asyncNotes.run(written);
    const [planned] = await deliveriesOf(harness, written);
    await harness.app.jobs.deliveries.deliver(planned?.id ?? '');
    expect(await deliveriesOf(harness, written)).toMatchObject([{ status: 'succeeded', attempts: [{ status: 200 }] }]);

    harness.clock.advance(harness.config.notes.retentionDays * 86_400_000 + 1);
    await harness.retention.sweep();
    for (const id of [neverRun, written]) {
      expect((await call(harness, 'GET', `/api/v1/notes/${id}`)).statusCode).toBe(404);
    }
    const db = harness.database.db;
    expect(await db.selectFrom('notes').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('webhook_deliveries').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('webhook_delivery_attempts').select('delivery_id').execute()).toEqual([]);
  });
});

describe('asynchronous notes when the Redis of the queue cannot be reached', () => {
  it('refuses the note with 503 service_unavailable and keeps nothing of it', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const harness = (h = await createHarness({ config: { ...jobsConfig(), redisUrl: `redis://127.0.0.1:${port}` } }));
    const refused = await call(harness, 'POST', '/api/v1/notes', {
      template_id: 'soap',
      conversation_text: VISIT,
      async: true,
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.json<ErrorBody>().error.code).toBe('service_unavailable');
    expect(await harness.database.db.selectFrom('notes').select('id').execute()).toEqual([]);
    // A synchronous note needs no queue.
    expect(
      (await call(harness, 'POST', '/api/v1/notes', { template_id: 'soap', conversation_text: VISIT })).statusCode,
    ).toBe(201);
  });
});
