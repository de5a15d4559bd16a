import { REALTIME_CLOSE_CODES, REALTIME_SUBPROTOCOL } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { RecognizerEmitter } from '../asr/emitter.js';
import type { Recognizer, RecognizerStatus, RecognizerStream } from '../asr/recognizer.js';
import type { RealtimeConfig } from '../config/config.js';
import { createHarness, type Harness } from '../test-support/harness.js';
import { connect, open, realtimeUrl, type RealtimeClient } from '../test-support/realtime-client.js';

/**
 * The socket's framing, authentication and limits, over a real server on port 0 with a scripted
 * recognizer (the real one is exercised in realtime.int.test.ts): each written chunk yields a
 * partial, and finalize/end turn what was written into one final.
 */
class ScriptedStream extends RecognizerEmitter implements RecognizerStream {
  samples = 0;
  private utteranceStart = 0;
  write(pcm: Int16Array): void {
    this.samples += pcm.length;
    this.emit('partial', { text: `heard ${this.samples}` });
  }
  finalize(): void {
    if (this.samples === this.utteranceStart) return;
    const startMs = this.utteranceStart / 16;
    const endMs = this.samples / 16;
    this.utteranceStart = this.samples;
    this.emit('final', { text: `samples ${this.samples}`, startMs, endMs });
  }
  end(): Promise<void> {
    this.finalize();
    return Promise.resolve();
  }
}

class ScriptedRecognizer implements Recognizer {
  readonly name = 'scripted';
  readonly streams: ScriptedStream[] = [];
  constructor(private readonly available = true) {}
  status(): Promise<RecognizerStatus> {
    return Promise.resolve(
      this.available
        ? { available: true }
        : { available: false, reason: 'the library is missing', installCommand: 'apt-get install -y thing' },
    );
  }
  openStream(): Promise<RecognizerStream> {
    const stream = new ScriptedStream();
    this.streams.push(stream);
    return Promise.resolve(stream);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const START = { type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } } as const;

async function mintToken(h: Harness, key: string, expiresInSeconds = 3600): Promise<string> {
  const response = await h.request({
    method: 'POST',
    url: '/api/v1/realtime/tokens',
    key,
    payload: { expiresInSeconds },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ token: string }>().token;
}

async function started(client: RealtimeClient, start: object = START) {
  client.send(start);
  return client.next('started');
}

describe('realtime WebSocket (scripted recognizer)', () => {
  let h: Harness;
  let url: string;
  let recognizer: ScriptedRecognizer;
  const clients: RealtimeClient[] = [];

  async function setUp(realtime: Partial<RealtimeConfig> = {}, available = true) {
    recognizer = new ScriptedRecognizer(available);
    const base = (await import('../config/config.js')).testConfig().realtime;
    h = await createHarness({ recognizer, config: { realtime: { ...base, ...realtime } } });
    url = await realtimeUrl(h.app);
  }
  const track = (client: RealtimeClient) => {
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    await setUp();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.terminate();
    await h.close();
  });

  describe('authentication at the upgrade', () => {
    it('accepts an sk_ key in Authorization: Bearer', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      const event = await started(client);
      expect(event.credentialExpiresAt).toBeNull();
      expect(h.app.realtime.sessions()).toMatchObject([{ environment: 'test', credential: 'api_key' }]);
    });

    it('accepts an sk_ key as a subprotocol, selecting chartwright.realtime.v1 and never echoing the credential', async () => {
      const connection = await connect(url, { subprotocolCredential: h.project.liveKey });
      expect(connection.ok).toBe(true);
      if (!connection.ok) return;
      track(connection.client);
      expect(connection.protocol).toBe(REALTIME_SUBPROTOCOL);
      await started(connection.client);
    });

    it('accepts a svc_rt_ token as a subprotocol and reports its expiry', async () => {
      const token = await mintToken(h, h.project.testKey, 600);
      const client = track(await open(url, { subprotocolCredential: token }));
      const event = await started(client);
      expect(event.credentialExpiresAt).toBe(new Date(h.clock.now() + 600_000).toISOString());
      expect(h.app.realtime.sessions()).toMatchObject([{ credential: 'realtime_token', environment: 'test' }]);
    });

    it('accepts a token of the other environment, bound to that environment', async () => {
      const token = await mintToken(h, h.project.liveKey);
      const client = track(await open(url, { subprotocolCredential: token }));
      await started(client);
      expect(h.app.realtime.sessions()).toMatchObject([
        { credential: 'realtime_token', environment: 'live', projectId: h.project.id },
      ]);
    });

    it('refuses an expired token with 401 realtime_token_expired', async () => {
      const token = await mintToken(h, h.project.testKey, 60);
      h.clock.advance(61_000);
      const connection = await connect(url, { subprotocolCredential: token });
      expect(connection).toMatchObject({ ok: false, status: 401, body: { error: { code: 'realtime_token_expired' } } });
    });

    it('refuses a token whose parent key was revoked with 401', async () => {
      const token = await mintToken(h, h.project.testKey);
      await h.keys.revoke(h.project.testKeyId);
      const connection = await connect(url, { subprotocolCredential: token });
      expect(connection).toMatchObject({ ok: false, status: 401, body: { error: { code: 'api_key_revoked' } } });
    });

    it('refuses an unknown credential with 401 invalid_api_key', async () => {
      for (const options of [{ bearer: 'sk_test_nope' }, { subprotocolCredential: 'svc_rt_nope' }]) {
        const connection = await connect(url, options);
        expect(connection).toMatchObject({ ok: false, status: 401, body: { error: { code: 'invalid_api_key' } } });
      }
    });

    it('never reads a credential from the query string, and never logs the query', async () => {
      const connection = await connect(url, { query: `?token=${h.project.testKey}&api_key=${h.project.testKey}` });
      expect(connection).toMatchObject({ ok: false, status: 401, body: { error: { code: 'missing_authorization' } } });
      if (!connection.ok) expect(connection.body.error.message).toContain('never read from the URL');
      const token = await mintToken(h, h.project.testKey);
      track(await open(url, { subprotocolCredential: token, query: '?secret=visible-only-to-the-server' }));
      expect(h.logs.text).not.toContain(h.project.testKey);
      expect(h.logs.text).not.toContain(token);
      expect(h.logs.text).not.toContain('visible-only-to-the-server');
    });

    it('needs the chartwright.realtime.v1 subprotocol beside auth.<credential>', async () => {
      const connection = await connect(url, { protocols: [`auth.${h.project.testKey}`] });
      expect(connection).toMatchObject({
        ok: false,
        status: 401,
        body: { error: { code: 'malformed_authorization' } },
      });
    });

    it('answers a plain GET with 400 once authenticated', async () => {
      const response = await h.request({ method: 'GET', url: '/api/v1/realtime', key: h.project.testKey });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('bad_request');
    });
  });

  describe('session protocol', () => {
    it('starts, acknowledges audio, sends partials and finals, and flushes on stop', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      const event = await started(client);
      expect(event).toMatchObject({
        sessionId: expect.stringMatching(/^rts_/) as unknown,
        resumed: false,
        audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 },
        limits: { idleTimeoutSeconds: 30, keepaliveIntervalSeconds: 10, maxFrameBytes: 262_144 },
      });
      for (let i = 0; i < 12; i++) client.socket.send(Buffer.alloc(3200)); // 12 × 100 ms
      client.send({ type: 'finalize' });
      client.socket.send(Buffer.alloc(3200));
      client.send({ type: 'stop' });
      const closed = await client.closed;
      expect(closed.code).toBe(REALTIME_CLOSE_CODES.normal);
      expect(client.of('ack').map((ack) => ack.audioMs)).toEqual([500, 1000]);
      expect(client.of('partial').length).toBe(13);
      const finals = client.of('final').map((final) => final.segment);
      expect(finals).toEqual([
        { id: 'seg_000001', text: 'samples 19200', startMs: 0, endMs: 1200, channel: 0, speaker: 'unknown' },
        { id: 'seg_000002', text: 'samples 20800', startMs: 1200, endMs: 1300, channel: 0, speaker: 'unknown' },
      ]);
      expect(client.events.at(-1)).toEqual({
        type: 'ended',
        sessionId: event.sessionId,
        reason: 'stopped',
        audioMs: 1300,
        segments: 2,
      });
      // Partials come before the final they lead to.
      const types = client.events.map((e) => e.type);
      expect(types.indexOf('partial')).toBeLessThan(types.indexOf('final'));
    });

    it('splits two channels into clinician and patient streams and converts float PCM at 48 kHz', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client, {
        type: 'start',
        audio: { encoding: 'pcm_f32le', sampleRate: 48000, channels: 2 },
        interimResults: false,
      });
      client.socket.send(Buffer.alloc(4800 * 2 * 4)); // 100 ms, stereo, float
      client.send({ type: 'stop' });
      await client.closed;
      expect(recognizer.streams.map((stream) => stream.samples)).toEqual([1600, 1600]);
      expect(client.of('partial')).toEqual([]);
      expect(client.of('final').map((f) => [f.segment.channel, f.segment.speaker])).toEqual([
        [0, 'clinician'],
        [1, 'patient'],
      ]);
    });

    it.each([
      ['a non-JSON text frame', 'hello', 'invalid_message'],
      ['an unknown message type', '{"type":"shout"}', 'unknown_message_type'],
      ['a control message before start', '{"type":"finalize"}', 'invalid_message'],
      [
        'an unsupported encoding',
        '{"type":"start","audio":{"encoding":"opus","sampleRate":16000}}',
        'unsupported_encoding',
      ],
      [
        'an unsupported language',
        '{"type":"start","audio":{"encoding":"pcm_s16le","sampleRate":16000},"language":"fr-FR"}',
        'unsupported_language',
      ],
      [
        'a resume (not served yet)',
        '{"type":"start","audio":{"encoding":"pcm_s16le","sampleRate":16000},"resume":{"sessionId":"rts_x","resumeToken":"t","lastAckedAudioMs":0}}',
        'resume_failed',
      ],
    ])('answers %s with a non-fatal coded error, then still starts', async (_name, frame, code) => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      client.socket.send(frame);
      expect(await client.next('error')).toMatchObject({ code, fatal: false });
      await started(client);
    });

    it('answers audio before start, misaligned and oversized frames with coded errors, and keeps going', async () => {
      await h.close();
      await setUp({ maxFrameBytes: 4096 });
      const client = track(await open(url, { bearer: h.project.testKey }));
      client.socket.send(Buffer.alloc(320));
      expect(await client.next('error')).toMatchObject({ code: 'audio_before_start', fatal: false });
      await started(client);
      client.socket.send(Buffer.alloc(321));
      client.socket.send(Buffer.alloc(5000));
      client.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } });
      await client.count('error', 4);
      expect(client.of('error').map((e) => [e.code, e.fatal])).toEqual([
        ['audio_before_start', false],
        ['misaligned_audio', false],
        ['frame_too_large', false],
        ['already_started', false],
      ]);
      client.socket.send(Buffer.alloc(3200));
      client.send({ type: 'stop' });
      expect((await client.closed).code).toBe(1000);
      expect(client.of('final').map((f) => f.segment.text)).toEqual(['samples 1600']);
    });

    it('closes with 1009 a frame beyond four times the frame limit', async () => {
      await h.close();
      await setUp({ maxFrameBytes: 1024 });
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client);
      client.socket.send(Buffer.alloc(8192));
      expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.messageTooBig);
    });

    it('drops audio while paused', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client, { ...START, interimResults: false });
      client.socket.send(Buffer.alloc(3200));
      client.send({ type: 'pause' });
      client.socket.send(Buffer.alloc(3200));
      client.send({ type: 'resume' });
      client.socket.send(Buffer.alloc(3200));
      client.send({ type: 'stop' });
      await client.closed;
      expect(recognizer.streams[0]?.samples).toBe(3200);
      expect(client.of('ended')[0]?.audioMs).toBe(200);
    });

    it('refuses sessions beyond the per-instance cap with at_capacity and 1013, and admits again once one ends', async () => {
      await h.close();
      await setUp({ maxSessions: 2 });
      const a = track(await open(url, { bearer: h.project.testKey }));
      const b = track(await open(url, { bearer: h.project.testKey }));
      const c = track(await open(url, { bearer: h.project.testKey }));
      expect(await c.next('error')).toMatchObject({ code: 'at_capacity', fatal: true });
      expect((await c.closed).code).toBe(REALTIME_CLOSE_CODES.tryAgainLater);
      await started(a);
      await started(b);
      a.send({ type: 'stop' });
      await a.closed;
      await expect.poll(() => h.app.realtime.sessions().length).toBe(1);
      await started(track(await open(url, { bearer: h.project.testKey })));
    });

    it('closes an idle session with idle_timeout and 4000', async () => {
      await h.close();
      await setUp({ idleTimeoutSeconds: 1 });
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client);
      client.send({ type: 'keepalive' });
      const closed = await client.closed;
      expect(closed.code).toBe(REALTIME_CLOSE_CODES.idleTimeout);
      expect(client.of('error')).toMatchObject([{ code: 'idle_timeout', fatal: true }]);
      expect(client.of('ended')).toMatchObject([{ reason: 'idle_timeout' }]);
    });

    it('warns ahead of the session limit and closes at it with 4001', async () => {
      await h.close();
      await setUp({ maxSessionSeconds: 1 });
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client);
      expect(await client.next('warning')).toMatchObject({ code: 'session_limit_approaching', remainingMs: 200 });
      expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.sessionLimit);
      expect(client.of('ended')).toMatchObject([{ reason: 'session_limit' }]);
    });

    it('warns ahead of the credential’s expiry and closes at it with 4002', async () => {
      const token = await mintToken(h, h.project.testKey, 60);
      h.clock.advance(59_000);
      const client = track(await open(url, { subprotocolCredential: token }));
      await started(client);
      const warning = await client.next('warning');
      expect(warning.code).toBe('credential_expiring');
      expect(warning.remainingMs).toBeLessThanOrEqual(1000);
      expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.credentialExpired);
      expect(client.of('ended')).toMatchObject([{ reason: 'credential_expired' }]);
    });

    it('ends sessions with server_shutdown and 1001 when the service closes', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client);
      await h.app.close();
      expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.goingAway);
      expect(client.of('ended')).toMatchObject([{ reason: 'server_shutdown' }]);
    });
  });

  it('refuses start with recognizer_unavailable and the install command when the recognizer is missing', async () => {
    await h.close();
    await setUp({}, false);
    const client = track(await open(url, { bearer: h.project.testKey }));
    client.send(START);
    const error = await client.next('error');
    expect(error).toMatchObject({ code: 'recognizer_unavailable', fatal: true });
    expect(error.message).toContain('apt-get install -y thing');
    expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.internalError);
  });

  it('says how to install PocketSphinx when no recognizer is configured at all', async () => {
    const bare = await createHarness();
    try {
      const client = track(await open(await realtimeUrl(bare.app), { bearer: bare.project.testKey }));
      client.send(START);
      const error = await client.next('error');
      expect(error.code).toBe('recognizer_unavailable');
      expect(error.message).toContain('apt-get install -y libpocketsphinx3 pocketsphinx-en-us');
    } finally {
      await bare.close();
    }
  });
});
