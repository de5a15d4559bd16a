import { REALTIME_CLOSE_CODES } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { FakeTranscriptionServer, httpStatus, verboseJson } from '@chartwright/testing/fake-transcription-server.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { open, realtimeUrl, type RealtimeClient } from '@chartwright/testing/realtime-client.js';
import { concatPcm, roomNoise, SAMPLE_RATE, tone } from '@chartwright/testing/synthetic-audio.js';
import { OpenAiRecognizer } from './index.js';
import { withDisplay } from '../../realtime/segment-view.js';

/**
 * The realtime WebSocket end to end with the OpenAI-compatible engine behind it: a client streams
 * audio over a real socket, the engine posts the utterances to a fake transcription server, and the
 * client gets stored `final` segments on the session's clock.
 */
const API_KEY = 'sk-fake-transcription-key';

let fake: FakeTranscriptionServer;
let recognizer: OpenAiRecognizer;
let h: Harness;
let client: RealtimeClient | undefined;

beforeEach(async () => {
  fake = await FakeTranscriptionServer.start();
  recognizer = new OpenAiRecognizer({
    baseUrl: fake.baseUrl,
    apiKey: API_KEY,
    model: 'whisper-1',
    timeoutMs: 10_000,
    maxConcurrentRequests: 2,
    retryBaseDelayMs: 1,
  });
  h = await createHarness({ recognizer });
});

afterEach(async () => {
  client?.socket.terminate();
  await h.close();
  await recognizer.close();
  await fake.close();
});

/** Sends 16 kHz s16le audio in 100 ms binary frames. */
function sendAudio(socket: RealtimeClient, audio: Int16Array): void {
  const frame = SAMPLE_RATE / 10;
  for (let offset = 0; offset < audio.length; offset += frame) {
    const chunk = audio.subarray(offset, offset + frame);
    socket.socket.send(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
}

async function startSession(language = 'en-US'): Promise<RealtimeClient> {
  client = await open(await realtimeUrl(h.app), { bearer: h.project.testKey });
  client.send({
    type: 'start',
    audio: { encoding: 'pcm_s16le', sampleRate: 16_000 },
    language,
    vocabulary: ['meniscus', 'metoprolol'],
  });
  await client.next('started');
  return client;
}

describe('realtime WebSocket with the OpenAI-compatible engine', () => {
  it('reports the recognizer ready without calling the transcription server', async () => {
    const response = await h.request({ method: 'GET', url: '/readyz' });
    expect(response.json()).toMatchObject({ checks: { recognizer: 'ok' } });
    expect(fake.calls).toEqual([]);
  });

  it('sends the client stored finals for each utterance, with its voice, and flushes the last one on stop', async () => {
    fake.otherwise((call, response) =>
      call.audioMs > 1000
        ? verboseJson({
            text: ' My meniscus hurts.',
            words: [
              { word: 'My', start: 0.2, end: 0.35 },
              { word: 'meniscus', start: 0.35, end: 0.9 },
              { word: 'hurts.', start: 0.9, end: 1.2 },
            ],
          })(call, response)
        : verboseJson({ text: ' Since Monday.' })(call, response),
    );
    const session = await startSession();
    // The second burst is still going when stop arrives: stop must flush it.
    sendAudio(session, concatPcm([roomNoise(1000), tone(1000), roomNoise(1500), tone(500, 8000, 330)]));
    session.send({ type: 'stop' });
    const ended = await session.next('ended');
    expect(ended).toMatchObject({ reason: 'stopped', segments: 2 });
    expect((await session.closed).code).toBe(REALTIME_CLOSE_CODES.normal);

    expect(session.of('final').map((event) => event.segment)).toEqual([
      withDisplay({
        id: 'seg_000001',
        text: 'My meniscus hurts.',
        startMs: 1000,
        endMs: 2000,
        channel: 0,
        // One channel: the diarizer's voice; one voice speaking of itself ("my") is the patient.
        speaker: 'patient',
        speakerLabel: 'S1',
        words: [
          { word: 'My', startMs: 1000, endMs: 1150 },
          { word: 'meniscus', startMs: 1150, endMs: 1700 },
          { word: 'hurts', startMs: 1700, endMs: 2000 },
        ],
      }),
      withDisplay({
        id: 'seg_000002',
        text: 'Since Monday.',
        startMs: 3300,
        endMs: 4000,
        channel: 0,
        speaker: 'patient',
        speakerLabel: 'S1',
      }),
    ]);
    expect(session.of('partial')).toEqual([]);
    expect(fake.calls.map((call) => call.fields)).toEqual([
      expect.objectContaining({ language: ['en'], prompt: ['meniscus, metoprolol.'] }),
      expect.objectContaining({ language: ['en'], prompt: ['meniscus, metoprolol.'] }),
    ]);
    // Stored before they were sent.
    const stored = await h.repositories.transcriptSegments.listAfter(ended.sessionId);
    expect(stored.map((row) => row.text)).toEqual(['My meniscus hurts.', 'Since Monday.']);
  });

  it('serves languages other than English, asking the server for the tag’s language', async () => {
    fake.otherwise(verboseJson({ text: ' Me duele la rodilla.' }));
    const session = await startSession('es-MX');
    sendAudio(session, concatPcm([roomNoise(500), tone(800), roomNoise(800)]));
    session.send({ type: 'stop' });
    expect((await session.next('final')).segment.text).toBe('Me duele la rodilla.');
    expect(session.of('error')).toEqual([]);
    expect(fake.calls.map((call) => call.fields['language'])).toEqual([['es']]);
  });

  it('ends the session with a coded error when the server refuses the credentials', async () => {
    fake.otherwise(httpStatus(401));
    const session = await startSession();
    sendAudio(session, concatPcm([roomNoise(500), tone(800), roomNoise(800)]));
    const error = await session.next('error');
    expect(error).toMatchObject({ code: 'recognizer_unavailable', fatal: true });
    expect(error.message).toMatch(/refused the engine's credentials/);
    expect(error.message).not.toContain(API_KEY);
    expect((await session.closed).code).toBe(REALTIME_CLOSE_CODES.internalError);
    expect(h.logs.text).not.toContain(API_KEY);
  });
});
