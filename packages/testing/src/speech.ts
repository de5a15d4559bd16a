import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { RealtimeSession } from '@chartwright/client';
import { PocketSphinxRecognizer } from '@chartwright/server/internal/asr/pocketsphinx/engine.js';
import { encodeWav, parseWav } from '@chartwright/server/internal/asr/wav.js';
import { speak } from '@chartwright/server/tools/speech/flite.js';

export { PocketSphinxRecognizer };
export { wordErrorRate } from '@chartwright/server/internal/text/wer.js';
export { transcribe, type PacedStream } from '@chartwright/server/tools/eval-asr/transcribe.js';

/** Real recorded speech from Debian's pocketsphinx-testdata: 16 kHz, 16-bit, mono "go forward ten meters". */
export const GOFORWARD = '/usr/share/pocketsphinx/test/data/goforward.raw';

const INSTALL = 'apt-get install -y libpocketsphinx3 pocketsphinx-en-us pocketsphinx-testdata flite';

export function fliteInstalled(): boolean {
  try {
    execFileSync('flite', ['-lv'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `sentence` spoken by flite (the `slt` voice unless told), as 16 kHz mono 16-bit samples. */
/** A visit's opening turns, clinician (rms) asking and patient (slt) answering: voices for the diarizer to tell apart. */
export const TWO_VOICE_TURNS = [
  ['rms', 'good morning what brings you in today'],
  ['slt', 'i have had a cough for about two weeks and it keeps me up at night'],
  ['rms', 'do you have any fever or chills'],
  ['slt', 'no fever but my chest feels tight when i climb the stairs'],
] as const;

export function synthesizeSpeech(sentence: string, voice = 'slt'): Int16Array {
  return speak(sentence, voice);
}

/** `sentence` spoken by flite as s16le bytes, what a client sends over the realtime socket. */
export function spokenBytes(sentence: string, voice = 'slt'): Buffer {
  const samples = speak(sentence, voice);
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}

/**
 * What the recognizer tests need and this machine lacks. Locally those tests are skipped when
 * something is missing; in CI (.ci/run installs everything) a missing piece fails the run instead.
 */
export async function missingSpeechTools(): Promise<string[]> {
  const probe = new PocketSphinxRecognizer({ workers: 1 });
  const status = await probe.status();
  await probe.close();
  const missing = [
    ...(status.available ? [] : [status.reason]),
    ...(existsSync(GOFORWARD) ? [] : [`${GOFORWARD} (pocketsphinx-testdata)`]),
    ...(fliteInstalled() ? [] : ['flite']),
  ];
  if (missing.length > 0 && process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error(`recognizer tests may not be skipped in CI; missing: ${missing.join('; ')}. Install: ${INSTALL}`);
  }
  return missing;
}

/** 16 kHz s16le mono, as goforward.raw is. */
export const S16_16K_BYTES_PER_SECOND = 32_000;

/** Real recorded speech, 16 kHz 16-bit mono: "go forward ten meters". */
export const goforward = (): Buffer => readFileSync(GOFORWARD);

/** The same recording as 16-bit samples, for the recognizer's own API. */
export function goforwardPcm(): Int16Array {
  const raw = goforward();
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

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
