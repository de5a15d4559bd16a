/**
 * Turns the client's binary frames (interleaved little-endian PCM in the declared encoding) into
 * one 16 kHz 16-bit mono stream per channel, the recognizer's input.
 */
import type { AudioFormat } from '@chartwright/protocol';

import { resampleLinear } from '../asr/resample.js';

export const RECOGNIZER_SAMPLE_RATE = 16_000;

export function bytesPerFrame(format: AudioFormat): number {
  return (format.encoding === 'pcm_s16le' ? 2 : 4) * format.channels;
}

/** Samples per channel in `bytes` of audio; undefined when `bytes` is not whole sample frames. */
export function framesIn(format: AudioFormat, bytes: number): number | undefined {
  const size = bytesPerFrame(format);
  return bytes % size === 0 ? bytes / size : undefined;
}

/** Splits an aligned frame into 16 kHz Int16 PCM, one array per channel. */
export function decodeFrame(format: AudioFormat, data: Buffer): Int16Array[] {
  const frames = framesIn(format, data.byteLength);
  if (frames === undefined) throw new RangeError('frame is not a whole number of samples');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const sampleBytes = format.encoding === 'pcm_s16le' ? 2 : 4;
  const channels: Int16Array[] = [];
  for (let channel = 0; channel < format.channels; channel++) {
    const out = new Int16Array(frames);
    for (let i = 0; i < frames; i++) {
      const offset = (i * format.channels + channel) * sampleBytes;
      if (sampleBytes === 2) {
        out[i] = view.getInt16(offset, true);
      } else {
        const value = view.getFloat32(offset, true);
        // NaN and ±Infinity become silence and full scale; never a wrapped integer.
        const clamped = Number.isNaN(value) ? 0 : Math.max(-1, Math.min(1, value));
        out[i] = Math.round(clamped * 32767);
      }
    }
    channels.push(
      format.sampleRate === RECOGNIZER_SAMPLE_RATE
        ? out
        : resampleLinear(out, format.sampleRate, RECOGNIZER_SAMPLE_RATE),
    );
  }
  return channels;
}
