/**
 * A streaming voice activity detector for engines that transcribe whole utterances (the
 * OpenAI-compatible transcription endpoint): it cuts 16 kHz mono PCM into utterances of speech with
 * a little audio kept on each side. Energy-based, against a noise floor that is the quietest frame
 * of the last couple of seconds, so it works at any microphone gain and follows a room that gets
 * louder or quieter. Pure and deterministic: the same samples, however they are chunked, give the
 * same utterances; utterances never overlap and come out in stream order.
 */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

export interface VadOptions {
  sampleRate: number;
  /** Analysis frame length. */
  frameMs: number;
  /** Voiced audio in a row that starts an utterance: shorter clicks and bumps start none. */
  speechStartMs: number;
  /** Unvoiced audio in a row that ends an utterance. */
  speechEndMs: number;
  /** Audio kept before the first voiced frame, so soft word onsets are not clipped. */
  prePaddingMs: number;
  /** Audio kept after the last voiced frame (hangover), so trailing consonants are not clipped. */
  postPaddingMs: number;
  /** Longest utterance; longer speech is cut at its quietest frame within the last `cutSearchMs`. */
  maxUtteranceMs: number;
  cutSearchMs: number;
  /** A frame is voiced when it is this many dB above the noise floor… */
  thresholdDb: number;
  /** …and above this absolute level (dBFS), so near-digital silence never counts as speech. */
  minSpeechDbfs: number;
  /** The noise floor is the quietest frame within this much recent audio. */
  noiseWindowMs: number;
}

export const DEFAULT_VAD_OPTIONS: Readonly<VadOptions> = Object.freeze({
  sampleRate: RECOGNIZER_SAMPLE_RATE,
  frameMs: 10,
  speechStartMs: 80,
  speechEndMs: 400,
  prePaddingMs: 200,
  postPaddingMs: 200,
  maxUtteranceMs: 18_000,
  cutSearchMs: 1_000,
  thresholdDb: 10,
  minSpeechDbfs: -55,
  noiseWindowMs: 2_000,
});

export interface Utterance {
  /** Stream position of its first sample (samples since the stream's first). */
  startSample: number;
  samples: Int16Array;
}

interface Frame {
  startSample: number;
  samples: Int16Array;
  db: number;
}

/** The level of silence made of zeros, instead of -Infinity. */
const SILENCE_DBFS = -100;

/** Mean power of a frame in dB relative to a full-scale square wave. */
export function frameDbfs(samples: Int16Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  const power = sum / (samples.length * 32768 * 32768);
  return power > 0 ? Math.max(SILENCE_DBFS, 10 * Math.log10(power)) : SILENCE_DBFS;
}

function join(frames: readonly Frame[]): Utterance {
  const first = frames[0];
  if (first === undefined) throw new RangeError('an utterance needs at least one frame');
  const samples = new Int16Array(frames.reduce((total, frame) => total + frame.samples.length, 0));
  let offset = 0;
  for (const frame of frames) {
    samples.set(frame.samples, offset);
    offset += frame.samples.length;
  }
  return { startSample: first.startSample, samples };
}

export class VoiceActivityDetector {
  private readonly options: VadOptions;
  private readonly frameSamples: number;
  private readonly startFrames: number;
  private readonly endFrames: number;
  private readonly prePaddingFrames: number;
  private readonly postPaddingFrames: number;
  private readonly maxFrames: number;
  private readonly cutSearchFrames: number;
  private readonly noiseWindowFrames: number;

  /** Samples of an incomplete frame, waiting for the rest of it. */
  private carry = new Int16Array(0);
  /** Stream position of the next frame's first sample. */
  private position = 0;
  private frameIndex = 0;
  /** Candidates for the window minimum: increasing in index and in level. */
  private readonly noise: { index: number; db: number }[] = [];
  /** Between utterances: the recent frames a starting utterance takes as its onset and padding. */
  private lookback: Frame[] = [];
  private voicedRun = 0;
  /** The utterance in progress, if any. */
  private current: Frame[] | undefined;
  private unvoicedRun = 0;

  constructor(options: Partial<VadOptions> = {}) {
    this.options = { ...DEFAULT_VAD_OPTIONS, ...options };
    const o = this.options;
    const frames = (ms: number) => Math.round(ms / o.frameMs);
    this.frameSamples = (o.sampleRate * o.frameMs) / 1000;
    if (!Number.isInteger(this.frameSamples) || this.frameSamples <= 0) {
      throw new RangeError(`frameMs must be a whole number of samples at ${o.sampleRate} Hz`);
    }
    this.startFrames = Math.max(1, frames(o.speechStartMs));
    this.endFrames = Math.max(1, frames(o.speechEndMs));
    this.prePaddingFrames = frames(o.prePaddingMs);
    this.postPaddingFrames = Math.min(frames(o.postPaddingMs), this.endFrames);
    this.maxFrames = frames(o.maxUtteranceMs);
    this.cutSearchFrames = Math.max(1, frames(o.cutSearchMs));
    this.noiseWindowFrames = Math.max(1, frames(o.noiseWindowMs));
    if (this.maxFrames <= this.startFrames + this.prePaddingFrames) {
      throw new RangeError('maxUtteranceMs must be longer than speechStartMs + prePaddingMs');
    }
  }

  /** Feeds audio; returns the utterances it completed, in order. */
  push(pcm: Int16Array): Utterance[] {
    const completed: Utterance[] = [];
    let input: Int16Array;
    if (this.carry.length > 0) {
      input = new Int16Array(this.carry.length + pcm.length);
      input.set(this.carry);
      input.set(pcm, this.carry.length);
    } else {
      // Frames keep views of the input: copy, so the caller may reuse its buffer.
      input = pcm.slice();
    }
    let offset = 0;
    for (; offset + this.frameSamples <= input.length; offset += this.frameSamples) {
      const utterance = this.frame(input.subarray(offset, offset + this.frameSamples));
      if (utterance !== undefined) completed.push(utterance);
    }
    this.carry = input.slice(offset);
    return completed;
  }

  /**
   * The stream position before which no utterance is still to come: the start of the utterance in
   * progress, else of the recent audio a starting one would take as its onset and padding.
   */
  get openFrom(): number {
    return this.current?.[0]?.startSample ?? this.lookback[0]?.startSample ?? this.position;
  }

  /**
   * Ends the utterance in progress now (its trailing silence trimmed to the padding), or returns
   * undefined when none has started. Speech that goes on starts a new utterance.
   */
  flush(): Utterance | undefined {
    const current = this.current;
    if (current === undefined) return undefined;
    return this.close(current, current.length - Math.max(0, this.unvoicedRun - this.postPaddingFrames));
  }

  private frame(samples: Int16Array): Utterance | undefined {
    const frame: Frame = { startSample: this.position, samples, db: frameDbfs(samples) };
    this.position += samples.length;
    const voiced = this.isVoiced(frame.db);
    this.frameIndex += 1;

    const current = this.current;
    if (current === undefined) {
      this.lookback.push(frame);
      if (this.lookback.length > this.startFrames + this.prePaddingFrames) this.lookback.shift();
      this.voicedRun = voiced ? this.voicedRun + 1 : 0;
      if (this.voicedRun >= this.startFrames) {
        this.current = this.lookback.slice(-(this.voicedRun + this.prePaddingFrames));
        this.lookback = [];
        this.voicedRun = 0;
        this.unvoicedRun = 0;
      }
      return undefined;
    }

    current.push(frame);
    this.unvoicedRun = voiced ? 0 : this.unvoicedRun + 1;
    if (this.unvoicedRun >= this.endFrames) {
      return this.close(current, current.length - this.unvoicedRun + this.postPaddingFrames);
    }
    if (current.length >= this.maxFrames) return this.cut(current);
    return undefined;
  }

  /** Emits `frames[0, end)`; the rest is silence that may pad the next utterance's onset. */
  private close(frames: Frame[], end: number): Utterance | undefined {
    this.current = undefined;
    this.lookback = frames.slice(end).slice(-(this.startFrames + this.prePaddingFrames));
    this.voicedRun = 0;
    this.unvoicedRun = 0;
    return end > 0 ? join(frames.slice(0, end)) : undefined;
  }

  /** Speech too long to wait for a pause: cut after its quietest recent frame and carry on. */
  private cut(frames: Frame[]): Utterance {
    let quietest = frames.length - 1;
    for (let i = frames.length - 1; i >= Math.max(0, frames.length - this.cutSearchFrames); i--) {
      if ((frames[i]?.db ?? Infinity) < (frames[quietest]?.db ?? Infinity)) quietest = i;
    }
    const rest = frames.slice(quietest + 1);
    this.current = rest;
    this.unvoicedRun = Math.min(this.unvoicedRun, rest.length);
    return join(frames.slice(0, quietest + 1));
  }

  private isVoiced(db: number): boolean {
    const index = this.frameIndex;
    while (this.noise.length > 0 && (this.noise[this.noise.length - 1]?.db ?? -Infinity) >= db) this.noise.pop();
    this.noise.push({ index, db });
    while ((this.noise[0]?.index ?? index) <= index - this.noiseWindowFrames) this.noise.shift();
    const floor = this.noise[0]?.db ?? db;
    return db >= this.options.minSpeechDbfs && db - floor >= this.options.thresholdDb;
  }
}
