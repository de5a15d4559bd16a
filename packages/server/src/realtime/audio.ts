/**
 * Turns the client's binary frames (interleaved little-endian PCM in the declared encoding) into
 * one stream per channel of the recognizer's input: 16-bit mono at its sample rate.
 */
import { framesIn, RECOGNIZER_SAMPLE_RATE, type AudioFormat } from '@chartwright/protocol';

import { resampleLinear } from '../asr/resample.js';

/** Splits an aligned frame into Int16 PCM at the recognizer's rate, one array per channel. */
export function decodeFrame(format: AudioFormat, data: Uint8Array): Int16Array[] {
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
