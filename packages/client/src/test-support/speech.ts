import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { encodeWav, parseWav } from '../../../server/src/asr/wav.js';
import { GOFORWARD } from '../../../server/src/test-support/speech.js';
import type { RealtimeSession } from '../realtime/session.js';

export { GOFORWARD, missingSpeechTools } from '../../../server/src/test-support/speech.js';
export { PocketSphinxRecognizer } from '../../../server/src/asr/index.js';
export { wordErrorRate } from '../../../server/src/asr/wer.js';

/** 16 kHz s16le mono, as goforward.raw is. */
export const S16_16K_BYTES_PER_SECOND = 32_000;

/** Real recorded speech, 16 kHz 16-bit mono: "go forward ten meters". */
export const goforward = (): Buffer => readFileSync(GOFORWARD);

/** Quiet noise (not digital zeros) so the recognizer's detector sees the end of speech, as s16le bytes. */
export function silence(ms: number, sampleRate = 16_000): Buffer {
  const samples = new Int16Array(Math.round((ms * sampleRate) / 1000));
  let state = 7;
  for (let i = 0; i < samples.length; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    samples[i] = Math.round((state / 2 ** 31 - 0.5) * 40);
  }
  return Buffer.from(samples.buffer);
}

/** Writes `sentence` spoken by flite (voice slt, 16 kHz 16-bit mono WAV) to `directory`; returns its path. */
export function speakToWav(sentence: string, directory: string, name = 'speech.wav'): string {
  const file = join(directory, name);
  execFileSync('flite', ['-voice', 'slt', '-t', sentence, '-o', file]);
  return file;
}

/** The samples of a 16-bit WAV file. */
export function readWav(file: string): { pcm: Buffer; sampleRate: number } {
  const wav = parseWav(readFileSync(file));
  return {
    pcm: Buffer.from(wav.samples.buffer, wav.samples.byteOffset, wav.samples.byteLength),
    sampleRate: wav.sampleRate,
  };
}

/**
 * A WAV file of `sentence` spoken by flite with `paddingMs` of quiet noise before and after: fed to
 * Chromium as its fake microphone (which loops it), each repetition is an utterance of its own.
 */
export function paddedSpeechWav(sentence: string, directory: string, paddingMs: number): string {
  const { pcm, sampleRate } = readWav(speakToWav(sentence, directory, 'plain.wav'));
  const padding = silence(paddingMs, sampleRate);
  const padded = Buffer.concat([padding, pcm, padding]);
  const file = join(directory, 'padded.wav');
  writeFileSync(file, encodeWav(new Int16Array(padded.buffer, padded.byteOffset, padded.byteLength / 2), sampleRate));
  return file;
}

/** Milliseconds of `bytes` of 16-bit mono audio at `sampleRate`, as the service counts them. */
export const msOf = (bytes: number, sampleRate = 16_000): number => Math.round(((bytes / 2) * 1000) / sampleRate);

/** Sends `audio` into the session in 100 ms frames at `speed` × real time (Infinity: back to back). */
export async function streamInto(
  session: RealtimeSession,
  audio: Uint8Array,
  bytesPerSecond: number,
  speed: number,
): Promise<void> {
  const frame = Math.floor(bytesPerSecond / 10 / 2) * 2;
  for (let offset = 0; offset < audio.length; offset += frame) {
    session.send(audio.subarray(offset, offset + frame));
    if (Number.isFinite(speed)) await sleep(100 / speed);
  }
}
