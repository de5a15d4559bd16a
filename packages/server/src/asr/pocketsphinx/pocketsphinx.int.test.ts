import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FinalEvent, RecognizerErrorEvent, RecognizerStream } from '../recognizer.js';
import { resampleLinear } from '../resample.js';
import { parseWav } from '../wav.js';
import { wordErrorRate } from '../wer.js';
import { GOFORWARD, missingSpeechTools } from '../../test-support/speech.js';
import { PocketSphinxRecognizer } from './engine.js';

/**
 * Needs Debian's libpocketsphinx3, pocketsphinx-en-us, pocketsphinx-testdata and flite. Locally
 * they may be absent and these tests are skipped; in CI (.ci/run installs them) absence fails.
 */
const missing = await missingSpeechTools();

const SAMPLE_RATE = 16_000;
const CHUNK = 1_600; // 100 ms

function goforward(): Int16Array {
  const raw = readFileSync(GOFORWARD);
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

/** Quiet room noise rather than digital zeros, which the detector and normalisation never see live. */
function roomNoise(ms: number, seed = 1): Int16Array {
  let state = seed;
  return Int16Array.from({ length: (ms * SAMPLE_RATE) / 1000 }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.round((state / 2 ** 31 - 0.5) * 40);
  });
}

function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

let scratch: string;
function speak(sentence: string): Int16Array {
  const file = join(scratch, `${String(Math.random()).slice(2)}.wav`);
  execFileSync('flite', ['-voice', 'slt', '-t', sentence, '-o', file]);
  const wav = parseWav(readFileSync(file));
  return resampleLinear(wav.samples, wav.sampleRate, SAMPLE_RATE);
}

interface Recording {
  events: { type: 'partial' | 'final'; text: string }[];
  finals: FinalEvent[];
  errors: RecognizerErrorEvent[];
  /** Wall-clock arrival of each final, and when the audio at its endMs was written. */
  latenciesMs: number[];
}

function record(stream: RecognizerStream, writtenAt: (ms: number) => number | undefined): Recording {
  const recording: Recording = { events: [], finals: [], errors: [], latenciesMs: [] };
  stream.on('partial', ({ text }) => recording.events.push({ type: 'partial', text }));
  stream.on('final', (final) => {
    recording.events.push({ type: 'final', text: final.text });
    recording.finals.push(final);
    const at = writtenAt(final.endMs);
    if (at !== undefined) recording.latenciesMs.push(performance.now() - at);
  });
  stream.on('error', (error) => recording.errors.push(error));
  return recording;
}

/** Writes `pcm` in 100 ms chunks at `speed` × real time; returns when each chunk was written. */
async function play(stream: RecognizerStream, pcm: Int16Array, speed: number, writtenAt: number[]): Promise<void> {
  const started = performance.now();
  for (let offset = 0; offset < pcm.length; offset += CHUNK) {
    const due = started + ((offset / SAMPLE_RATE) * 1000) / speed;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    stream.write(pcm.slice(offset, offset + CHUNK));
    writtenAt.push(performance.now());
  }
}

const SENTENCES = ['the weather is nice today', 'please call me back in the morning', 'i would like a cup of coffee'];

describe.skipIf(missing.length > 0)('PocketSphinx recognizer', () => {
  let recognizer: PocketSphinxRecognizer;
  let dialogue: Int16Array;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cw-asr-'));
    recognizer = new PocketSphinxRecognizer({ workers: 2 });
    await recognizer.warmUp();
    dialogue = concat([roomNoise(500), ...SENTENCES.flatMap((s, i) => [speak(s), roomNoise(1_200, i + 2)])]);
  });

  afterAll(async () => {
    await recognizer.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('decodes recorded speech with the second pass on (ASR_SECOND_PASS)', async () => {
    const twoPass = new PocketSphinxRecognizer({ workers: 1, secondPass: true });
    try {
      const stream = await twoPass.openStream({ sampleRate: 16000 });
      const recording = record(stream, () => undefined);
      const audio = goforward();
      for (let offset = 0; offset < audio.length; offset += CHUNK) stream.write(audio.slice(offset, offset + CHUNK));
      await stream.end();
      expect(recording.errors).toEqual([]);
      expect(recording.finals.map((f) => f.text).join(' ')).toBe('go forward ten meters');
      expect(recording.finals.flatMap((f) => f.words ?? []).map((w) => w.word)).toEqual([
        'go',
        'forward',
        'ten',
        'meters',
      ]);
    } finally {
      await twoPass.close();
    }
  });

  it('decodes recorded speech: goforward.raw is "go forward ten meters"', async () => {
    const stream = await recognizer.openStream({ sampleRate: 16000 });
    const recording = record(stream, () => undefined);
    const audio = goforward();
    const started = performance.now();
    for (let offset = 0; offset < audio.length; offset += CHUNK) stream.write(audio.slice(offset, offset + CHUNK));
    await stream.end();
    const elapsed = performance.now() - started;
    const text = recording.finals.map((f) => f.text).join(' ');
    expect(text).toBe('go forward ten meters');
    expect(recording.errors).toEqual([]);
    const words = recording.finals.flatMap((f) => f.words ?? []);
    expect(words.map((w) => w.word)).toEqual(['go', 'forward', 'ten', 'meters']);
    // "go" starts about 0.46 s into the recording; times are relative to the first sample.
    expect(words[0]?.startMs).toBeGreaterThan(300);
    expect(words[0]?.startMs).toBeLessThan(700);
    expect(words.every((w, i) => i === 0 || w.startMs >= (words[i - 1]?.endMs ?? 0))).toBe(true);
    process.stderr.write(
      `[asr] goforward.raw: ${(audio.length / SAMPLE_RATE).toFixed(2)} s decoded in ${elapsed.toFixed(0)} ms ` +
        `(real-time factor ${(elapsed / ((audio.length / SAMPLE_RATE) * 1000)).toFixed(3)})\n`,
    );
  });

  it.each([
    ['real time', 1],
    ['4× real time', 4],
  ])(
    'transcribes flite speech streamed at %s with WER under 25%%',
    async (label, speed) => {
      const stream = await recognizer.openStream({ sampleRate: 16000 });
      const writtenAt: number[] = [];
      const recording = record(stream, (ms) => writtenAt[Math.floor((ms * SAMPLE_RATE) / 1000 / CHUNK)]);
      await play(stream, dialogue, speed, writtenAt);
      const beforeEnd = recording.finals.length;
      await stream.end();
      expect(recording.errors).toEqual([]);
      const hypothesis = recording.finals.map((f) => f.text).join(' ');
      const wer = wordErrorRate(SENTENCES.join(' '), hypothesis);
      // The detector ends each sentence in the 1.2 s pause after it; all but possibly the last
      // arrive before end(), and the last is flushed by it.
      expect(beforeEnd).toBeGreaterThanOrEqual(SENTENCES.length - 1);
      expect(recording.finals.length).toBeGreaterThanOrEqual(SENTENCES.length);
      // Partials precede finals: the first event of each utterance is a partial.
      expect(recording.events[0]?.type).toBe('partial');
      const firstFinal = recording.events.findIndex((e) => e.type === 'final');
      expect(recording.events.slice(0, firstFinal).some((e) => e.type === 'partial')).toBe(true);
      expect(wer).toBeLessThan(0.25);
      const sorted = [...recording.latenciesMs].sort((a, b) => a - b);
      process.stderr.write(
        `[asr] flite at ${label}: WER ${(wer * 100).toFixed(1)}% ("${hypothesis}"); ` +
          `end-of-speech → final latency ms: ${sorted.map((l) => l.toFixed(0)).join(', ')}\n`,
      );
    },
    60_000,
  );

  it('flushes the last utterance on end() and finalize() cuts one short', async () => {
    const stream = await recognizer.openStream({ sampleRate: 16000 });
    const recording = record(stream, () => undefined);
    const audio = goforward();
    // No trailing silence: the detector has not ended the utterance when end() is called.
    const speechOnly = audio.slice(0, Math.floor(audio.length * 0.8));
    for (let offset = 0; offset < speechOnly.length; offset += CHUNK)
      stream.write(speechOnly.slice(offset, offset + CHUNK));
    stream.finalize();
    for (let offset = 0; offset < speechOnly.length; offset += CHUNK)
      stream.write(speechOnly.slice(offset, offset + CHUNK));
    await stream.end();
    expect(recording.finals.length).toBe(2);
    expect(recording.finals[0]?.text).toContain('go forward');
    expect(recording.finals[1]?.text).toContain('go forward');
    expect(recording.finals[1]?.startMs).toBeGreaterThan(recording.finals[0]?.endMs ?? Infinity);
  }, 30_000);

  it('fails a stream that writes faster than it decodes as recognizer_overloaded', async () => {
    const small = new PocketSphinxRecognizer({ workers: 1, maxPendingMs: 500 });
    try {
      const stream = await small.openStream({ sampleRate: 16000 });
      const errors: RecognizerErrorEvent[] = [];
      stream.on('error', (error) => errors.push(error));
      for (let i = 0; i < 50; i++) stream.write(roomNoise(100, i + 1));
      expect(errors.map((e) => e.code)).toEqual(['recognizer_overloaded']);
      await stream.end(); // settles at once: the stream is already over
    } finally {
      await small.close();
    }
  }, 30_000);

  it('a killed worker fails only its own streams, and the pool restarts it', async () => {
    const a = await recognizer.openStream({ sampleRate: 16000 });
    const b = await recognizer.openStream({ sampleRate: 16000 });
    expect(a.workerPid).not.toBe(b.workerPid);
    const recA = record(a, () => undefined);
    const recB = record(b, () => undefined);
    const audio = goforward();
    a.write(audio.slice(0, CHUNK * 5));
    process.kill(a.workerPid, 'SIGKILL');
    await expect.poll(() => recA.errors.map((e) => e.code), { timeout: 5_000 }).toEqual(['recognizer_crashed']);
    for (let offset = 0; offset < audio.length; offset += CHUNK) b.write(audio.slice(offset, offset + CHUNK));
    await b.end();
    expect(recB.errors).toEqual([]);
    expect(recB.finals.map((f) => f.text).join(' ')).toBe('go forward ten meters');
    await expect.poll(() => recognizer.workerPids().length, { timeout: 10_000 }).toBe(2);
    expect(recognizer.workerPids()).not.toContain(a.workerPid);
    // The replacement decodes too.
    await recognizer.warmUp();
    const c = await recognizer.openStream({ sampleRate: 16000 });
    const recC = record(c, () => undefined);
    for (let offset = 0; offset < audio.length; offset += CHUNK) c.write(audio.slice(offset, offset + CHUNK));
    await c.end();
    expect(recC.finals.map((f) => f.text).join(' ')).toBe('go forward ten meters');
  }, 30_000);
});
