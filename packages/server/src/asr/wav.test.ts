import { describe, expect, it } from 'vitest';

import { encodeWav, parseWav } from './wav.js';

function wav(channels: number, rate: number, samples: number[], bits = 16): Uint8Array {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(s, i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

describe('parseWav', () => {
  it('reads mono 16-bit PCM', () => {
    const audio = parseWav(wav(1, 8000, [1, -2, 300]));
    expect(audio.sampleRate).toBe(8000);
    expect(audio.channels).toBe(1);
    expect(Array.from(audio.samples)).toEqual([1, -2, 300]);
  });

  it('averages stereo to mono and says the file had two channels', () => {
    const audio = parseWav(wav(2, 16000, [100, 200, -10, -20]));
    expect(Array.from(audio.samples)).toEqual([150, -15]);
    expect(audio.channels).toBe(2);
  });

  it('refuses what it cannot read', () => {
    expect(() => parseWav(new Uint8Array(4))).toThrow(/RIFF/);
    expect(() => parseWav(wav(1, 8000, [1], 8))).toThrow(/16-bit/);
  });
});

describe('encodeWav', () => {
  it('writes the canonical 44-byte header that parseWav and other readers take', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
    const file = encodeWav(samples, 16000);
    expect(file.byteLength).toBe(44 + samples.length * 2);
    expect(Buffer.from(file).equals(Buffer.from(wav(1, 16000, Array.from(samples))))).toBe(true);
    const audio = parseWav(file);
    expect(audio.sampleRate).toBe(16000);
    expect(Array.from(audio.samples)).toEqual(Array.from(samples));
  });
});
