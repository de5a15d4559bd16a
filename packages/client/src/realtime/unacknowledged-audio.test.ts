import { describe, expect, it } from 'vitest';

import { RealtimeBufferOverflowError } from './errors.js';
import { UnacknowledgedAudio } from './unacknowledged-audio.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 } as const;
/** `ms` of 16 kHz s16le mono whose bytes count up from `from`. */
const audio = (ms: number, from = 0) => Uint8Array.from({ length: ms * 32 }, (_, i) => (from + i) % 256);

describe('UnacknowledgedAudio', () => {
  it('keeps a copy of what it is given, and refuses what would pass its bound', () => {
    const buffer = new UnacknowledgedAudio(FORMAT, 1000);
    const chunk = audio(600);
    const kept = buffer.append(chunk);
    chunk.fill(0);
    expect(kept).toEqual(audio(600));
    expect(() => buffer.append(audio(500))).toThrow(RealtimeBufferOverflowError);
    expect(() => buffer.append(audio(500))).toThrow(
      expect.objectContaining({ code: 'audio_buffer_full', maxBufferedAudioMs: 1000 }),
    );
    buffer.append(audio(400));
  });

  it('drops what the service acknowledged, cutting a chunk where the ack falls, and so makes room', () => {
    const buffer = new UnacknowledgedAudio(FORMAT, 1000);
    buffer.append(audio(600));
    buffer.append(audio(400, 600 * 32));
    buffer.acknowledge(500);
    expect(buffer.after(500).map((chunk) => chunk.byteLength)).toEqual([100 * 32, 400 * 32]);
    buffer.append(audio(500));
  });

  it('hands back everything after a resume point, which may fall inside a chunk', () => {
    const buffer = new UnacknowledgedAudio(FORMAT, 10_000);
    buffer.append(audio(600));
    buffer.append(audio(400, 600 * 32));
    const resent = buffer.after(300);
    expect(resent.map((chunk) => chunk.byteLength)).toEqual([300 * 32, 400 * 32]);
    expect(resent[0]?.[0]).toBe((300 * 32) % 256);
    expect(buffer.alignment).toBe(2);
  });
});
