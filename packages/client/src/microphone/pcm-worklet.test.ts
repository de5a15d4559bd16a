import { runInNewContext } from 'node:vm';

import { describe, expect, it } from 'vitest';

import {
  PCM_PROCESSOR_NAME,
  PCM_WORKLET_SOURCE,
  type PcmChunkMessage,
  type PcmProcessorOptions,
} from './pcm-worklet.js';

/** What the browser gives an AudioWorklet module: a processor base class with a port, and `sampleRate`. */
function loadProcessor(sampleRate: number, options: PcmProcessorOptions) {
  const posted: PcmChunkMessage[] = [];
  class AudioWorkletProcessor {
    readonly port = { postMessage: (message: PcmChunkMessage) => posted.push(message) };
  }
  let registered:
    { name: string; Processor: new (init: object) => { process(inputs: Float32Array[][]): boolean } } | undefined;
  runInNewContext(PCM_WORKLET_SOURCE, {
    sampleRate,
    AudioWorkletProcessor,
    registerProcessor: (name: string, Processor: NonNullable<typeof registered>['Processor']) => {
      registered = { name, Processor };
    },
  });
  if (registered === undefined) throw new Error('the module registered no processor');
  return { name: registered.name, processor: new registered.Processor({ processorOptions: options }), posted };
}

const tone = (hz: number, rate: number, seconds: number, amplitude = 0.5) =>
  Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate),
  );

/** Plays `channels` through the processor 128 frames at a time, as the audio thread does; returns the PCM it posted. */
function record(rate: number, channels: Float32Array[], chunkSamples = 1600) {
  const { processor, posted } = loadProcessor(rate, { targetRate: 16_000, chunkSamples });
  const length = channels[0]?.length ?? 0;
  for (let offset = 0; offset < length; offset += 128) {
    expect(processor.process([channels.map((channel) => channel.subarray(offset, offset + 128))])).toBe(true);
  }
  const chunks = posted.map((message) => new Int16Array(message.pcm));
  const pcm = new Float32Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) for (const sample of chunk) pcm[at++] = sample / 32768;
  return { pcm, posted, chunks };
}

/** Level of the middle of `samples` (the filter's start-up left out) relative to a 0.5 sine, in dB. */
function levelDb(samples: Float32Array): number {
  const middle = samples.subarray(800, samples.length - 800);
  const rms = Math.sqrt(middle.reduce((sum, sample) => sum + sample * sample, 0) / middle.length);
  return 20 * Math.log10(rms / (0.5 / Math.SQRT2));
}

describe('the PCM AudioWorklet module', () => {
  it('registers its processor under the name the helper creates it by', () => {
    expect(loadProcessor(48_000, { targetRate: 16_000, chunkSamples: 1600 }).name).toBe(PCM_PROCESSOR_NAME);
  });

  it.each([48_000, 44_100, 22_050, 8_000])('converts a 1 kHz tone from %i Hz to 16 kHz at full level', (rate) => {
    const { pcm, chunks } = record(rate, [tone(1000, rate, 1)]);
    expect(chunks.every((chunk) => chunk.length === 1600)).toBe(true);
    // A second of audio is 16 000 samples, less the filter's delay: every whole chunk but the last.
    expect(pcm.length).toBe(16_000 - 1600);
    expect(levelDb(pcm)).toBeCloseTo(0, 1);
  });

  it.each([48_000, 44_100])(
    'removes a 12 kHz tone from %i Hz instead of folding it to 4 kHz (below -60 dB)',
    (rate) => {
      expect(levelDb(record(rate, [tone(12_000, rate, 1)]).pcm)).toBeLessThan(-60);
    },
  );

  it('keeps speech frequencies: -1 dB or better up to 6 kHz', () => {
    for (const hz of [300, 2000, 4000, 6000])
      expect(levelDb(record(48_000, [tone(hz, 48_000, 1)]).pcm)).toBeGreaterThan(-1);
  });

  it('mixes two input channels to mono, and posts each chunk with its RMS level', () => {
    const left = tone(1000, 48_000, 0.5);
    const { posted, pcm } = record(48_000, [left, left.map((sample) => -sample)]);
    expect(levelDb(pcm)).toBeLessThan(-80);
    const { posted: loud } = record(48_000, [left, left], 800);
    expect(loud.at(-1)?.level).toBeCloseTo(0.5 / Math.SQRT2, 2);
    expect(posted.length).toBe(4);
  });
});
