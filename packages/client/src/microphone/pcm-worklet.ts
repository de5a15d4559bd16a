/** The processor's registered name. */
export const PCM_PROCESSOR_NAME = 'chartwright-pcm16';

export interface PcmProcessorOptions {
  /** Output rate, Hz. */
  targetRate: number;
  /** Samples per message posted to the page. */
  chunkSamples: number;
}

/** What the processor posts: 16-bit little-endian mono PCM, and its RMS level (0–1). */
export interface PcmChunkMessage {
  pcm: ArrayBuffer;
  level: number;
}

/**
 * The AudioWorklet module, loaded from a Blob URL. It is plain JavaScript in a string on purpose:
 * whatever bundler an application uses (and whatever it does to function names or code) never
 * touches it, and the worklet scope has nothing but its own globals. pcm-worklet.test.ts runs this
 * very text.
 *
 * The processor mixes its input to mono, resamples it to `targetRate` with a streaming
 * windowed-sinc filter, converts to 16-bit and posts `chunkSamples` at a time with their RMS.
 *
 * The resampler: a Blackman-windowed sinc low-pass at 0.4 × the lower rate (6.4 kHz for 16 kHz
 * output), evaluated from a polyphase table, so downsampling does not fold the band above the new
 * Nyquist frequency back into speech (naive sample dropping does). Output sample n sits at input
 * position n × down / up; past 512 phases the fractional position is rounded to the nearest of 512
 * (an error far below 16-bit noise). The delay is `half` input samples (1.6 ms at 48 kHz).
 */
export const PCM_WORKLET_SOURCE = String.raw`
'use strict';

function createResampler(inputRate, outputRate) {
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  const divisor = gcd(inputRate, outputRate);
  const up = outputRate / divisor;
  const down = inputRate / divisor;
  const phases = Math.min(up, 512);
  const cutoff = (0.4 * Math.min(inputRate, outputRate)) / inputRate;
  const half = Math.ceil(20 / (2 * cutoff));
  const width = 2 * half + 1;
  const table = new Float32Array(phases * width);
  for (let phase = 0; phase < phases; phase++) {
    const fraction = phase / phases;
    let sum = 0;
    for (let k = 0; k < width; k++) {
      const x = k - half - fraction;
      const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
      const u = x / (half + 1);
      const window = 0.42 + 0.5 * Math.cos(Math.PI * u) + 0.08 * Math.cos(2 * Math.PI * u);
      table[phase * width + k] = sinc * window;
      sum += sinc * window;
    }
    // Unity gain at 0 Hz for every phase.
    for (let k = 0; k < width; k++) table[phase * width + k] /= sum;
  }
  // history[0] is the oldest input sample still needed; it starts with half a window of silence.
  // position: the next output's input position, in 1/up samples, relative to history[0].
  let history = new Float32Array(half);
  let position = half * up;
  return (input) => {
    const joined = new Float32Array(history.length + input.length);
    joined.set(history);
    joined.set(input, history.length);
    const count = Math.max(0, Math.floor(((joined.length - half) * up - position + down - 1) / down));
    const output = new Float32Array(count);
    for (let n = 0; n < count; n++) {
      const start = Math.floor(position / up) - half;
      const phase = Math.min(phases - 1, Math.round(((position % up) / up) * phases));
      const offset = phase * width;
      let acc = 0;
      for (let k = 0; k < width; k++) acc += joined[start + k] * table[offset + k];
      output[n] = acc;
      position += down;
    }
    const consumed = Math.max(0, Math.floor(position / up) - half);
    history = joined.slice(consumed);
    position -= consumed * up;
    return output;
  };
}

class PcmProcessor extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.resample = createResampler(sampleRate, options.processorOptions.targetRate);
    this.chunkSamples = options.processorOptions.chunkSamples;
    this.chunk = new Int16Array(this.chunkSamples);
    this.filled = 0;
    this.sumOfSquares = 0;
  }

  process(inputs) {
    const channels = inputs[0] || [];
    if (channels.length === 0) return true;
    const mono = new Float32Array(channels[0].length);
    for (const channel of channels) for (let i = 0; i < mono.length; i++) mono[i] += channel[i] / channels.length;
    for (const sample of this.resample(mono)) {
      const clamped = Math.max(-1, Math.min(1, sample));
      this.sumOfSquares += clamped * clamped;
      this.chunk[this.filled++] = Math.round(clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff);
      if (this.filled === this.chunkSamples) {
        const pcm = this.chunk.buffer;
        this.port.postMessage({ pcm, level: Math.sqrt(this.sumOfSquares / this.chunkSamples) }, [pcm]);
        this.chunk = new Int16Array(this.chunkSamples);
        this.filled = 0;
        this.sumOfSquares = 0;
      }
    }
    return true;
  }
}

registerProcessor(${JSON.stringify(PCM_PROCESSOR_NAME)}, PcmProcessor);
`;
