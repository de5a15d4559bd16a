import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { REALTIME_WS_PATH } from '@chartwright/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { Chartwright, ManagementClient, type RealtimeSession } from '@chartwright/client';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '@chartwright/testing/databases.js';
import { missingHaproxy } from '@chartwright/testing/haproxy.js';
import { open } from '@chartwright/testing/realtime-client.js';
import { startCluster, type Cluster, type ClusterInstance } from '@chartwright/testing/scale-out-cluster.js';
import {
  missingSpeechTools,
  msOf,
  S16_16K_BYTES_PER_SECOND,
  silence,
  spokenBytes,
  streamInto,
} from '@chartwright/testing/speech.js';

/**
 * Three real service processes (the built entry `npm start` runs, with the PocketSphinx recognizer)
 * on one PostgreSQL database and one Redis, behind HAProxy running deploy/haproxy/haproxy.cfg as
 * operators do. Skipped locally when HAProxy, the recognizer, PostgreSQL or Redis is missing; a
 * failure in CI.
 */
const missing = [
  ...missingHaproxy(),
  ...(await missingSpeechTools()),
  ...(TEST_DATABASE_URL === undefined || TEST_REDIS_URL === undefined ? ['TEST_DATABASE_URL and TEST_REDIS_URL'] : []),
];

/** The per-project REST limit every instance is given: low, so a test reaches it. */
const RATE_LIMIT = 60;
/** Realtime sockets each instance serves at once. */
const MAX_SESSIONS = 3;

const PCM16 = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const SENTENCES = [
  'the patient has had a dry cough for two weeks',
  'she takes one tablet of ibuprofen twice a day',
  'we will check her blood pressure again next month',
];

/**
 * Each sentence spoken by flite, then a second of quiet that ends its utterance; and where the
 * instance dies, halfway through the second utterance, in its words. Made when the case runs, so
 * a machine without flite skips the file rather than failing to load it.
 */
function visit(): { audio: Buffer; cut: number } {
  const utterances = SENTENCES.map((sentence) => Buffer.concat([spokenBytes(sentence), silence(1000)]));
  const lead = silence(500);
  const [first, second] = utterances as [Buffer, Buffer, Buffer];
  return {
    audio: Buffer.concat([lead, ...utterances]),
    cut: lead.length + first.length + Math.floor(second.length / 4) * 2,
  };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** How long to wait for something that must happen: generous, for a loaded machine. */
const WAIT = { timeout: 60_000, interval: 20 };

/** The status and error code of `GET /api/v1/templates` at `base` with `key`. */
async function templates(base: string, key: string): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${base}/api/v1/templates`, { headers: bearer(key) });
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, ...(body.error === undefined ? {} : { code: body.error.code }) };
}

/** What a realtime session showed the application. */
function observe(session: RealtimeSession) {
  const seen = {
    finals: [] as { id: string; text: string; startMs: number; endMs: number }[],
    acks: 0,
    reconnected: 0,
  };
  session.on('final', ({ segment }) => seen.finals.push(segment));
  session.on('ack', () => seen.acks++);
  session.on('reconnected', () => seen.reconnected++);
  return seen;
}

/** A GET from `localAddress` (node:http, since fetch cannot choose it); resolves to the response's request id. */
function getFrom(localAddress: string, url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { localAddress, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.headers['x-request-id'])));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe.skipIf(missing.length > 0)('three instances behind HAProxy', () => {
  let cluster: Cluster;
  let management: ManagementClient;

  beforeAll(async () => {
    cluster = await startCluster({
      // Two cores run three instances: one recognizer worker and one note worker each.
      REALTIME_RECOGNIZER_WORKERS: '1',
      NOTES_WORKERS: '1',
      API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      // Few, so a case fills an instance: three sockets per instance at most in any other case.
      REALTIME_MAX_SESSIONS: String(MAX_SESSIONS),
      // Full is REALTIME_MAX_SESSIONS alone, whatever the recognizer measured: three instances share
      // two cores, and a cold one assumes a slow machine (recognizer-capacity.int.test.ts tests that).
      REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: '0',
    });
    management = new ManagementClient({ adminToken: await cluster.adminToken(), baseUrl: cluster.proxy.url });
  }, 120_000);
  // Each case starts with all three: an instance a case killed or drained is started again.
  afterEach(async () => {
    await cluster.heal();
  }, 120_000);
  afterAll(async () => {
    await cluster.close();
  });

  const instance = (index: number): ClusterInstance => cluster.instances[index]!;

  /** A project of its own with a sandbox key, so each case has the whole rate limit to itself. */
  async function newProject(name: string) {
    const project = await management.projects.create({ name });
    const { key, secret } = await management.keys.create(project.id, { environment: 'test' });
    return { projectId: project.id, keyId: key.id, key: secret };
  }

  it('resumes a realtime session through the proxy on another instance when its instance is killed: no segment lost or repeated', async () => {
    const { key } = await newProject('realtime');
    const { audio, cut } = visit();
    const client = new Chartwright({ apiKey: key, baseUrl: cluster.proxy.url });
    // One session per instance: HAProxy sends each new socket to the instance with the fewest.
    const sessions = await Promise.all(SENTENCES.map(() => client.realtime.connect(PCM16)));
    const seen = sessions.map(observe);
    const [victim] = sessions as [RealtimeSession];
    const victimSeen = seen[0]!;

    // At the pace of speech, as a microphone sends it: two loaded cores keep up with three streams.
    await Promise.all(
      sessions.map((session) => streamInto(session, audio.subarray(0, cut), S16_16K_BYTES_PER_SECOND, 1)),
    );
    await expect.poll(() => victimSeen.finals.length > 0 && victimSeen.acks > 0, WAIT).toBe(true);
    const holder = await cluster.instanceThatLogged('realtime session started', 'sessionId', victim.sessionId);
    holder.process.child.kill('SIGKILL');
    // The rest is sent while the session reconnects; the client keeps what was not acknowledged.
    await Promise.all(sessions.map((session) => streamInto(session, audio.subarray(cut), S16_16K_BYTES_PER_SECOND, 1)));
    await expect.poll(() => victimSeen.reconnected, WAIT).toBeGreaterThan(0);
    const resumedOn = await cluster.instanceThatLogged('realtime session resumed', 'sessionId', victim.sessionId);
    expect(resumedOn).not.toBe(holder);
    const ended = await Promise.all(sessions.map((session) => session.stop()));

    for (const [i, session] of sessions.entries()) {
      const finals = (seen[i]?.finals ?? []).map(({ id, text }) => ({ id, text }));
      const stored = await fetch(`${cluster.proxy.url}/api/v1/realtime/sessions/${session.sessionId}`, {
        headers: bearer(key),
      });
      const record = (await stored.json()) as { segments: { id: string; text: string }[] };
      expect(finals).toEqual(record.segments.map(({ id, text }) => ({ id, text })));
      // One final per sentence, numbered without a gap, each after the one before it.
      expect(finals.map(({ id }) => id)).toEqual(SENTENCES.map((_, n) => `seg_${String(n + 1).padStart(6, '0')}`));
      const times = (seen[i]?.finals ?? []).flatMap(({ startMs, endMs }) => [startMs, endMs]);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(ended[i]).toMatchObject({ audioMs: msOf(audio.length), segments: SENTENCES.length });
    }
    // The same audio, the same words, whether its instance died under it or not.
    const texts = seen.map(({ finals }) => finals.map(({ text }) => text));
    expect(texts[0]).toEqual(texts.find((_, i) => i > 0 && seen[i]?.reconnected === 0));
  }, 120_000);

  it('sends new realtime sockets past an instance with no room for them: none is refused', async () => {
    const { key } = await newProject('full instance');
    const wsUrl = (base: string) => `${base.replace(/^http/, 'ws')}${REALTIME_WS_PATH}`;
    const full = instance(0);
    // The first instance filled straight, past the proxy, whose fewest-connections count sees none of it.
    const direct = [];
    for (let i = 0; i < MAX_SESSIONS; i++) direct.push(await open(wsUrl(full.url), { bearer: key }));
    await cluster.proxy.waitForServers({ [full.name]: 'DOWN' }, 'chartwright_realtime');
    // Out of the realtime backend only: it still serves the REST API.
    expect((await cluster.proxy.servers())[full.name]).toBe('UP');

    // As many new sessions through the proxy as the other two instances hold. Counted by connections
    // alone, the full instance (none through the proxy) would be the first chosen, and refuse.
    const proxied = [];
    for (let i = 0; i < 2 * MAX_SESSIONS; i++) {
      const client = await open(wsUrl(cluster.proxy.url), { bearer: key });
      proxied.push(client);
      client.send({ type: 'start', audio: PCM16 });
      await client.next('started', 30_000);
    }
    expect(proxied.flatMap((client) => client.of('error'))).toEqual([]);
    // The sockets it held carry on.
    for (const client of direct) expect(client.socket.readyState).toBe(WebSocket.OPEN);

    for (const client of [...direct, ...proxied]) client.socket.close();
    await cluster.proxy.waitForServers({ [full.name]: 'UP' }, 'chartwright_realtime');
  }, 90_000);

  it('honours a key rotated through one instance, and one revoked through another, on every instance at once', async () => {
    const { projectId, keyId, key } = await newProject('rotation');
    const everywhere = [...cluster.instances.map(({ url }) => url), ...cluster.instances.map(() => cluster.proxy.url)];
    // Every instance has used the key, so each holds it in its cache.
    for (const base of [...everywhere, ...everywhere]) expect((await templates(base, key)).status).toBe(200);

    const { replacement } = await new ManagementClient({
      adminToken: await cluster.adminToken(),
      baseUrl: instance(0).url,
    }).keys.rotate(projectId, keyId, { graceSeconds: 0 });
    for (const base of everywhere) {
      expect(await templates(base, key)).toEqual({ status: 401, code: 'api_key_expired' });
      expect(await templates(base, replacement.secret)).toEqual({ status: 200 });
    }

    await new ManagementClient({ adminToken: await cluster.adminToken(), baseUrl: instance(1).url }).keys.revoke(
      projectId,
      replacement.key.id,
    );
    for (const base of everywhere) {
      expect(await templates(base, replacement.secret)).toEqual({ status: 401, code: 'api_key_revoked' });
    }
  }, 60_000);

  it('counts the per-project rate limit across every instance: exactly the limit gets through', async () => {
    const { key } = await newProject('rate limit');
    // A burst split across two minutes' windows may rightly let one more through (the earlier window
    // is weighted by what remains of it); start it well inside one window.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 40_000) await sleep(60_000 - intoWindow + 500);
    const targets = [
      ...Array.from({ length: 25 }, () => cluster.instances.map(({ url }) => url)).flat(),
      ...Array.from({ length: 15 }, () => cluster.proxy.url),
    ];
    const answers = await Promise.all(targets.map((base) => templates(base, key)));

    expect(answers.filter(({ status }) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(answers.filter(({ code }) => code === 'rate_limited')).toHaveLength(targets.length - RATE_LIMIT);
  }, 60_000);

  it('drains an instance on SIGTERM while requests flow through the proxy: none fails', async () => {
    // A project per authenticated flow, each flow well under its limit however long the case runs.
    const [reading, minting] = [await newProject('drain: reads'), await newProject('drain: tokens')];
    const answered: { what: string; status: number }[] = [];
    let flowing = true;
    /** Sends requests one after another until told to stop; a failed connection counts as status 0. */
    const flow = async (what: string, send: () => Promise<Response>, pauseMs: number) => {
      while (flowing) {
        const status = await send().then(
          async (response) => (await response.arrayBuffer(), response.status),
          () => 0,
        );
        answered.push({ what, status });
        await sleep(pauseMs);
      }
    };
    const proxy = cluster.proxy.url;
    const flows = [
      flow('GET /api/v1/templates', () => fetch(`${proxy}/api/v1/templates`, { headers: bearer(reading.key) }), 500),
      flow(
        'POST /api/v1/realtime/tokens',
        () =>
          fetch(`${proxy}/api/v1/realtime/tokens`, {
            method: 'POST',
            headers: { ...bearer(minting.key), 'content-type': 'application/json' },
            body: '{}',
          }),
        500,
      ),
      flow('GET /api/v1/openapi.json', () => fetch(`${proxy}/api/v1/openapi.json`), 20),
      flow('GET /healthz', () => fetch(`${proxy}/healthz`), 20),
    ];
    await expect.poll(() => answered.length, WAIT).toBeGreaterThanOrEqual(40);

    const drained = instance(1);
    drained.process.child.kill('SIGTERM');
    // Readiness fails while the instance still listens, so the balancer's checks see it go.
    let readiness = 200;
    while (readiness !== 503) {
      const response = await fetch(`${drained.url}/readyz`).catch((error: unknown) => {
        throw new Error('the instance stopped listening before /readyz failed', { cause: error });
      });
      readiness = response.status;
      await response.arrayBuffer();
    }
    await cluster.proxy.waitForServers({ [drained.name]: 'DOWN' });
    expect(await drained.process.exited).toBe(0);
    const afterExit = answered.length;
    await expect.poll(() => answered.length, WAIT).toBeGreaterThanOrEqual(afterExit + 40);
    flowing = false;
    await Promise.all(flows);

    expect(answered.filter(({ status }) => status !== 200 && status !== 201)).toEqual([]);
  }, 90_000);

  it('takes each client’s address from the proxy’s X-Forwarded-For, never from one the client wrote', async () => {
    const { key } = await newProject('addresses');
    const claimed = { ...bearer(key), 'x-forwarded-for': '203.0.113.7' };
    const path = '/api/v1/realtime/sessions/rts_none';
    const throughProxy = await getFrom('127.0.0.3', `${cluster.proxy.url}${path}`, claimed);
    const direct = await getFrom('127.0.0.3', `${instance(2).url}${path}`, claimed);

    const { data } = await management.auditEvents.list({ resourceType: 'realtime_session' });
    const addressOf = (requestId: string) => data.find((event) => event.requestId === requestId)?.ip;
    expect(addressOf(throughProxy)).toBe('127.0.0.3');
    expect(addressOf(direct)).toBe('127.0.0.3');
  });

  // Note workers on two processes sharing the asynchronous note queue, every job done once: the
  // note queue's case on this cluster belongs here.
});
