import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { REALTIME_CLOSE_CODES, REALTIME_SUBPROTOCOL, type TranscriptSegment } from '@chartwright/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { PocketSphinxRecognizer, type Recognizer } from '../asr/index.js';
import { resampleLinear } from '../asr/resample.js';
import { parseWav } from '../asr/wav.js';
import { wordErrorRate } from '../text/wer.js';
import { hashSecret } from '../auth/secrets.js';
import { testConfig, type RealtimeConfig } from '../config/config.js';
import { openSharedPostgres, TEST_DATABASE_URL } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { goforward, missingSpeechTools, msOf, silence, spokenBytes } from '@chartwright/testing/speech.js';
import { CHART, openWidget, setPatientContext, widgetCall } from '@chartwright/testing/widget-encounters.js';
import { connect, open, realtimeUrl, type RealtimeClient } from '@chartwright/testing/realtime-client.js';
import { RESUME_WINDOW_MS } from './stored-session.js';

/**
 * The realtime WebSocket end to end, over a real server on port 0, with the real PocketSphinx
 * recognizer: authentication at the upgrade, the session protocol, limits and decoding. Needs
 * Debian's libpocketsphinx3, pocketsphinx-en-us, pocketsphinx-testdata and flite: skipped locally
 * when they are missing, a failure in CI (the rule of asr/pocketsphinx/pocketsphinx.int.test.ts).
 */
const missing = await missingSpeechTools();

const START = { type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } } as const;
/** 16 kHz s16le mono (sent in 100 ms frames of 3200 bytes). */
const S16_16K_BYTES_PER_SECOND = 32_000;

/** Sends `audio` in 100 ms frames at `speed` × real time (Infinity: back to back). */
async function stream(client: RealtimeClient, audio: Buffer, bytesPerSecond: number, speed: number): Promise<void> {
  const frame = Math.floor(bytesPerSecond / 10 / 2) * 2;
  for (let offset = 0; offset < audio.length; offset += frame) {
    client.socket.send(audio.subarray(offset, offset + frame));
    if (Number.isFinite(speed)) await sleep(100 / speed);
  }
}

/** Interleaves 16 kHz s16le mono channels into 48 kHz pcm_f32le. */
function stereoFloat48k(left: Buffer, right: Buffer): Buffer {
  const upsample = (mono: Buffer) =>
    resampleLinear(
      new Int16Array(mono.buffer.slice(mono.byteOffset, mono.byteOffset + mono.byteLength)),
      16_000,
      48_000,
    );
  const [l, r] = [upsample(left), upsample(right)];
  const frames = Math.min(l.length, r.length);
  const out = Buffer.alloc(frames * 2 * 4);
  for (let i = 0; i < frames; i++) {
    out.writeFloatLE((l[i] ?? 0) / 32768, i * 8);
    out.writeFloatLE((r[i] ?? 0) / 32768, i * 8 + 4);
  }
  return out;
}

const transcript = (client: RealtimeClient) =>
  client
    .of('final')
    .map((final) => final.segment.text)
    .join(' ');

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

/**
 * Passes `inner` through, noting the worker process of each stream it opens (in the order the
 * sessions opened them), so a test can tell which session a worker carries.
 */
function recordingWorkers(inner: PocketSphinxRecognizer): { recognizer: Recognizer; pids: number[] } {
  const pids: number[] = [];
  const recognizer: Recognizer = {
    name: inner.name,
    info: inner.info,
    languages: inner.languages,
    status: () => inner.status(),
    openStream: async (options) => {
      const stream = await inner.openStream(options);
      pids.push(stream.workerPid);
      return stream;
    },
    close: () => inner.close(),
  };
  return { recognizer, pids };
}

/** Bytes of 16 kHz s16le mono up to `ms` of the session's clock (whole samples, as it counts). */
const bytesAt = (ms: number) => Math.round((ms * 16_000) / 1000) * 2;

/**
 * Two utterances, the detector ending each; a lost socket cuts the second between "go forward" and
 * "ten meters" (1.2 s into it), so the words on both sides of the cut belong to one utterance.
 */
const midUtterance = () => Buffer.concat([goforward(), silence(600), goforward(), silence(1000)]);
const cutBytes = () => goforward().length + bytesAt(600) + bytesAt(1200);

/** The finals of midUtterance() streamed on one socket from start to stop. */
async function uninterrupted(url: string, key: string) {
  const client = await open(url, { bearer: key });
  await started(client, { ...START, interimResults: false });
  await stream(client, midUtterance(), S16_16K_BYTES_PER_SECOND, Infinity);
  client.send({ type: 'stop' });
  await client.closed;
  return client.of('final').map((final) => final.segment);
}

/**
 * Streams midUtterance() up to the cut the way a client keeps pace with the service (the second
 * utterance only once the first one's final arrived), then waits until the service acknowledged the
 * audio up to that final and decodes the second utterance (a partial of it: the session needs
 * interim results). Returns the last acknowledged position.
 */
async function streamUntilCut(client: RealtimeClient): Promise<number> {
  const secondStarts = goforward().length + bytesAt(600);
  await stream(client, midUtterance().subarray(0, secondStarts), S16_16K_BYTES_PER_SECOND, Infinity);
  const [final] = await client.count('final', 1);
  const firstEnds = final?.segment.endMs ?? 0;
  await stream(client, midUtterance().subarray(secondStarts, cutBytes()), S16_16K_BYTES_PER_SECOND, Infinity);
  await expect.poll(() => client.of('ack').at(-1)?.audioMs ?? 0).toBeGreaterThanOrEqual(firstEnds);
  await expect.poll(() => client.of('partial').some((partial) => partial.startMs >= firstEnds)).toBe(true);
  const lastAckedAudioMs = client.of('ack').at(-1)?.audioMs ?? 0;
  // The ack never passes the open utterance: its audio stays with the client.
  expect(lastAckedAudioMs).toBeLessThan(msOf(secondStarts) + 500);
  return lastAckedAudioMs;
}

/** Across the sockets of one session: every final once, in order, with the uninterrupted session's words and times. */
function expectSameAsUninterrupted(clients: readonly RealtimeClient[], reference: readonly TranscriptSegment[]): void {
  const seen = clients.flatMap((client) => client.of('final').map((final) => final.segment));
  expect(seen.map((segment) => segment.id)).toEqual(reference.map((segment) => segment.id));
  expect(seen.map((segment) => segment.words?.map((word) => word.word))).toEqual(
    reference.map((segment) => segment.words?.map((word) => word.word)),
  );
  seen.forEach((segment, i) => {
    expect(Math.abs(segment.startMs - (reference[i]?.startMs ?? Infinity))).toBeLessThanOrEqual(100);
  });
}

/** Harnesses and clients of one test, closed after it. */
function lifecycle() {
  const harnesses: Harness[] = [];
  const clients: RealtimeClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.terminate();
    for (const harness of harnesses.splice(0)) await harness.close();
  });
  return {
    harness: async (options: Parameters<typeof createHarness>[0] = {}, realtime: Partial<RealtimeConfig> = {}) => {
      const h = await createHarness({
        ...options,
        config: { realtime: { ...testConfig().realtime, ...realtime } },
      });
      harnesses.push(h);
      return { h, url: await realtimeUrl(h.app) };
    },
    track: (client: RealtimeClient): RealtimeClient => {
      clients.push(client);
      return client;
    },
  };
}

describe.skipIf(missing.length > 0)('realtime WebSocket with PocketSphinx', () => {
  // One recognizer for the file: its decoders take ~300 ms each to load.
  let recognizer: PocketSphinxRecognizer;
  let h: Harness;
  let url: string;
  const { harness, track } = lifecycle();

  /** Replaces this test's server with one whose realtime limits are `realtime`. */
  async function setUp(realtime: Partial<RealtimeConfig> = {}) {
    ({ h, url } = await harness({ recognizer }, realtime));
  }

  beforeAll(async () => {
    recognizer = new PocketSphinxRecognizer({ workers: 2 });
    await recognizer.warmUp();
  });
  afterAll(async () => {
    await recognizer.close();
  });
  beforeEach(async () => {
    await setUp();
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
      // The first utterance is ended by the detector in the silence after it; the second only by stop.
      const first = Buffer.concat([goforward(), silence(1000)]);
      await stream(client, first, S16_16K_BYTES_PER_SECOND, 4);
      expect((await client.next('final')).segment).toMatchObject({
        id: 'seg_000001',
        text: 'go forward ten meters',
        channel: 0,
        speaker: 'unknown',
      });
      const second = goforward();
      await stream(client, second, S16_16K_BYTES_PER_SECOND, 8);
      client.send({ type: 'stop' });
      const closed = await client.closed;
      expect(closed.code).toBe(REALTIME_CLOSE_CODES.normal);

      const audioMs = msOf(first.length + second.length);
      const finals = client.of('final').map((final) => final.segment);
      // Acks say how far the audio is committed: they only move on, reach the end of the first
      // final, and never fall inside the utterance still open when stop came (one may follow its
      // stored final, at its end, when the worker's last progress report comes after it).
      const acks = client.of('ack').map((ack) => ack.audioMs);
      const last = finals.at(-1);
      expect(acks.every((ms, i) => i === 0 || ms > (acks[i - 1] ?? Infinity))).toBe(true);
      expect(acks.at(-1)).toBeGreaterThanOrEqual(finals[0]?.endMs ?? Infinity);
      expect(acks.filter((ms) => ms > (last?.startMs ?? -1) && ms < (last?.endMs ?? Infinity))).toEqual([]);
      expect(finals.map((final) => final.id)).toEqual(finals.map((_, i) => `seg_${String(i + 1).padStart(6, '0')}`));
      expect(finals.length).toBeGreaterThanOrEqual(2);
      expect(finals[0]?.words?.map((word) => word.word)).toEqual(['go', 'forward', 'ten', 'meters']);
      expect(transcript(client)).toMatch(/^go forward ten meters go forward/);
      // The flushed utterance lies after the first, in the session's audio time.
      expect(finals.at(-1)?.startMs).toBeGreaterThanOrEqual(finals[0]?.endMs ?? Infinity);
      expect(finals.at(-1)?.endMs).toBeLessThanOrEqual(audioMs);
      expect(client.events.at(-1)).toEqual({
        type: 'ended',
        sessionId: event.sessionId,
        reason: 'stopped',
        audioMs,
        segments: finals.length,
      });
      // Partials come before the final they lead to.
      const types = client.events.map((e) => e.type);
      expect(types.indexOf('partial')).toBeGreaterThanOrEqual(0);
      expect(types.indexOf('partial')).toBeLessThan(types.indexOf('final'));
      expect(client.of('partial').every((partial) => partial.channel === 0)).toBe(true);
    }, 30_000);

    it('serves the stored transcript back over REST, refuses to delete it while streaming, and deletes it after', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      const { sessionId } = await started(client);
      await stream(client, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, Infinity);
      const first = await client.next('final');
      const path = `/api/v1/realtime/sessions/${sessionId}`;

      const whileOpen = await h.request({ method: 'GET', url: path, key: h.project.testKey });
      expect(whileOpen.statusCode).toBe(200);
      expect(whileOpen.headers['cache-control']).toBe('no-store');
      expect(whileOpen.json()).toMatchObject({ id: sessionId, status: 'open', endReason: null, resumable: true });
      const busy = await h.request({ method: 'DELETE', url: path, key: h.project.testKey });
      expect(busy.statusCode).toBe(409);
      expect(busy.json()).toMatchObject({ error: { code: 'realtime_session_active' } });

      client.send({ type: 'stop' });
      await client.closed;
      const finals = client.of('final').map((final) => final.segment);
      const read = await h.request({ method: 'GET', url: path, key: h.project.testKey });
      expect(read.json()).toEqual({
        id: sessionId,
        status: 'ended',
        endReason: 'stopped',
        resumable: false,
        language: 'en-US',
        audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 },
        audioMs: client.of('ended')[0]?.audioMs,
        createdAt: new Date(h.clock.now()).toISOString(),
        lastActivityAt: new Date(h.clock.now()).toISOString(),
        endedAt: new Date(h.clock.now()).toISOString(),
        expiresAt: new Date(h.clock.now() + h.config.realtime.retentionDays * 86_400_000).toISOString(),
        text: finals.map((segment) => segment.text).join(' '),
        segments: finals,
        speakerRoles: {},
      });
      expect(finals[0]).toEqual(first.segment);
      // Read back and sent alike: with the display text the recognised words read as.
      expect(finals[0]?.display).toMatch(/^[A-Z].*[.?]$/);

      // Another environment of the same project, and a temporary token, cannot read it.
      const otherEnvironment = await h.request({ method: 'GET', url: path, key: h.project.liveKey });
      expect(otherEnvironment.statusCode).toBe(404);
      expect(otherEnvironment.json()).toMatchObject({ error: { code: 'realtime_session_not_found' } });
      const token = await mintToken(h, h.project.testKey);
      expect((await h.request({ method: 'GET', url: path, key: token })).statusCode).toBe(403);

      const deleted = await h.request({ method: 'DELETE', url: path, key: h.project.testKey });
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expect((await h.request({ method: 'GET', url: path, key: h.project.testKey })).statusCode).toBe(404);
      expect(await h.repositories.transcriptSegments.listAfter(sessionId)).toEqual([]);
      // A deleted session cannot be resumed.
      const again = track(await open(url, { bearer: h.project.testKey }));
      again.send({ ...START, resume: { sessionId, resumeToken: 'rsm_x', lastAckedAudioMs: 0 } });
      expect(await again.next('error')).toMatchObject({ code: 'resume_failed', fatal: false });
    }, 30_000);

    it('splits two channels into clinician and patient streams and converts float PCM at 48 kHz', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client, {
        type: 'start',
        audio: { encoding: 'pcm_f32le', sampleRate: 48000, channels: 2 },
        interimResults: false,
      });
      // Both people say the same thing at once: each channel is decoded on its own.
      const mono = Buffer.concat([goforward(), silence(1000)]);
      const audio = stereoFloat48k(mono, mono);
      await stream(client, audio, 48_000 * 2 * 4, Infinity);
      client.send({ type: 'stop' });
      expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.normal);
      expect(client.of('partial')).toEqual([]);
      const finals = client.of('final').map((final) => final.segment);
      const byChannel = finals.sort((a, b) => a.channel - b.channel);
      expect(byChannel.map((f) => [f.channel, f.speaker, f.text])).toEqual([
        [0, 'clinician', 'go forward ten meters'],
        [1, 'patient', 'go forward ten meters'],
      ]);
      expect(client.of('ended')).toMatchObject([{ audioMs: msOf(mono.length), segments: 2 }]);
    }, 30_000);

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
        'a resume of a session that does not exist',
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
      await setUp({ maxFrameBytes: 4096 });
      const client = track(await open(url, { bearer: h.project.testKey }));
      client.socket.send(goforward().subarray(0, 320));
      expect(await client.next('error')).toMatchObject({ code: 'audio_before_start', fatal: false });
      await started(client, { ...START, interimResults: false });
      client.socket.send(goforward().subarray(0, 321));
      client.socket.send(goforward().subarray(0, 5000));
      client.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } });
      await client.count('error', 4);
      expect(client.of('error').map((e) => [e.code, e.fatal])).toEqual([
        ['audio_before_start', false],
        ['misaligned_audio', false],
        ['frame_too_large', false],
        ['already_started', false],
      ]);
      // None of the refused audio reached the recognizer or the session's clock.
      const audio = Buffer.concat([goforward(), silence(1000)]);
      await stream(client, audio, S16_16K_BYTES_PER_SECOND, Infinity);
      client.send({ type: 'stop' });
      expect((await client.closed).code).toBe(1000);
      expect(client.of('final').map((f) => f.segment.text)).toEqual(['go forward ten meters']);
      expect(client.of('ended')).toMatchObject([{ reason: 'stopped', audioMs: msOf(audio.length), segments: 1 }]);
    }, 30_000);

    it('answers a burst of misaligned frames with one error, and the next burst with one more', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client, { ...START, interimResults: false });
      for (let frame = 0; frame < 200; frame += 1) client.socket.send(Buffer.alloc(321 + 2 * (frame % 7)));
      // An aligned frame ends the burst: it is decoded, and the next misaligned frame is reported again.
      client.socket.send(silence(100));
      for (let frame = 0; frame < 50; frame += 1) client.socket.send(Buffer.alloc(33));
      client.send({ type: 'stop' });
      expect((await client.closed).code).toBe(1000);
      expect(client.of('error').map((e) => [e.code, e.fatal])).toEqual([
        ['misaligned_audio', false],
        ['misaligned_audio', false],
      ]);
      expect(client.of('ended')).toMatchObject([{ reason: 'stopped', audioMs: 100 }]);
    }, 30_000);

    it('closes with 1009 a frame beyond four times the frame limit', async () => {
      await setUp({ maxFrameBytes: 1024 });
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client);
      client.socket.send(Buffer.alloc(8192));
      expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.messageTooBig);
    });

    it('drops audio while paused', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client, { ...START, interimResults: false });
      const before = silence(1000);
      await stream(client, before, S16_16K_BYTES_PER_SECOND, Infinity);
      client.send({ type: 'pause' });
      await stream(client, goforward(), S16_16K_BYTES_PER_SECOND, Infinity);
      client.send({ type: 'resume' });
      const after = silence(1500);
      await stream(client, after, S16_16K_BYTES_PER_SECOND, Infinity);
      client.send({ type: 'stop' });
      expect((await client.closed).code).toBe(1000);
      // The speech never reached the recognizer, and the session's audio clock skipped it.
      expect(transcript(client)).not.toMatch(/forward|meters/);
      expect(client.of('ack').every((ack) => ack.audioMs <= msOf(before.length + after.length))).toBe(true);
      expect(client.of('ended')).toMatchObject([{ audioMs: msOf(before.length + after.length) }]);
    }, 30_000);

    it('decodes speech sent after resume, once, on the session clock without the paused audio', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client, { ...START, interimResults: false });
      client.send({ type: 'pause' });
      await stream(client, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, Infinity);
      client.send({ type: 'resume' });
      const audio = Buffer.concat([goforward(), silence(1000)]);
      await stream(client, audio, S16_16K_BYTES_PER_SECOND, Infinity);
      client.send({ type: 'stop' });
      await client.closed;
      expect(transcript(client)).toBe('go forward ten meters');
      const [final] = client.of('final');
      // "go" starts about 0.46 s into goforward.raw: the paused copy did not move it.
      expect(final?.segment.words?.[0]?.startMs).toBeLessThan(700);
      expect(client.of('ended')).toMatchObject([{ audioMs: msOf(audio.length), segments: 1 }]);
    }, 30_000);

    it('refuses sessions beyond the per-instance cap with at_capacity and 1013, and admits again once one ends', async () => {
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

    it('shares the instance fairly: one key, then one project environment, is refused with tenant_at_capacity while others are served', async () => {
      // The shares alone decide: the recognizer's own room (a cold one assumes a slow machine) is not tested here.
      await setUp({ maxSessions: 10, maxSessionsPerProject: 3, maxSessionsPerKey: 2, recognizerMaxLoadPercent: 0 });
      const { secret: secondKey } = await h.keys.create({
        projectId: h.project.id,
        environment: 'test',
        name: 'second',
      });
      const other = await h.projects.create('Another clinic');
      const { secret: otherKey } = await h.keys.create({ projectId: other.id, environment: 'test', name: 'other' });

      const first = track(await open(url, { bearer: h.project.testKey }));
      await started(first);
      await started(track(await open(url, { bearer: h.project.testKey })));
      // The key's third socket, though the project and the instance have room.
      const overKey = track(await open(url, { bearer: h.project.testKey }));
      expect(await overKey.next('error')).toMatchObject({ code: 'tenant_at_capacity', fatal: true });
      expect(await overKey.closed).toMatchObject({
        code: REALTIME_CLOSE_CODES.tryAgainLater,
        reason: 'tenant_at_capacity',
      });
      // Another key of the project takes the project's last place, then is refused too.
      await started(track(await open(url, { bearer: secondKey })));
      const overProject = track(await open(url, { bearer: secondKey }));
      expect(await overProject.next('error')).toMatchObject({ code: 'tenant_at_capacity' });
      expect((await overProject.closed).code).toBe(REALTIME_CLOSE_CODES.tryAgainLater);
      // Neither another project nor the same project's production environment is touched.
      await started(track(await open(url, { bearer: otherKey })));
      await started(track(await open(url, { bearer: h.project.liveKey })));
      expect(h.app.realtime.sessions()).toHaveLength(5);

      // A place freed is a place taken again.
      first.send({ type: 'stop' });
      await first.closed;
      await expect.poll(() => h.app.realtime.sessions().length).toBe(4);
      await started(track(await open(url, { bearer: h.project.testKey })));
    });

    it('counts realtime tokens against the key that minted them', async () => {
      await setUp({ maxSessionsPerKey: 1 });
      const token = await mintToken(h, h.project.testKey);
      await started(track(await open(url, { bearer: h.project.testKey })));
      const refused = track(await open(url, { bearer: token }));
      expect(await refused.next('error')).toMatchObject({ code: 'tenant_at_capacity' });
    });

    it('closes an idle session with idle_timeout and 4000', async () => {
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

    it('closes an open session with 4002 soon after its key is revoked, and only that one', async () => {
      await setUp({ credentialCheckSeconds: 1 });
      const doomed = track(await open(url, { bearer: h.project.testKey }));
      const survivor = track(await open(url, { bearer: h.project.liveKey }));
      await started(doomed);
      await started(survivor);
      await h.keys.revoke(h.project.testKeyId);
      const error = await doomed.next('error');
      expect(error).toMatchObject({ code: 'credential_expired', fatal: true });
      expect((await doomed.closed).code).toBe(REALTIME_CLOSE_CODES.credentialExpired);
      expect(doomed.of('ended')).toMatchObject([{ reason: 'credential_expired' }]);
      survivor.send({ type: 'keepalive' });
      survivor.send({ type: 'stop' });
      expect(await survivor.next('ended')).toMatchObject({ reason: 'stopped' });
    });

    it('stops a widget’s recording at once when the patient withdraws consent, and audits the session', async () => {
      const partner = await h.createPartner();
      const widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-consent' });
      await setPatientContext(h, widget, CHART);
      const encounter = `/api/widget/encounters/${widget.sessionId}`;
      expect((await widgetCall(h, widget.token, 'POST', `${encounter}/consent`, { method: 'verbal' })).statusCode).toBe(
        200,
      );
      const minted = await widgetCall(h, widget.token, 'POST', '/api/widget/realtime-tokens', {
        sessionId: widget.sessionId,
      });
      const client = track(await open(url, { subprotocolCredential: minted.json<{ token: string }>().token }));
      const event = await started(client);
      const [record] = await h.repositories.auditEvents.list({ resourceType: 'realtime_session' });
      expect(record).toMatchObject({
        action: 'create',
        resource_id: event.sessionId,
        actor_kind: 'realtime_token',
        partner_id: partner.id,
        encounter_id: widget.sessionId,
        patient_ref: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
        outcome: 'success',
        status: 101,
        ip: '127.0.0.1',
      });

      // Well inside the credential check period: the withdrawal itself ends the socket.
      expect((await widgetCall(h, widget.token, 'DELETE', `${encounter}/consent`)).statusCode).toBe(204);
      expect(await client.next('error')).toMatchObject({ code: 'credential_expired', fatal: true });
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

  describe('durability and resume', () => {
    /** A session's stored segments, as the client saw them. */
    const stored = async (sessionId: string) =>
      (await h.repositories.transcriptSegments.listAfter(sessionId)).map((row) => ({ id: row.id, text: row.text }));

    it('stores the session at started and each final before it is sent', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      const event = await started(client, { ...START, interimResults: false });
      expect(await h.repositories.realtimeSessions.get(event.sessionId)).toMatchObject({
        project_id: h.project.id,
        environment: 'test',
        credential_kind: 'api_key',
        api_key_id: h.project.testKeyId,
        resume_token_hash: hashSecret(event.resumeToken),
        language: 'en-US',
        ended_at: null,
      });
      await stream(client, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, Infinity);
      const final = await client.next('final');
      // The row exists the moment the final arrives.
      expect(await stored(event.sessionId)).toEqual([{ id: final.segment.id, text: final.segment.text }]);
      const [row] = await h.repositories.transcriptSegments.listAfter(event.sessionId);
      expect(row).toMatchObject({ seq: 1, start_ms: final.segment.startMs, end_ms: final.segment.endMs });
      expect(JSON.parse(row?.words ?? 'null')).toEqual(final.segment.words);
      client.send({ type: 'stop' });
      await client.closed;
      expect(await h.repositories.realtimeSessions.get(event.sessionId)).toMatchObject({
        end_reason: 'stopped',
        ended_at: h.clock.now(),
      });
      // The transcript is stored, never logged.
      expect(h.logs.text).not.toContain('forward');
      expect(h.logs.text).not.toContain(event.resumeToken);
    }, 30_000);

    it('resumes in the middle of an utterance: it is decoded again whole, in context, and sent once', async () => {
      const reference = await uninterrupted(url, h.project.testKey);
      const first = track(await open(url, { bearer: h.project.testKey }));
      const event = await started(first, { ...START, interimResults: true });
      const lastAckedAudioMs = await streamUntilCut(first);
      const lastSegmentId = first.of('final').at(-1)?.segment.id;
      first.socket.terminate();
      await expect.poll(() => h.app.realtime.sessions().length).toBe(0);
      // The session leaves the open list when its socket closes; what it stores on the way out (the
      // open utterance, its cepstral mean) is written by the time drain() resolves.
      await h.app.realtime.drain();
      // The lost socket stored the open utterance, decoded up to the cut, as provisional.
      expect(await h.repositories.transcriptSegments.listAfter(event.sessionId)).toMatchObject([
        { seq: 1, provisional: 0 },
        { seq: 2, provisional: 1 },
      ]);
      // With the recognizer's cepstral mean, so the resumed stream starts where this one had got to.
      const means = JSON.parse(
        (await h.repositories.realtimeSessions.get(event.sessionId))?.cepstral_means ?? 'null',
      ) as number[][] | null;
      expect(means).toHaveLength(1);
      expect(means?.[0]).toHaveLength(13);
      expect(means?.[0]?.every((value) => Number.isFinite(value))).toBe(true);

      // A fresh realtime token of the same project and environment may continue the session.
      const token = await mintToken(h, h.project.testKey);
      const second = track(await open(url, { subprotocolCredential: token }));
      const resumed = await started(second, {
        ...START,
        interimResults: false,
        resume: { sessionId: event.sessionId, resumeToken: event.resumeToken, lastAckedAudioMs, lastSegmentId },
      });
      expect(resumed).toMatchObject({ sessionId: event.sessionId, resumeToken: event.resumeToken, resumed: true });
      // The client sends again what was not acknowledged, then carries on.
      await stream(second, midUtterance().subarray(bytesAt(lastAckedAudioMs)), S16_16K_BYTES_PER_SECOND, Infinity);
      second.send({ type: 'stop' });
      expect((await second.closed).code).toBe(REALTIME_CLOSE_CODES.normal);

      expectSameAsUninterrupted([first, second], reference);
      expect(await stored(event.sessionId)).toEqual(reference.map(({ id, text }) => ({ id, text })));
      expect(second.of('ended')).toEqual([
        {
          type: 'ended',
          sessionId: event.sessionId,
          reason: 'stopped',
          audioMs: msOf(midUtterance().length),
          segments: reference.length,
        },
      ]);
    }, 60_000);

    it('keeps the cut utterance as stored when the client resends only the audio after it', async () => {
      const first = track(await open(url, { bearer: h.project.testKey }));
      const event = await started(first, { ...START, interimResults: true });
      await streamUntilCut(first);
      first.socket.terminate();
      await expect.poll(() => h.app.realtime.sessions().length).toBe(0);
      // A client that kept less than it was told to resends from the cut, as older clients did.
      const cutMs = msOf(cutBytes());
      const second = track(await open(url, { bearer: h.project.testKey }));
      await started(second, {
        ...START,
        interimResults: false,
        resume: { sessionId: event.sessionId, resumeToken: event.resumeToken, lastAckedAudioMs: cutMs },
      });
      await stream(second, midUtterance().subarray(cutBytes()), S16_16K_BYTES_PER_SECOND, Infinity);
      second.send({ type: 'stop' });
      await second.closed;
      // Nothing is lost or sent twice: the part before the cut is replayed as stored, the rest decoded after it.
      const finals = second.of('final').map((final) => final.segment);
      expect(finals.map((segment) => segment.id)).toEqual(['seg_000001', 'seg_000002', 'seg_000003']);
      expect(finals[1]?.endMs).toBeLessThanOrEqual(cutMs);
      expect(finals[2]?.startMs).toBeGreaterThanOrEqual(cutMs);
      expect(await stored(event.sessionId)).toEqual(finals.map(({ id, text }) => ({ id, text })));
    }, 60_000);

    it.skipIf(TEST_DATABASE_URL === undefined)(
      'resumes mid-utterance on a second instance sharing PostgreSQL, after the first one closed',
      async () => {
        const shared = await openSharedPostgres(2);
        const [databaseA, databaseB] = shared.databases;
        const instances: Harness[] = [];
        try {
          const a = await harness({ recognizer, ...(databaseA === undefined ? {} : { database: databaseA }) });
          instances.push(a.h);
          const reference = await uninterrupted(a.url, a.h.project.testKey);
          const first = track(await open(a.url, { bearer: a.h.project.testKey }));
          const event = await started(first, { ...START, interimResults: true });
          const lastAckedAudioMs = await streamUntilCut(first);
          const lastSegmentId = first.of('final').at(-1)?.segment.id;
          // The first instance shuts down: the session ends resumably, its open utterance stored provisional.
          await a.h.close();
          expect(first.of('ended')).toMatchObject([{ reason: 'server_shutdown' }]);

          const b = await harness({ recognizer, ...(databaseB === undefined ? {} : { database: databaseB }) });
          instances.push(b.h);
          expect(await b.h.repositories.transcriptSegments.listAfter(event.sessionId)).toMatchObject([
            { seq: 1, provisional: 0 },
            { seq: 2, provisional: 1 },
          ]);
          const second = track(await open(b.url, { bearer: a.h.project.testKey }));
          await started(second, {
            ...START,
            interimResults: false,
            resume: { sessionId: event.sessionId, resumeToken: event.resumeToken, lastAckedAudioMs, lastSegmentId },
          });
          await stream(second, midUtterance().subarray(bytesAt(lastAckedAudioMs)), S16_16K_BYTES_PER_SECOND, Infinity);
          second.send({ type: 'stop' });
          expect((await second.closed).code).toBe(REALTIME_CLOSE_CODES.normal);

          expectSameAsUninterrupted([first, second], reference);
          const rows = await b.h.repositories.transcriptSegments.listAfter(event.sessionId);
          expect(rows.map((row) => ({ id: row.id, text: row.text, provisional: row.provisional }))).toEqual(
            reference.map(({ id, text }) => ({ id, text, provisional: 0 })),
          );
          expect(second.of('ended')).toMatchObject([{ reason: 'stopped', segments: reference.length }]);
        } finally {
          for (const instance of instances) await instance.close();
          await shared.dispose();
        }
      },
      60_000,
    );

    it.skipIf(TEST_DATABASE_URL === undefined)(
      'resumes on a second instance as after the first one died mid-utterance: decoding starts from the last final’s cepstral mean',
      async () => {
        // flite's voice, cold, hears the second sentence as "she why sit in": a resume that lost the
        // session's cepstral mean with the dead instance would say so.
        const first = Buffer.concat([
          silence(500),
          spokenBytes('the patient has had a dry cough for two weeks'),
          silence(1000),
        ]);
        const second = Buffer.concat([spokenBytes('she takes one tablet of ibuprofen twice a day'), silence(1000)]);
        const audio = Buffer.concat([first, second]);
        const cut = first.length + Math.floor(second.length / 4) * 2;
        const shared = await openSharedPostgres(2);
        const [databaseA, databaseB] = shared.databases;
        const instances: Harness[] = [];
        try {
          const a = await harness({ recognizer, ...(databaseA === undefined ? {} : { database: databaseA }) });
          instances.push(a.h);
          const reference = track(await open(a.url, { bearer: a.h.project.testKey }));
          await started(reference, { ...START, interimResults: false });
          await stream(reference, audio, S16_16K_BYTES_PER_SECOND, Infinity);
          reference.send({ type: 'stop' });
          await reference.closed;

          const dying = track(await open(a.url, { bearer: a.h.project.testKey }));
          const event = await started(dying, { ...START, interimResults: false });
          await stream(dying, audio.subarray(0, cut), S16_16K_BYTES_PER_SECOND, Infinity);
          const [final] = await dying.count('final', 1);
          await expect.poll(() => dying.of('ack').at(-1)?.audioMs ?? 0).toBe(final?.segment.endMs);
          const lastAckedAudioMs = dying.of('ack').at(-1)?.audioMs ?? 0;
          // The first instance keeps the socket and records nothing more, as one that died would:
          // the second sees only what each stored final left.
          const b = await harness({ recognizer, ...(databaseB === undefined ? {} : { database: databaseB }) });
          instances.push(b.h);
          const resumed = track(await open(b.url, { bearer: a.h.project.testKey }));
          await started(resumed, {
            ...START,
            interimResults: false,
            resume: {
              sessionId: event.sessionId,
              resumeToken: event.resumeToken,
              lastAckedAudioMs,
              lastSegmentId: final?.segment.id,
            },
          });
          await stream(resumed, audio.subarray(bytesAt(lastAckedAudioMs)), S16_16K_BYTES_PER_SECOND, Infinity);
          resumed.send({ type: 'stop' });
          expect((await resumed.closed).code).toBe(REALTIME_CLOSE_CODES.normal);

          expectSameAsUninterrupted(
            [dying, resumed],
            reference.of('final').map((event) => event.segment),
          );
        } finally {
          for (const instance of instances) await instance.close();
          await shared.dispose();
        }
      },
      60_000,
    );

    it('replays every stored segment after lastSegmentId, or all of them without it', async () => {
      const first = track(await open(url, { bearer: h.project.testKey }));
      const event = await started(first, { ...START, interimResults: false });
      const utterance = Buffer.concat([goforward(), silence(1000)]);
      await stream(first, Buffer.concat([utterance, utterance]), S16_16K_BYTES_PER_SECOND, Infinity);
      await first.count('final', 2);
      const lastAckedAudioMs = first.of('ack').at(-1)?.audioMs ?? 0;
      first.socket.terminate();
      await expect.poll(() => h.app.realtime.sessions().length).toBe(0);
      const resume = { sessionId: event.sessionId, resumeToken: event.resumeToken, lastAckedAudioMs };

      const all = track(await open(url, { bearer: h.project.testKey }));
      await started(all, { ...START, resume });
      expect(await all.count('final', 2)).toEqual(first.of('final'));
      // Started, then resumed: each an audit record of the key that did it.
      expect(await h.repositories.auditEvents.list({ resourceId: event.sessionId })).toMatchObject([
        { action: 'create', resource_type: 'realtime_session', actor_kind: 'api_key', actor_id: h.project.testKeyId },
        { action: 'update', resource_type: 'realtime_session', actor_kind: 'api_key', actor_id: h.project.testKeyId },
      ]);
      all.socket.terminate();
      await expect.poll(() => h.app.realtime.sessions().length).toBe(0);

      const later = track(await open(url, { bearer: h.project.testKey }));
      await started(later, { ...START, resume: { ...resume, lastSegmentId: 'seg_000001' } });
      expect(await later.count('final', 1)).toEqual(first.of('final').slice(1));
      later.send({ type: 'stop' });
      await later.closed;
      expect(later.of('final')).toHaveLength(1);
      expect(later.of('ended')).toMatchObject([{ sessionId: event.sessionId, segments: 2 }]);
    }, 30_000);

    it('refuses a resume with a wrong token, from another project or environment, and after stop', async () => {
      const first = track(await open(url, { bearer: h.project.testKey }));
      const event = await started(first);
      first.socket.terminate();
      await expect.poll(() => h.app.realtime.sessions().length).toBe(0);
      const resume = { sessionId: event.sessionId, resumeToken: event.resumeToken, lastAckedAudioMs: 0 };

      const other = await h.projects.create('Other clinic');
      const otherKey = (await h.keys.create({ projectId: other.id, environment: 'test' })).secret;
      const attempts: [string, object][] = [
        [h.project.testKey, { ...resume, resumeToken: 'rsm_wrong' }],
        [h.project.testKey, { ...resume, sessionId: 'rts_unknown' }],
        [otherKey, resume],
        [h.project.liveKey, resume],
        [h.project.testKey, { ...resume, lastSegmentId: 'seg_000009' }],
      ];
      for (const [key, attempt] of attempts) {
        const client = track(await open(url, { bearer: key }));
        client.send({ ...START, resume: attempt });
        expect(await client.next('error')).toMatchObject({ code: 'resume_failed', fatal: false });
        // Non-fatal: the socket may start a new session instead.
        const fresh = await started(client);
        expect(fresh.resumed).toBe(false);
        expect(fresh.sessionId).not.toBe(event.sessionId);
        client.socket.terminate();
      }

      // The right token resumes; once stopped, the session cannot be resumed again.
      const again = track(await open(url, { bearer: h.project.testKey }));
      expect(await started(again, { ...START, resume })).toMatchObject({ resumed: true });
      again.send({ type: 'stop' });
      await again.closed;
      const late = track(await open(url, { bearer: h.project.testKey }));
      late.send({ ...START, resume });
      const refused = await late.next('error');
      expect(refused).toMatchObject({ code: 'resume_failed', fatal: false });
      expect(refused.message).toContain('stopped');
      expect(h.logs.text).not.toContain(event.resumeToken);
    });

    it('refuses a resume after the resume window', async () => {
      const first = track(await open(url, { bearer: h.project.testKey }));
      const event = await started(first);
      first.socket.terminate();
      await expect.poll(() => h.app.realtime.sessions().length).toBe(0);
      await h.app.realtime.drain();
      h.clock.advance(RESUME_WINDOW_MS + 1);
      const late = track(await open(url, { bearer: h.project.testKey }));
      late.send({
        ...START,
        resume: { sessionId: event.sessionId, resumeToken: event.resumeToken, lastAckedAudioMs: 0 },
      });
      expect((await late.next('error')).message).toContain('10 minutes');
    });
  });

  describe('decoding', () => {
    let scratch: string;
    beforeAll(() => {
      scratch = mkdtempSync(join(tmpdir(), 'cw-rt-'));
    });
    afterAll(() => {
      rmSync(scratch, { recursive: true, force: true });
    });

    it('flushes the last utterance on stop', async () => {
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client, { ...START, interimResults: false });
      const audio = goforward();
      // No trailing silence: only stop ends the utterance.
      await stream(client, audio.subarray(0, Math.floor((audio.length * 0.85) / 2) * 2), S16_16K_BYTES_PER_SECOND, 8);
      client.send({ type: 'stop' });
      await client.closed;
      expect(transcript(client)).toContain('go forward');
      const types = client.events.map((event) => event.type);
      expect(types.lastIndexOf('final')).toBeLessThan(types.indexOf('ended'));
      expect(client.of('partial')).toEqual([]);
    }, 30_000);

    it('transcribes flite speech sent at its own rate, resampled by the server', async () => {
      const file = join(scratch, 'speech.wav');
      // Two sentences: a stream's first utterance is decoded by its own cepstral mean, which costs
      // this voice a word now and then ("call me" → "commie"), so one short sentence would make the
      // check a matter of one word rather than of the resampling.
      const sentence = 'please call me back in the morning. i would like a cup of coffee and a glass of water';
      execFileSync('flite', ['-voice', 'slt', '-t', sentence, '-o', file]);
      const wav = parseWav(readFileSync(file));
      const pcm = Buffer.from(wav.samples.buffer, wav.samples.byteOffset, wav.samples.byteLength);
      const client = track(await open(url, { bearer: h.project.testKey }));
      await started(client, { type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: wav.sampleRate } });
      await stream(client, Buffer.concat([pcm, silence(800, wav.sampleRate)]), wav.sampleRate * 2, 4);
      client.send({ type: 'stop' });
      await client.closed;
      expect(wordErrorRate(sentence, transcript(client))).toBeLessThan(0.25);
    }, 30_000);

    it('keeps a second session decoding while the first gets bad input', async () => {
      const bad = track(await open(url, { bearer: h.project.testKey }));
      const good = track(await open(url, { bearer: h.project.liveKey }));
      good.send(START);
      bad.send(START);
      await good.next('started');
      await bad.next('started');
      const playing = stream(good, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, 4);
      bad.socket.send('not json');
      bad.socket.send(Buffer.alloc(33));
      bad.send({ type: 'shout' });
      await playing;
      good.send({ type: 'stop' });
      await good.closed;
      expect(transcript(good)).toBe('go forward ten meters');
      expect(bad.of('error').map((error) => error.code)).toEqual([
        'invalid_message',
        'misaligned_audio',
        'unknown_message_type',
      ]);
      bad.send({ type: 'stop' });
      expect((await bad.closed).code).toBe(1000);
    }, 30_000);
  });

  describe('recognizer faults', () => {
    it('fails only the session on a killed decoder process with recognizer_crashed and 1011; the pool restarts it', async () => {
      // Its own pool of two, so killing a worker disturbs no other test.
      const dedicated = new PocketSphinxRecognizer({ workers: 2 });
      try {
        await dedicated.warmUp();
        const { recognizer, pids } = recordingWorkers(dedicated);
        const { h: service, url: address } = await harness({ recognizer });
        const victim = track(await open(address, { bearer: service.project.testKey }));
        const survivor = track(await open(address, { bearer: service.project.liveKey }));
        const victimStarted = await started(victim, { ...START, interimResults: false });
        await started(survivor, { ...START, interimResults: false });
        // The pool pins each stream to the least-loaded worker: the two sessions run on different ones.
        const [victimPid, survivorPid] = pids;
        expect(victimPid).toBeDefined();
        expect(survivorPid).toBeDefined();
        expect(victimPid).not.toBe(survivorPid);
        expect([...dedicated.workerPids()].sort()).toEqual([victimPid, survivorPid].sort());

        const playing = stream(survivor, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, 4);
        await stream(victim, goforward().subarray(0, 16_000), S16_16K_BYTES_PER_SECOND, Infinity);
        process.kill(victimPid ?? 0, 'SIGKILL');

        expect(await victim.next('error')).toMatchObject({ code: 'recognizer_crashed', fatal: true });
        expect((await victim.closed).code).toBe(REALTIME_CLOSE_CODES.internalError);
        expect(victim.of('ended')).toMatchObject([{ sessionId: victimStarted.sessionId, reason: 'error' }]);

        // The other session never noticed.
        await playing;
        survivor.send({ type: 'stop' });
        expect((await survivor.closed).code).toBe(REALTIME_CLOSE_CODES.normal);
        expect(transcript(survivor)).toBe('go forward ten meters');
        expect(survivor.of('error')).toEqual([]);
        expect(survivor.of('ended')).toMatchObject([{ reason: 'stopped', segments: 1 }]);

        // The pool restarted the killed worker; new sessions (one on each worker) decode again.
        await expect.poll(() => dedicated.workerPids().length, { timeout: 10_000 }).toBe(2);
        expect(dedicated.workerPids()).not.toContain(victimPid);
        expect(dedicated.workerPids()).toContain(survivorPid);
        const fresh = [
          track(await open(address, { bearer: service.project.testKey })),
          track(await open(address, { bearer: service.project.testKey })),
        ];
        for (const client of fresh) await started(client, { ...START, interimResults: false });
        expect([...pids.slice(2)].sort()).toEqual([...dedicated.workerPids()].sort());
        const utterance = Buffer.concat([goforward(), silence(1000)]);
        await Promise.all(fresh.map((client) => stream(client, utterance, S16_16K_BYTES_PER_SECOND, 4)));
        for (const client of fresh) {
          client.send({ type: 'stop' });
          expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.normal);
          expect(transcript(client)).toBe('go forward ten meters');
        }
      } finally {
        await dedicated.close();
      }
    }, 60_000);

    it('closes a session sending far faster than real time with recognizer_overloaded and 4004; another keeps decoding', async () => {
      // At most 4 s of audio may wait undecoded per stream: more than the steady session sends in all
      // (3.8 s), so however busy the machine, only the flood can trip the bound.
      const bounded = new PocketSphinxRecognizer({ workers: 2, maxPendingMs: 4000 });
      try {
        await bounded.warmUp();
        const pidsBefore = [...bounded.workerPids()].sort();
        const { h: service, url: address } = await harness({ recognizer: bounded });
        const steady = track(await open(address, { bearer: service.project.liveKey }));
        const flood = track(await open(address, { bearer: service.project.testKey }));
        await started(steady, { ...START, interimResults: false });
        const floodStarted = await started(flood, { ...START, interimResults: false });

        // About three minutes of speech, sent back to back (hundreds of times real time).
        const torrent = Buffer.concat(Array.from({ length: 64 }, () => goforward()));
        const playing = stream(steady, Buffer.concat([goforward(), silence(1000)]), S16_16K_BYTES_PER_SECOND, 2);
        await stream(flood, torrent, S16_16K_BYTES_PER_SECOND, Infinity);

        const closed = await flood.closed;
        expect(closed).toEqual({ code: REALTIME_CLOSE_CODES.overloaded, reason: 'error' });
        expect(flood.of('error')).toMatchObject([{ code: 'recognizer_overloaded', fatal: true }]);
        // The recognizer's undecoded-audio bound tripped, not the session's frame queue.
        expect(flood.of('error')[0]?.message).toContain('faster than the recognizer can decode');
        // Closed cleanly: the session ended (and said so) well before the server took in all the audio.
        const [ended] = flood.of('ended');
        expect(ended).toMatchObject({ sessionId: floodStarted.sessionId, reason: 'error' });
        expect(ended?.audioMs).toBeLessThan(msOf(torrent.length) / 2);
        expect(flood.events.at(-1)?.type).toBe('ended');

        // The other session on the service carries on.
        await playing;
        steady.send({ type: 'stop' });
        expect((await steady.closed).code).toBe(REALTIME_CLOSE_CODES.normal);
        expect(transcript(steady)).toBe('go forward ten meters');
        expect(steady.of('error')).toEqual([]);

        // Nothing crashed and nothing is held: both sessions are gone and the same workers run.
        await expect.poll(() => service.app.realtime.sessions().length).toBe(0);
        expect([...bounded.workerPids()].sort()).toEqual(pidsBefore);
      } finally {
        await bounded.close();
      }
    }, 60_000);
  });
});

describe('realtime WebSocket without a working recognizer', () => {
  const { harness, track } = lifecycle();

  it('refuses start with recognizer_unavailable and the install command when the library is missing', async () => {
    // The real recognizer in a real failure state: its library is not where it is told to look.
    const broken = new PocketSphinxRecognizer({ libraryPath: '/nonexistent/libpocketsphinx.so.3', workers: 1 });
    try {
      const { h, url } = await harness({ recognizer: broken });
      const client = track(await open(url, { bearer: h.project.testKey }));
      client.send(START);
      const error = await client.next('error');
      expect(error).toMatchObject({ code: 'recognizer_unavailable', fatal: true });
      expect(error.message).toContain('/nonexistent/libpocketsphinx.so.3');
      expect(error.message).toContain('apt-get install -y libpocketsphinx3 pocketsphinx-en-us');
      expect((await client.closed).code).toBe(REALTIME_CLOSE_CODES.internalError);
      expect(client.of('started')).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it('says how to install PocketSphinx when no recognizer is configured at all', async () => {
    const { h, url } = await harness();
    const client = track(await open(url, { bearer: h.project.testKey }));
    client.send(START);
    const error = await client.next('error');
    expect(error.code).toBe('recognizer_unavailable');
    expect(error.message).toContain('apt-get install -y libpocketsphinx3 pocketsphinx-en-us');
  });
});
