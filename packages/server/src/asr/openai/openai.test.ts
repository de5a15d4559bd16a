import { once } from 'node:events';
import { createServer } from 'node:net';

import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  FakeTranscriptionServer,
  hang,
  httpStatus,
  verboseJson,
  type Responder,
  type TranscriptionCall,
} from '@chartwright/testing/fake-transcription-server.js';
import { LogCapture } from '@chartwright/testing/harness.js';
import { fliteInstalled, synthesizeSpeech, TWO_VOICE_TURNS } from '@chartwright/testing/speech.js';
import { concatPcm, roomNoise, SAMPLE_RATE, tone } from '@chartwright/testing/synthetic-audio.js';
import type { FinalEvent, RecognizerErrorEvent, RecognizerStream } from '../recognizer.js';
import { languageOf, promptOf } from './engine.js';
import { retryAfterMs } from './http.js';
import { OpenAiRecognizer, type OpenAiRecognizerOptions } from './index.js';

/**
 * The OpenAI-compatible engine against a fake transcription server (a real HTTP server parsing
 * real multipart uploads). The audio is synthetic: tone bursts the detector cuts at known places.
 */
const ms = (value: number) => (value * SAMPLE_RATE) / 1000;
const API_KEY = 'sk-fake-transcription-key';

/** Two bursts the detector cuts into [800, 2200) and [3300, 4200) ms (200 ms padding each side). */
const TWO_BURSTS = concatPcm([roomNoise(1000), tone(1000), roomNoise(1500), tone(500, 8000, 330), roomNoise(1000)]);

let fake: FakeTranscriptionServer;
const engines: OpenAiRecognizer[] = [];
const logs = new LogCapture();

function engine(options: Partial<OpenAiRecognizerOptions> = {}): OpenAiRecognizer {
  const recognizer = new OpenAiRecognizer({
    baseUrl: fake.baseUrl,
    apiKey: API_KEY,
    model: 'whisper-1',
    timeoutMs: 10_000,
    maxConcurrentRequests: 4,
    retryBaseDelayMs: 1,
    logger: pino({ level: 'debug' }, logs),
    ...options,
  });
  engines.push(recognizer);
  return recognizer;
}

interface Recording {
  finals: FinalEvent[];
  errors: RecognizerErrorEvent[];
  partials: number;
}

function record(stream: RecognizerStream): Recording {
  const recording: Recording = { finals: [], errors: [], partials: 0 };
  stream.on('final', (final) => recording.finals.push(final));
  stream.on('error', (error) => recording.errors.push(error));
  stream.on('partial', () => (recording.partials += 1));
  return recording;
}

/** Writes in 100 ms frames, as a realtime session does. */
function writeAll(stream: RecognizerStream, audio: Int16Array): void {
  for (let offset = 0; offset < audio.length; offset += ms(100)) stream.write(audio.subarray(offset, offset + ms(100)));
}

/** Answers by the uploaded audio's length, so the answer does not depend on arrival order. */
function byLength(answers: Record<number, Responder>): Responder {
  return async (call, response) => {
    const responder: Responder = answers[Math.round(call.audioMs)] ?? httpStatus(598);
    await responder(call, response);
  };
}

beforeEach(async () => {
  fake = await FakeTranscriptionServer.start();
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((recognizer) => recognizer.close()));
  await fake.close();
});

/** One utterance the detector cuts at [300, 1500) ms. */
const ONE_BURST = concatPcm([roomNoise(500), tone(800), roomNoise(800)]);

/** Answers with `status` and a JSON body as the server in question writes it. */
const replyWith =
  (status: number, body: unknown): Responder =>
  (_call, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

/** The finals and errors of ONE_BURST transcribed by a fresh engine. */
async function transcribeOne(): Promise<Recording> {
  const stream = await engine().openStream({ sampleRate: 16_000 });
  const recording = record(stream);
  writeAll(stream, ONE_BURST);
  await stream.end();
  return recording;
}

describe('OpenAI-compatible recognizer', () => {
  it('posts each utterance as a 16 kHz mono WAV with model, format, language and prompt', async () => {
    fake.otherwise(
      byLength({
        1400: verboseJson({
          text: ' The knee hurts.',
          words: [
            { word: 'The', start: 0.2, end: 0.4 },
            { word: 'knee', start: 0.4, end: 0.7 },
            { word: 'hurts.', start: 0.8, end: 1.2 },
          ],
          segments: [{ id: 0, start: 0.2, end: 1.2, text: ' The knee hurts.', avg_logprob: -0.2, no_speech_prob: 0 }],
        }),
        900: verboseJson({
          text: ' Since Monday.',
          segments: [{ id: 0, start: 0.1, end: 0.7, text: ' Since Monday.' }],
        }),
      }),
    );
    const stream = await engine().openStream({
      sampleRate: 16_000,
      language: 'en-GB',
      vocabulary: ['metoprolol', 'meniscus'],
    });
    const recording = record(stream);
    writeAll(stream, TWO_BURSTS);
    await stream.end();

    expect(fake.calls).toHaveLength(2);
    const [first, second] = fake.calls as [TranscriptionCall, TranscriptionCall];
    expect(first).toMatchObject({
      method: 'POST',
      url: '/v1/audio/transcriptions',
      headers: { authorization: `Bearer ${API_KEY}` },
      fields: {
        model: ['whisper-1'],
        response_format: ['verbose_json'],
        'timestamp_granularities[]': ['word', 'segment'],
        language: ['en'],
        prompt: ['metoprolol, meniscus.'],
      },
      file: { name: 'utterance.wav', type: 'audio/wav' },
      wav: { sampleRate: 16_000, channels: 1, bitsPerSample: 16 },
    });
    // The file holds exactly the stream's audio of the utterance.
    expect(Array.from(first.wav?.samples ?? [])).toEqual(Array.from(TWO_BURSTS.subarray(ms(800), ms(2200))));
    expect(second.audioMs).toBe(900);

    expect(recording.errors).toEqual([]);
    expect(recording.partials).toBe(0);
    expect(recording.finals).toEqual([
      {
        text: 'The knee hurts.',
        startMs: 1000,
        endMs: 2000,
        words: [
          { word: 'The', startMs: 1000, endMs: 1200 },
          { word: 'knee', startMs: 1200, endMs: 1500 },
          { word: 'hurts', startMs: 1600, endMs: 2000 },
        ],
      },
      { text: 'Since Monday.', startMs: 3400, endMs: 4000 },
    ]);
    // Neither the key nor a transcript reaches the logs.
    expect(logs.text).toContain('transcription received');
    expect(logs.text).not.toContain(API_KEY);
    expect(logs.text).not.toContain('knee');
  });

  it('emits finals in utterance order when the replies come back out of order', async () => {
    let secondAnswered!: () => void;
    const answeredSecond = new Promise<void>((resolve) => (secondAnswered = resolve));
    const order: string[] = [];
    fake.otherwise(
      byLength({
        1400: async (call, response) => {
          await answeredSecond; // the first utterance's reply waits for the second's
          order.push('first');
          verboseJson({ text: 'first' })(call, response);
        },
        900: (call, response) => {
          order.push('second');
          verboseJson({ text: 'second' })(call, response);
          secondAnswered();
        },
      }),
    );
    const stream = await engine().openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, TWO_BURSTS);
    await stream.end();
    expect(order).toEqual(['second', 'first']);
    expect(recording.finals.map((final) => final.text)).toEqual(['first', 'second']);
  });

  it('ends the utterance in progress on finalize, and starts the next one after it', async () => {
    fake.otherwise((call, response) => verboseJson({ text: `${Math.round(call.audioMs)} ms` })(call, response));
    const stream = await engine().openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, concatPcm([roomNoise(500), tone(1000)]));
    stream.finalize();
    await vi.waitFor(() => expect(recording.finals).toHaveLength(1));
    expect(recording.finals[0]).toEqual({ text: '1200 ms', startMs: 300, endMs: 1500 });
    writeAll(stream, concatPcm([tone(500), roomNoise(1000)]));
    await stream.end();
    expect(recording.finals.map((final) => [final.startMs, final.endMs])).toEqual([
      [300, 1500],
      [1500, 2200],
    ]);
  });

  it('flushes the open utterance on end, resolving only after its final, and then takes no audio', async () => {
    fake.otherwise(verboseJson({ text: 'last words' }));
    const stream = await engine().openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, concatPcm([roomNoise(500), tone(800)]));
    expect(fake.calls).toHaveLength(0); // still speaking
    await stream.end();
    expect(recording.finals.map((final) => final.text)).toEqual(['last words']);
    writeAll(stream, TWO_BURSTS);
    stream.finalize();
    await stream.end();
    expect(fake.calls).toHaveLength(1);
  });

  it("says the server refused the engine's credentials on 401, without the key, and stops", async () => {
    fake.otherwise(httpStatus(401));
    const stream = await engine().openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, TWO_BURSTS);
    await vi.waitFor(() => expect(recording.errors).toHaveLength(1));
    expect(recording.errors[0]?.code).toBe('recognizer_unavailable');
    expect(recording.errors[0]?.message).toMatch(/refused the engine's credentials \(HTTP 401\)/);
    expect(recording.errors[0]?.message).not.toContain(API_KEY);
    const calls = fake.calls.length;
    writeAll(stream, TWO_BURSTS);
    await stream.end();
    expect(fake.calls).toHaveLength(calls); // no retry, and no audio taken after the error
    expect(calls).toBeLessThanOrEqual(2);
    expect(recording.finals).toEqual([]);
  });

  it('retries a 429, honouring Retry-After, and then transcribes', async () => {
    fake.script(httpStatus(429, { 'retry-after': '0' }), httpStatus(503));
    fake.otherwise(verboseJson({ text: 'after the wait' }));
    const stream = await engine().openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, concatPcm([roomNoise(500), tone(800), roomNoise(800)]));
    await stream.end();
    expect(fake.calls).toHaveLength(3);
    expect(recording.errors).toEqual([]);
    expect(recording.finals.map((final) => final.text)).toEqual(['after the wait']);
  });

  it('fails the stream as recognizer_failed once retries of a 5xx are spent', async () => {
    fake.otherwise(httpStatus(500));
    const stream = await engine({ retries: 2 }).openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, concatPcm([roomNoise(500), tone(800), roomNoise(800)]));
    await stream.end();
    expect(fake.calls).toHaveLength(3);
    expect(recording.errors).toEqual([
      { code: 'recognizer_failed', message: 'the transcription server answered HTTP 500; gave up after 3 attempts' },
    ]);
  });

  it('fails the stream when a request outlives its timeout, without retrying it', async () => {
    fake.otherwise(hang);
    const stream = await engine({ timeoutMs: 300 }).openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, concatPcm([roomNoise(500), tone(800), roomNoise(800)]));
    await stream.end();
    expect(fake.calls).toHaveLength(1);
    expect(recording.errors).toEqual([{ code: 'recognizer_failed', message: 'no transcription within 300 ms' }]);
  });

  it('reports an unreachable server as recognizer_unavailable after its retries', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as { port: number };
    closed.close();
    await once(closed, 'close');
    const stream = await engine({ baseUrl: `http://127.0.0.1:${port}/v1` }).openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, concatPcm([roomNoise(500), tone(800), roomNoise(800)]));
    await stream.end();
    expect(recording.errors).toEqual([
      {
        code: 'recognizer_unavailable',
        message: 'the transcription server could not be reached (ECONNREFUSED); gave up after 3 attempts',
      },
    ]);
  });

  it('fails as recognizer_overloaded when untranscribed utterances pass the pending bound', async () => {
    fake.otherwise(hang);
    const stream = await engine({ maxPendingMs: 2500, maxConcurrentRequests: 1 }).openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, concatPcm([roomNoise(500), TWO_BURSTS, TWO_BURSTS]));
    expect(recording.errors.map((error) => error.code)).toEqual(['recognizer_overloaded']);
    await stream.end(); // already over: resolves without waiting for the hung requests
    writeAll(stream, TWO_BURSTS);
    expect(recording.errors).toHaveLength(1);
  });

  it('asks for plain json from then on when the server refuses verbose_json', async () => {
    fake.otherwise((call, response) =>
      call.fields['response_format']?.[0] === 'verbose_json'
        ? httpStatus(400)(call, response)
        : verboseJson({ text: 'text only' })(call, response),
    );
    const recognizer = engine();
    const first = await recognizer.openStream({ sampleRate: 16_000 });
    writeAll(first, concatPcm([roomNoise(500), tone(800), roomNoise(800)]));
    await first.end();
    const stream = await recognizer.openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, TWO_BURSTS);
    await stream.end();
    expect(fake.calls.map((call) => call.fields['response_format']?.[0])).toEqual([
      'verbose_json',
      'json',
      'json',
      'json',
    ]);
    expect(fake.calls[1]?.fields['timestamp_granularities[]']).toBeUndefined();
    // Without times from the server, a final spans the utterance the detector cut.
    expect(recording.finals).toEqual([
      { text: 'text only', startMs: 800, endMs: 2200 },
      { text: 'text only', startMs: 3300, endMs: 4200 },
    ]);
  });

  it('commits audio up to the utterance still being transcribed, and past it once its final is out', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    fake.otherwise(async (call, response) => {
      await answered;
      verboseJson({ text: 'yes' })(call, response);
    });
    const stream = await engine().openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    const committed: number[] = [];
    stream.on('committed', ({ ms: at }) => committed.push(at));
    writeAll(stream, ONE_BURST);
    // The utterance [300, 1500) is cut and waits for its transcription: nothing past its start.
    expect(committed.at(-1)).toBe(300);
    answer();
    await expect.poll(() => recording.finals.length).toBe(1);
    // Then only the detector's onset window (80 ms of speech start and 200 ms of padding) is held.
    expect(committed.at(-1)).toBe(2100 - 280);
    expect(committed.every((at, i) => i === 0 || at > (committed[i - 1] ?? Infinity))).toBe(true);
    await stream.end();
  });

  it('is available whenever configured, and fails open streams when closed', async () => {
    fake.otherwise(hang);
    const recognizer = engine();
    expect(await recognizer.status()).toEqual({ available: true });
    const stream = await recognizer.openStream({ sampleRate: 16_000 });
    const recording = record(stream);
    writeAll(stream, concatPcm([roomNoise(500), tone(800), roomNoise(800)]));
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    await recognizer.close();
    expect(recording.errors.map((error) => error.code)).toEqual(['recognizer_unavailable']);
    await stream.end();
    await expect(recognizer.openStream({ sampleRate: 16_000 })).rejects.toMatchObject({
      code: 'recognizer_unavailable',
    });
  });
});

describe.skipIf(!fliteInstalled())('one microphone, several people', () => {
  const turns = TWO_VOICE_TURNS;
  const visit = concatPcm([
    roomNoise(800),
    ...turns.flatMap(([voice, text]) => [synthesizeSpeech(text, voice), roomNoise(1500)]),
  ]);

  it('labels each final with its voice and role when the stream is opened to diarize, and not otherwise', async () => {
    fake.otherwise((call, response) =>
      verboseJson({ text: turns[fake.calls.indexOf(call)]?.[1] ?? '' })(call, response),
    );
    // One request at a time, so the fake's calls come in utterance order.
    const diarized = await engine({ maxConcurrentRequests: 1 }).openStream({ sampleRate: 16_000, diarize: true });
    const recording = record(diarized);
    writeAll(diarized, visit);
    await diarized.end();
    expect(recording.finals.map((final) => [final.text, final.speakerLabel, final.speaker])).toEqual([
      [turns[0][1], 'S1', 'clinician'],
      [turns[1][1], 'S2', 'patient'],
      [turns[2][1], 'S1', 'clinician'],
      [turns[3][1], 'S2', 'patient'],
    ]);

    const plain = await engine({ maxConcurrentRequests: 1 }).openStream({ sampleRate: 16_000 });
    const undiarized = record(plain);
    fake.calls.length = 0;
    writeAll(plain, visit);
    await plain.end();
    expect(undiarized.finals).toHaveLength(4);
    expect(undiarized.finals.every((final) => final.speakerLabel === undefined && final.speaker === undefined)).toBe(
      true,
    );
  });
});

describe('request fields', () => {
  it("sends the BCP 47 tag's primary language subtag", () => {
    expect(languageOf('en-US')).toBe('en');
    expect(languageOf('DE')).toBe('de');
    expect(languageOf(undefined)).toBeUndefined();
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('turns vocabulary hints into a prompt, and no hints into none', () => {
    expect(promptOf(['metoprolol', ' meniscus '])).toBe('metoprolol, meniscus.');
    expect(promptOf([])).toBeUndefined();
    expect(promptOf(undefined)).toBeUndefined();
  });
});

describe('replies of self-hosted Whisper servers', () => {
  it("reads whisper.cpp's verbose_json: its tokens, in each segment, joined into words", async () => {
    // whisper.cpp's server: no top-level words; a segment's "words" are tokens, a space opening each word.
    fake.otherwise(
      replyWith(200, {
        task: 'transcribe',
        language: 'english',
        duration: 1.2,
        text: ' Metformin, twice daily.',
        segments: [
          {
            id: 0,
            text: ' Metformin, twice daily.',
            start: 0,
            end: 1.1,
            tokens: [6395, 687, 259, 11, 6091, 5212, 13],
            words: [
              { word: ' Met', start: 0.1, end: 0.25, t_dtw: -1, probability: 0.91 },
              { word: 'form', start: 0.25, end: 0.4, t_dtw: -1, probability: 0.62 },
              { word: 'in', start: 0.4, end: 0.5, t_dtw: -1, probability: 0.84 },
              { word: ',', start: 0.5, end: 0.5, t_dtw: -1, probability: 0.95 },
              { word: ' twice', start: 0.6, end: 0.8, t_dtw: -1, probability: 0.97 },
              { word: ' daily', start: 0.8, end: 1.0, t_dtw: -1, probability: 0.99 },
              { word: '.', start: 1.0, end: 1.0, t_dtw: -1, probability: 0.9 },
            ],
            temperature: 0,
            avg_logprob: -0.21,
            no_speech_prob: 0.01,
          },
        ],
      }),
    );
    const recording = await transcribeOne();
    expect(recording.errors).toEqual([]);
    expect(recording.finals).toEqual([
      {
        text: 'Metformin, twice daily.',
        startMs: 400,
        endMs: 1300,
        words: [
          { word: 'Metformin', startMs: 400, endMs: 800, confidence: 0.62 },
          { word: 'twice', startMs: 900, endMs: 1100, confidence: 0.97 },
          { word: 'daily', startMs: 1100, endMs: 1300, confidence: 0.9 },
        ],
      },
    ]);
  });

  it("reads speaches' (faster-whisper) verbose_json: spaced, punctuated words with probabilities", async () => {
    const words = [
      { start: 0.12, end: 0.3, word: ' No', probability: 0.98 },
      { start: 0.3, end: 0.62, word: ' fever,', probability: 0.95 },
      { start: 0.7, end: 0.9, word: ' since', probability: 0.9 },
      { start: 0.9, end: 1.18, word: ' Monday.', probability: 0.88 },
    ];
    fake.otherwise(
      replyWith(200, {
        task: 'transcribe',
        language: 'en',
        duration: 1.2,
        text: 'No fever, since Monday.',
        words,
        segments: [
          {
            id: 1,
            seek: 0,
            start: 0.12,
            end: 1.18,
            text: ' No fever, since Monday.',
            tokens: [50364, 883, 17374, 11, 1670, 8138, 13, 50424],
            temperature: 0,
            avg_logprob: -0.18,
            compression_ratio: 0.8,
            no_speech_prob: 0.02,
            words,
          },
        ],
      }),
    );
    const recording = await transcribeOne();
    expect(recording.finals[0]?.words).toEqual([
      { word: 'No', startMs: 420, endMs: 600, confidence: 0.98 },
      { word: 'fever', startMs: 600, endMs: 920, confidence: 0.95 },
      { word: 'since', startMs: 1000, endMs: 1200, confidence: 0.9 },
      { word: 'Monday', startMs: 1200, endMs: 1480, confidence: 0.88 },
    ]);
    expect(recording.finals[0]?.text).toBe('No fever, since Monday.');
  });

  it("reads vLLM's verbose_json, segments without words, and falls back to json when an older vLLM refuses it", async () => {
    fake.otherwise(
      replyWith(200, {
        text: ' No fever.',
        language: 'en',
        duration: 1.2,
        segments: [{ id: 0, start: 0.2, end: 0.9, text: ' No fever.', tokens: [], temperature: 0 }],
      }),
    );
    expect((await transcribeOne()).finals).toEqual([{ text: 'No fever.', startMs: 500, endMs: 1200 }]);

    // vLLM before verbose_json: 400 with its OpenAI-style error object, then plain json.
    fake.otherwise((call, response) =>
      call.fields['response_format']?.[0] === 'verbose_json'
        ? replyWith(400, {
            object: 'error',
            message: 'Currently only support response_format `text` or `json`',
            type: 'BadRequestError',
            param: null,
            code: 400,
          })(call, response)
        : replyWith(200, { text: ' No fever.', usage: { type: 'duration', seconds: 2 } })(call, response),
    );
    expect((await transcribeOne()).finals).toEqual([{ text: 'No fever.', startMs: 300, endMs: 1500 }]);
  });

  it.each([
    ["whisper.cpp's", 500, { error: 'failed to process audio' }, 'recognizer_failed'],
    ["speaches' (FastAPI)", 422, { detail: [{ loc: ['body', 'file'], msg: 'Field required' }] }, 'recognizer_failed'],
    [
      "vLLM's",
      404,
      { object: 'error', message: 'The model `whisper-1` does not exist.', code: 404 },
      'recognizer_failed',
    ],
  ])(
    'fails the stream on %s error body (HTTP %i) with a coded error that repeats none of it',
    async (_server, status, body, code) => {
      fake.otherwise(replyWith(status, body));
      const { errors, finals } = await transcribeOne();
      expect(finals).toEqual([]);
      expect(errors.map((error) => error.code)).toEqual([code]);
      expect(errors[0]?.message).toContain(`the transcription server answered HTTP ${status}`);
      expect(errors[0]?.message).not.toMatch(/process audio|Field required|does not exist/);
      expect(logs.text).not.toMatch(/process audio|Field required|does not exist/);
    },
  );
});
