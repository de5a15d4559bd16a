import { describe, expect, it } from 'vitest';

import { fliteInstalled, synthesizeSpeech } from '@chartwright/testing/speech.js';
import { babble, concatPcm, roomNoise, SAMPLE_RATE, tone } from '@chartwright/testing/synthetic-audio.js';
import { DEFAULT_VAD_OPTIONS, VoiceActivityDetector, type Utterance, type VadOptions } from './vad.js';

const ms = (value: number) => (value * SAMPLE_RATE) / 1000;
/** One analysis frame: the resolution of every boundary. */
const FRAME = ms(DEFAULT_VAD_OPTIONS.frameMs);

/** Every utterance of `audio`, fed in `chunk`-sample pieces, then flushed. */
function detect(audio: Int16Array, chunk = 1600, options: Partial<VadOptions> = {}): Utterance[] {
  const vad = new VoiceActivityDetector(options);
  const utterances: Utterance[] = [];
  for (let offset = 0; offset < audio.length; offset += chunk) {
    utterances.push(...vad.push(audio.subarray(offset, offset + chunk)));
  }
  const last = vad.flush();
  return last === undefined ? utterances : [...utterances, last];
}

const span = (u: Utterance) => [u.startSample, u.startSample + u.samples.length] as const;

function expectOrderedAndDisjoint(utterances: readonly Utterance[]): void {
  for (let i = 1; i < utterances.length; i++) {
    const [previous, current] = [utterances[i - 1], utterances[i]];
    if (previous === undefined || current === undefined) continue;
    expect(current.startSample).toBeGreaterThanOrEqual(span(previous)[1]);
  }
}

/** The utterance carries exactly the stream's samples at its position. */
function expectSamplesOf(audio: Int16Array, utterance: Utterance): void {
  const [start, end] = span(utterance);
  expect(Buffer.from(utterance.samples.buffer).equals(Buffer.from(audio.slice(start, end).buffer))).toBe(true);
}

describe('VoiceActivityDetector', () => {
  it('finds no speech in digital silence or in room noise', () => {
    expect(detect(new Int16Array(ms(5000)))).toEqual([]);
    expect(detect(roomNoise(5000))).toEqual([]);
    expect(detect(roomNoise(5000, 3000))).toEqual([]); // loud but steady (a fan): learned as the floor
  });

  it('cuts tone bursts into one utterance each, padded on both sides', () => {
    const audio = concatPcm([roomNoise(1000), tone(1000), roomNoise(1500), tone(500), roomNoise(1000)]);
    const utterances = detect(audio);
    expect(utterances.map(span)).toEqual([
      [ms(1000 - 200), ms(2000 + 200)],
      [ms(3500 - 200), ms(4000 + 200)],
    ]);
    for (const utterance of utterances) expectSamplesOf(audio, utterance);
  });

  it('ignores clicks shorter than the speech start', () => {
    const audio = concatPcm([roomNoise(1000), tone(50, 20_000), roomNoise(1000)]);
    expect(detect(audio)).toEqual([]);
  });

  it('keeps pauses shorter than the end of speech inside the utterance', () => {
    const audio = concatPcm([roomNoise(1000), tone(400), roomNoise(300), tone(400), roomNoise(1000)]);
    expect(detect(audio).map(span)).toEqual([[ms(800), ms(2300)]]);
  });

  it('gives the same utterances however the audio is chunked', () => {
    const audio = concatPcm([roomNoise(700), babble(2100), roomNoise(900), tone(300), roomNoise(800)]);
    const reference = detect(audio, audio.length);
    expect(reference).toHaveLength(2);
    for (const chunk of [7, 37, FRAME, 4001]) expect(detect(audio, chunk)).toEqual(reference);
  });

  it('follows the microphone gain: quiet speech in a quieter room is found', () => {
    const audio = concatPcm([roomNoise(1000, 4), tone(800, 400), roomNoise(1000, 4)]);
    expect(detect(audio).map(span)).toEqual([[ms(800), ms(2000)]]);
  });

  it('adapts when the room gets louder instead of hearing speech forever', () => {
    const audio = concatPcm([roomNoise(1000), roomNoise(30_000, 3000, 9), tone(600, 20_000), roomNoise(1500, 3000, 5)]);
    const utterances = detect(audio);
    // At most the jump itself, until the floor learns the new level, and then the speech.
    const last = utterances.at(-1);
    expect(utterances.length).toBeLessThanOrEqual(2);
    expect(last && span(last)).toEqual([ms(31_000 - 200), ms(31_600 + 200)]);
    for (const utterance of utterances.slice(0, -1)) expect(utterance.samples.length).toBeLessThan(ms(3000));
  });

  it('cuts speech longer than the maximum at a pause, without losing or repeating audio', () => {
    const speech = babble(45_000);
    const audio = concatPcm([roomNoise(1000), speech, roomNoise(1000)]);
    const utterances = detect(audio);
    expect(utterances.length).toBe(3);
    expectOrderedAndDisjoint(utterances);
    for (const [i, utterance] of utterances.entries()) {
      expect(utterance.samples.length).toBeLessThanOrEqual(ms(DEFAULT_VAD_OPTIONS.maxUtteranceMs));
      expectSamplesOf(audio, utterance);
      // Contiguous: a cut loses nothing between the pieces.
      const next = utterances[i + 1];
      if (next !== undefined) expect(next.startSample).toBe(span(utterance)[1]);
    }
    // Each cut falls in a gap between bursts (the quietest frame), not inside one.
    for (const utterance of utterances.slice(0, -1)) {
      const positionInCycle = (span(utterance)[1] - ms(1000)) % ms(300);
      expect(positionInCycle).toBeGreaterThan(ms(200));
    }
  });

  it('flushes the utterance in progress on demand; speech that goes on starts the next', () => {
    const audio = concatPcm([roomNoise(500), tone(1800), roomNoise(1000)]);
    const vad = new VoiceActivityDetector();
    const before = vad.push(audio.subarray(0, ms(1500)));
    expect(before).toEqual([]);
    const flushed = vad.flush();
    expect(flushed && span(flushed)).toEqual([ms(300), ms(1500)]);
    expect(vad.flush()).toBeUndefined();
    const after = [...vad.push(audio.subarray(ms(1500)))];
    expect(after.map(span)).toEqual([[ms(1500), ms(2300 + 200)]]);
  });

  it.skipIf(!fliteInstalled())('cuts flite speech at sentence pauses, not between words', () => {
    const sentences = [
      'The patient reports pain in the left knee for three weeks.',
      'She takes metoprolol every morning.',
      'No fever or chills.',
    ];
    const parts: Int16Array[] = [roomNoise(800)];
    const bounds: [number, number][] = [];
    let at = ms(800);
    for (const sentence of sentences) {
      const speech = synthesizeSpeech(sentence);
      const noise = roomNoise((speech.length * 1000) / SAMPLE_RATE, 40, at);
      const withNoise = speech.map((sample, i) => sample + (noise[i] ?? 0));
      parts.push(withNoise, roomNoise(1200, 40, at));
      bounds.push([at, at + speech.length]);
      at += speech.length + ms(1200);
    }
    const utterances = detect(concatPcm(parts));
    expect(utterances).toHaveLength(sentences.length);
    utterances.forEach((utterance, i) => {
      const [start, end] = span(utterance);
      const [speechStart, speechEnd] = bounds[i] ?? [0, 0];
      // The utterance covers its sentence (flite pads with a little silence of its own).
      expect(start).toBeLessThanOrEqual(speechStart + ms(150));
      expect(end).toBeGreaterThanOrEqual(speechEnd - ms(150));
    });
  });

  it('says before which position no utterance is still to come: never inside one, never moving back', () => {
    const audio = concatPcm([roomNoise(1000), tone(1000), roomNoise(1500)]);
    const vad = new VoiceActivityDetector();
    const seen: number[] = [];
    for (let offset = 0; offset < audio.length; offset += FRAME) {
      vad.push(audio.subarray(offset, offset + FRAME));
      seen.push(vad.openFrom);
    }
    expect(seen.every((from, i) => i === 0 || from >= (seen[i - 1] ?? Infinity))).toBe(true);
    // While the burst is an utterance in progress, the position stays at its padded start.
    const during = seen[Math.round(ms(1500) / FRAME)];
    expect(during).toBe(ms(1000 - 200));
    // In the room noise before and after it, it trails the audio by the onset and padding a start would take.
    const onsetAndPadding = ms(DEFAULT_VAD_OPTIONS.speechStartMs + DEFAULT_VAD_OPTIONS.prePaddingMs);
    expect(seen[Math.round(ms(900) / FRAME)]).toBe(ms(900) + FRAME - onsetAndPadding);
    expect(seen.at(-1)).toBe(audio.length - onsetAndPadding);
  });

  it('refuses options that cannot work', () => {
    expect(() => new VoiceActivityDetector({ frameMs: 0.01 })).toThrow(RangeError);
    expect(() => new VoiceActivityDetector({ maxUtteranceMs: 100 })).toThrow(RangeError);
  });
});
