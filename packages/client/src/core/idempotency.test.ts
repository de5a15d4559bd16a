import { createAdminToken, setUpOwner } from '@chartwright/testing/console.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Chartwright } from '../index.js';
import { ChartwrightError } from '../errors.js';
import { ManagementClient } from '../management/management-client.js';
import { recordingFetch, startTestServer, type TestServer } from '../test-support/server.js';
import { newIdempotencyKey } from './idempotency-key.js';

// The library's creates against the real service, with the network failing in front of it.
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const VISIT = 'Doctor: What brings you in?\nPatient: A sore throat since Monday.';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A first attempt that reaches the service, which acts on it, and whose answer is lost: `timeout`
 * holds it until the attempt's timer aborts it, `reset` fails it as a dropped connection. Either
 * way the failure comes only after the service answered, so the retry finds the first answer kept.
 */
function answerLost(way: 'timeout' | 'reset', path: string) {
  return recordingFetch((attempt, init) => {
    if (attempt !== 1) return undefined;
    const { signal, ...rest } = init;
    const delivered = globalThis.fetch(`${server.baseUrl}${path}`, rest).then((answer) => answer.text());
    const lost = new TypeError('fetch failed', {
      cause: Object.assign(new Error('socket'), { code: 'UND_ERR_SOCKET' }),
    });
    if (way === 'reset') return delivered.then(() => Promise.reject(lost));
    return new Promise<Response>((_resolve, reject) => {
      signal?.addEventListener('abort', () => {
        void delivered.then(() => reject(new DOMException('aborted', 'AbortError')));
      });
    });
  });
}

const noteCount = async () => (await server.harness.database.db.selectFrom('notes').select('id').execute()).length;

describe('creates with an Idempotency-Key', () => {
  it.each(['timeout', 'reset'] as const)(
    'retry a note whose answer was lost (%s) with the same key, and get the one note the service made',
    async (way) => {
      const recorded = answerLost(way, '/api/v1/notes');
      const chartwright = new Chartwright({
        apiKey: server.harness.project.testKey,
        baseUrl: server.baseUrl,
        fetch: recorded.fetch,
        timeout: 1000,
      });
      const note = await chartwright.notes.create({ templateId: 'soap', conversationText: VISIT });
      const keys = recorded.attempts.map((attempt) => attempt.headers.get('idempotency-key'));
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(UUID_V4);
      expect(keys[1]).toBe(keys[0]);
      expect(await noteCount()).toBe(1);
      expect(await chartwright.notes.retrieve(note.id)).toEqual(note);
    },
  );

  it('retry a note after a 503 from a proxy in front of the service, with the same key', async () => {
    const recorded = recordingFetch((attempt) =>
      attempt === 1
        ? Promise.resolve(new Response('Service Unavailable', { status: 503, headers: { 'retry-after-ms': '0' } }))
        : undefined,
    );
    const chartwright = new Chartwright({
      apiKey: server.harness.project.testKey,
      baseUrl: server.baseUrl,
      fetch: recorded.fetch,
    });
    await chartwright.realtime.tokens.create({ expiresInSeconds: 60 });
    const [first, second] = recorded.attempts.map((attempt) => attempt.headers.get('idempotency-key'));
    expect(first).toMatch(UUID_V4);
    expect(second).toBe(first);
  });

  it('send a new key with each call, or the caller’s own, which the service answers with its first answer', async () => {
    const recorded = recordingFetch();
    const chartwright = new Chartwright({
      apiKey: server.harness.project.testKey,
      baseUrl: server.baseUrl,
      fetch: recorded.fetch,
    });
    await chartwright.notes.create({ templateId: 'soap', conversationText: VISIT });
    await chartwright.notes.create({ templateId: 'soap', conversationText: VISIT });
    const [a, b] = recorded.attempts.map((attempt) => attempt.headers.get('idempotency-key'));
    expect(a).not.toBe(b);
    expect(await noteCount()).toBe(2);

    const params = { templateId: 'soap', conversationText: VISIT };
    const first = await chartwright.notes.create(params, { idempotencyKey: 'visit-2024-0042' });
    const again = await chartwright.notes.create(params, { idempotencyKey: 'visit-2024-0042' });
    expect(again).toEqual(first);
    expect(recorded.attempts.at(-1)?.headers.get('idempotency-key')).toBe('visit-2024-0042');
    expect(await noteCount()).toBe(3);
    // Reads carry none.
    await chartwright.notes.retrieve(first.id);
    expect(recorded.attempts.at(-1)?.headers.has('idempotency-key')).toBe(false);
  });

  it('refuse a malformed key of the caller’s before any request', async () => {
    const recorded = recordingFetch();
    const chartwright = new Chartwright({
      apiKey: server.harness.project.testKey,
      baseUrl: server.baseUrl,
      fetch: recorded.fetch,
    });
    for (const idempotencyKey of ['', 'k'.repeat(256), 'clé']) {
      const refused = chartwright.notes.create({ templateId: 'soap', conversationText: VISIT }, { idempotencyKey });
      await expect(refused).rejects.toBeInstanceOf(ChartwrightError);
      await expect(refused).rejects.toMatchObject({ code: 'invalid_argument' });
    }
    expect(recorded.attempts).toHaveLength(0);
  });

  it('retry a new API key whose answer was lost, and get its secret: one key made', async () => {
    const { secret: adminToken } = await createAdminToken(await setUpOwner(server.harness), 'admin');
    const projectId = server.harness.project.id;
    const recorded = answerLost('reset', `/api/v1/projects/${projectId}/keys`);
    const management = new ManagementClient({ adminToken, baseUrl: server.baseUrl, fetch: recorded.fetch });
    const issued = await management.keys.create(projectId, { environment: 'test', name: 'retried' });
    expect(recorded.attempts).toHaveLength(2);
    const keys = await management.keys.list(projectId);
    expect(keys.filter((key) => key.name === 'retried').map((key) => key.id)).toEqual([issued.key.id]);
    const works = new Chartwright({ apiKey: issued.secret, baseUrl: server.baseUrl });
    await expect(works.templates.list()).resolves.toEqual(expect.any(Array));
  });
});

describe('newIdempotencyKey', () => {
  it('is a version 4 UUID from randomUUID, getRandomValues, or (Node 18) Math.random', () => {
    const fromRandomUuid = newIdempotencyKey({ crypto: { randomUUID: () => '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed' } });
    expect(fromRandomUuid).toBe('1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed');
    const zeros = newIdempotencyKey({ crypto: { getRandomValues: <T>(bytes: T) => bytes } });
    expect(zeros).toBe('00000000-0000-4000-8000-000000000000');
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey({})));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(UUID_V4);
  });
});
