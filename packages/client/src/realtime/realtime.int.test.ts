import { WebSocket as WsWebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Chartwright } from '../client.js';
import type { WebSocketConstructor } from '../core/context.js';
import { AuthenticationError } from '../errors.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import {
  goforward,
  missingSpeechTools,
  msOf,
  PocketSphinxRecognizer,
  S16_16K_BYTES_PER_SECOND,
  silence,
  streamInto,
} from '@chartwright/testing/speech.js';
import { RealtimeBufferOverflowError, RealtimeError } from './errors.js';
import type { RealtimeFinalEvent, RealtimeReconnectedEvent, RealtimeRetryingEvent } from './events.js';
import type { RealtimeTokenGrant } from './options.js';
import type { RealtimeSession } from './session.js';

/**
 * The realtime client against the real service on a local port, with the real PocketSphinx
 * recognizer. Skipped locally when the recognizer or its test audio is missing; a failure in CI.
 */
const missing = await missingSpeechTools();

const PCM16 = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;

/** What a session showed the application. */
function observe(session: RealtimeSession) {
  const seen = {
    finals: [] as RealtimeFinalEvent['segment'][],
    reconnected: [] as RealtimeReconnectedEvent[],
    reconnecting: 0,
    acks: 0,
    errors: [] as RealtimeError[],
  };
  session.on('ack', () => seen.acks++);
  session.on('final', (event) => seen.finals.push(event.segment));
  session.on('reconnected', (event) => seen.reconnected.push(event));
  session.on('reconnecting', () => seen.reconnecting++);
  session.on('error', (error) => seen.errors.push(error));
  return seen;
}

const textOf = (finals: { text: string }[]) => finals.map((final) => final.text).join(' ');

/** Waits until `condition` holds (checked every 10 ms). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Resolves on the session's next event of `type`. */
const next = (session: RealtimeSession, type: 'final' | 'reconnected' | 'ack') =>
  new Promise<unknown>((resolve) => session.once(type, resolve));

describe.skipIf(missing.length > 0)('realtime client against the service', () => {
  let recognizer: PocketSphinxRecognizer;
  let server: TestServer;
  const sessions: RealtimeSession[] = [];

  /** A fresh service whose clock reads the real time, so token expiries mean what they say. */
  async function start(realtime: { credentialCheckSeconds?: number; maxSessions?: number } = {}): Promise<TestServer> {
    const { testConfig } = await import('@chartwright/server/internal/config/config.js');
    server = await startTestServer({
      recognizer,
      config: { realtime: { ...testConfig().realtime, ...realtime } },
    });
    server.harness.clock.advance(Date.now() - server.harness.clock.now());
    return server;
  }

  const client = (apiKey = server.harness.project.testKey, options: { WebSocket?: WebSocketConstructor } = {}) =>
    new Chartwright({ apiKey, baseUrl: server.baseUrl, ...options });

  const track = (session: RealtimeSession) => {
    sessions.push(session);
    return session;
  };

  /** The segments the service stored for the session, in order. */
  const stored = async (sessionId: string) =>
    (await server.harness.repositories.transcriptSegments.listAfter(sessionId)).map((row) => ({
      id: row.id,
      text: row.text,
    }));

  /** Ends every socket of the service abruptly, as a network failure would. */
  const killSockets = () => {
    for (const socket of server.harness.app.websocketServer.clients) socket.terminate();
  };

  beforeAll(async () => {
    recognizer = new PocketSphinxRecognizer({ workers: 2 });
    await recognizer.warmUp();
  });
  afterAll(async () => {
    await recognizer.close();
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) session.close();
    await server.close();
  });

  it('transcribes speech into finals; stop() flushes the utterance in progress and resolves with the totals', async () => {
    await start();
    const session = track(await client().realtime.connect(PCM16));
    const seen = observe(session);
    const closed = new Promise((resolve) => session.once('close', resolve));
    // No trailing silence: the utterance is still open when stop() is called.
    const audio = goforward();
    await streamInto(session, audio, S16_16K_BYTES_PER_SECOND, 8);
    const ended = await session.stop();

    expect(textOf(seen.finals)).toBe('go forward ten meters');
    expect(ended).toMatchObject({ reason: 'stopped', segments: seen.finals.length, audioMs: msOf(audio.length) });
    expect(ended.sessionId).toBe(session.sessionId);
    expect(await closed).toMatchObject({ code: 1000, ended, error: undefined });
    expect(seen.errors).toEqual([]);
    expect(session.closed).toBe(true);
  }, 30_000);

  it('resumes after the socket is killed mid-utterance: every segment once, no audio lost or counted twice', async () => {
    await start();
    const session = track(await client().realtime.connect(PCM16));
    const seen = observe(session);
    const speech = goforward();
    const audio = Buffer.concat([speech, silence(1000), speech, silence(1000)]);
    // The first utterance, then the second one up to the middle of its words, then the socket dies.
    const cut = speech.length + 32_000 + Math.floor(speech.length / 2 / 2) * 2;
    await streamInto(session, audio.subarray(0, cut), S16_16K_BYTES_PER_SECOND, 4);
    await until(() => seen.finals.length > 0 && seen.acks > 0);
    const resumed = next(session, 'reconnected');
    killSockets();
    // The rest is sent while it reconnects.
    await streamInto(session, audio.subarray(cut), S16_16K_BYTES_PER_SECOND, 4);
    await resumed;
    const ended = await session.stop();

    expect(seen.reconnected).toMatchObject([{ reason: 'connection_lost', sessionId: session.sessionId }]);
    expect(ended.audioMs).toBe(msOf(audio.length));
    expect(ended.segments).toBe(seen.finals.length);
    expect(seen.finals.map(({ id, text }) => ({ id, text }))).toEqual(await stored(session.sessionId));
    expect(new Set(seen.finals.map((final) => final.id)).size).toBe(seen.finals.length);
    // The acknowledged audio stopped at the second utterance, so the session kept it and sent it
    // again: the utterance the cut went through is decoded again whole, in context, and comes once.
    expect(textOf(seen.finals)).toBe('go forward ten meters go forward ten meters');
    const times = seen.finals.flatMap((final) => [final.startMs, final.endMs]);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }, 60_000);

  it('refreshes a short-lived token ahead of expiry by moving to a new socket, losing nothing', async () => {
    await start();
    const server = client();
    const minted: string[] = [];
    const token = async (): Promise<RealtimeTokenGrant> => {
      const grant = await server.realtime.tokens.create({ expiresInSeconds: 60 });
      minted.push(grant.token);
      return grant;
    };
    // A 60 s token with a 57 s margin is refreshed as soon as the session allows (5 s).
    const session = track(await client('unused').realtime.connect({ ...PCM16, token, tokenRefreshMarginMs: 57_000 }));
    const seen = observe(session);
    const utterance = Buffer.concat([goforward(), silence(1000)]);
    const refreshed = next(session, 'reconnected');
    await streamInto(session, utterance, S16_16K_BYTES_PER_SECOND, 4);
    await refreshed;
    await streamInto(session, utterance, S16_16K_BYTES_PER_SECOND, 4);
    const ended = await session.stop();

    expect(minted.length).toBeGreaterThanOrEqual(2);
    expect(seen.reconnected[0]).toMatchObject({ reason: 'token_refresh', attempts: 1 });
    expect(textOf(seen.finals)).toBe('go forward ten meters go forward ten meters');
    expect(seen.finals.map(({ id, text }) => ({ id, text }))).toEqual(await stored(session.sessionId));
    expect(ended.audioMs).toBe(msOf(2 * utterance.length));
  }, 60_000);

  it('fetches a fresh token when the service ends the socket for a revoked credential (4002)', async () => {
    await start({ credentialCheckSeconds: 1 });
    const { harness } = server;
    const doomedKey = await harness.keys.create({ projectId: harness.project.id, environment: 'test' });
    const keys = [doomedKey.secret, harness.project.testKey];
    const calls: string[] = [];
    const token = async () => {
      const key = keys[Math.min(calls.length, 1)]!;
      calls.push(key);
      return client(key).realtime.tokens.create({ expiresInSeconds: 600 });
    };
    const session = track(await client('unused').realtime.connect({ ...PCM16, token }));
    const seen = observe(session);
    await streamInto(session, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, 4);
    const resumed = next(session, 'reconnected');
    await harness.keys.revoke(doomedKey.key.id);
    await resumed;
    await streamInto(session, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, 4);
    const ended = await session.stop();

    expect(calls).toEqual(keys);
    expect(seen.reconnected).toMatchObject([{ reason: 'credential_expired' }]);
    expect(textOf(seen.finals)).toBe('go forward ten meters go forward ten meters');
    expect(ended.segments).toBe(2);
  }, 60_000);

  it('fetches a fresh token when the service refuses the old one at a reconnect (401)', async () => {
    await start();
    const { harness } = server;
    const doomedKey = await harness.keys.create({ projectId: harness.project.id, environment: 'test' });
    let calls = 0;
    const token = async () => {
      calls++;
      const key = calls === 1 ? doomedKey.secret : harness.project.testKey;
      return client(key).realtime.tokens.create({ expiresInSeconds: 600 });
    };
    const session = track(await client('unused').realtime.connect({ ...PCM16, token }));
    const seen = observe(session);
    await streamInto(session, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, 4);
    const resumed = next(session, 'reconnected');
    await harness.keys.revoke(doomedKey.key.id);
    killSockets();
    await resumed;
    const ended = await session.stop();

    expect(calls).toBe(2);
    // The first reconnect presented the revoked token (401 api_key_revoked); the second a fresh one.
    expect(seen.reconnected).toMatchObject([{ reason: 'connection_lost', attempts: 2 }]);
    expect(textOf(seen.finals)).toBe('go forward ten meters');
    expect(ended.segments).toBe(1);
  }, 60_000);

  it('tells onRetrying each time a start is refused for capacity, and opens once a place is free', async () => {
    await start({ maxSessions: 1 });
    const first = await client().realtime.connect(PCM16);
    const retries: RealtimeRetryingEvent[] = [];
    const second = client()
      .realtime.connect({ ...PCM16, maxReconnectAttempts: 3, onRetrying: (event) => retries.push(event) })
      .then(track);
    await until(() => retries.length === 2);
    first.close();
    const opened = await second;

    // The place is freed while the third attempt waits; a slow machine may refuse that one too.
    expect(retries.slice(0, 2).map(({ attempt, of, error }) => ({ attempt, of, code: error.code }))).toEqual([
      { attempt: 2, of: 4, code: 'at_capacity' },
      { attempt: 3, of: 4, code: 'at_capacity' },
    ]);
    expect(retries.every(({ error }) => error.code === 'at_capacity')).toBe(true);
    expect(retries.every(({ delayMs }) => delayMs > 0)).toBe(true);
    expect(opened.sessionId).toMatch(/^rts_/);
  }, 30_000);

  it('throws RealtimeBufferOverflowError past maxBufferedAudioMs of unacknowledged audio, and carries on', async () => {
    await start();
    const session = track(await client().realtime.connect({ ...PCM16, maxBufferedAudioMs: 4000 }));
    // An utterance and the silence that ends it, sent without yielding: no ack can arrive in between.
    const audio = Buffer.concat([goforward(), silence(1200)]);
    const frame = 3200;
    for (let offset = 0; offset < audio.length; offset += frame) session.send(audio.subarray(offset, offset + frame));
    expect(() => session.send(silence(100))).toThrow(RealtimeBufferOverflowError);
    expect(() => session.send(silence(100))).toThrow(
      expect.objectContaining({ code: 'audio_buffer_full', fatal: false }),
    );
    // Its final is stored and acknowledged without more audio, which frees the buffer.
    await next(session, 'ack');
    session.send(silence(100));
    const ended = await session.stop();
    expect(ended.audioMs).toBe(msOf(audio.length) + 100);
  }, 30_000);

  it('rejects a start the service refuses without retrying it, over an injected WebSocket', async () => {
    await start();
    let sockets = 0;
    class CountingWebSocket extends WsWebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols);
        sockets++;
      }
    }
    const connecting = client(server.harness.project.testKey, { WebSocket: CountingWebSocket }).realtime.connect({
      ...PCM16,
      language: 'fr-FR',
    });
    await expect(connecting).rejects.toMatchObject({
      name: 'RealtimeError',
      code: 'unsupported_language',
      fatal: true,
    });
    expect(sockets).toBe(1);
  });

  it('rejects an unknown key with AuthenticationError, naming no credential', async () => {
    await start();
    const key = 'sk_test_doesnotexist0000000000000000';
    const error: unknown = await client(key)
      .realtime.connect(PCM16)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect((error as Error).message).not.toContain(key);
  });
});
