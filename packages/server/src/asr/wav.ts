/**
 * RIFF/WAVE with 16-bit PCM, both ways: reading what flite and most recorders write into mono
 * samples (other encodings are refused rather than guessed at), and writing mono samples for
 * engines that take files (the OpenAI-compatible transcription endpoint).
 */
export interface WavAudio {
  sampleRate: number;
  /** Channels in the file, for a caller that must refuse what averaging would hide. */
  channels: number;
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
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  throw new Error('WAV file has no data chunk');
}

const WAV_HEADER_BYTES = 44;

/** A canonical 44-byte-header WAV file of mono 16-bit little-endian PCM. */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const dataBytes = samples.length * 2;
  const file = new Uint8Array(WAV_HEADER_BYTES + dataBytes);
  const view = new DataView(file.buffer);
  const tag = (offset: number, text: string) => {
    for (let i = 0; i < 4; i++) file[offset + i] = text.charCodeAt(i);
  };
  tag(0, 'RIFF');
  view.setUint32(4, WAV_HEADER_BYTES - 8 + dataBytes, true);
  tag(8, 'WAVE');
  tag(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  tag(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(WAV_HEADER_BYTES + 2 * i, samples[i] ?? 0, true);
  return file;
}
