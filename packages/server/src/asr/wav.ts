/**
 * Reads a RIFF/WAVE file holding 16-bit PCM (what flite and most recorders write) into mono
 * samples. Other encodings are refused rather than guessed at.
 */
export interface WavAudio {
  sampleRate: number;
  /** Mono: multi-channel files are averaged. */
  samples: Int16Array;
}

export function parseWav(file: Uint8Array): WavAudio {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const tag = (offset: number): string => String.fromCharCode(...file.subarray(offset, offset + 4));
  if (file.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let format: { channels: number; sampleRate: number; bits: number; code: number } | undefined;
  let offset = 12;
  while (offset + 8 <= file.byteLength) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = {
        code: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (format === undefined) throw new Error('WAV data chunk before its fmt chunk');
      if (format.code !== 1 || format.bits !== 16) throw new Error('only 16-bit PCM WAV is supported');
      const end = Math.min(file.byteLength, body + size);
      const frames = Math.floor((end - body) / (2 * format.channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < format.channels; c++) sum += view.getInt16(body + 2 * (i * format.channels + c), true);
        samples[i] = Math.round(sum / format.channels);
      }
      return { sampleRate: format.sampleRate, samples };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  throw new Error('WAV file has no data chunk');
}
