/**
 * One stream of the OpenAI-compatible engine: the voice activity detector cuts utterances, each is
 * transcribed as soon as it is cut (several may be in flight), and their finals are emitted in
 * utterance order whatever order the replies come back in. No partials: the endpoint transcribes
 * whole files, and posting the growing utterance again and again would multiply the cost.
 *
 * Audio is committed (recognizer.ts) up to the oldest utterance whose final is not emitted yet, or
 * while none is waiting, up to where the detector could still start one.
 *
 * Bounded: utterances cut but not yet transcribed may hold at most `maxPendingSamples`; past it the
 * stream fails as `recognizer_overloaded` rather than queue without limit. A failed transcription
 * stops the stream taking audio at once; its error is emitted after the finals of the utterances
 * before it.
 */
import type { StreamDiarizer } from '../diarization/diarization-thread-client.js';
import { RecognizerEmitter } from '../emitter.js';
import type { RecognizerErrorCode, RecognizerStream } from '../recognizer.js';
import { VoiceActivityDetector, type Utterance, type VadOptions } from '../vad.js';
import { TranscriptionFailure } from './http.js';
import { finalOf, type Transcription } from './reply.js';
import type { Transcriber } from './transcriber.js';

export interface OpenAiStreamOptions {
  sampleRate: number;
  /** ISO 639-1, from the realtime session's BCP 47 tag. */
  language: string | undefined;
  /** Whisper's way to bias vocabulary: the hints, as text the model continues from. */
  prompt: string | undefined;
  maxPendingSamples: number;
  vad: Partial<VadOptions>;
  /** One microphone, several people: labels each final with its voice and role; null otherwise. */
  diarizer: StreamDiarizer | null;
}

type Outcome = { ok: true; reply: Transcription } | { ok: false; code: RecognizerErrorCode; message: string };

export class OpenAiStream extends RecognizerEmitter implements RecognizerStream {
  private readonly vad: VoiceActivityDetector;
  /** Aborts every request of this stream once it has failed or its engine closed. */
  private readonly abort = new AbortController();
  private accepting = true;
  private ending = false;
  private done = false;
  private pendingSamples = 0;
  /** Stream positions where the utterances cut but not yet emitted begin, oldest first. */
  private readonly waiting: number[] = [];
  private committed = 0;
  /** The chain that emits each utterance's outcome in utterance order. */
  private emitted: Promise<void> = Promise.resolve();
  private readonly settled: Promise<void>;
  private settle!: () => void;

  constructor(
    private readonly transcriber: Transcriber,
    private readonly options: OpenAiStreamOptions,
    private readonly onDone: (stream: OpenAiStream) => void,
  ) {
    super();
    this.vad = new VoiceActivityDetector({ ...options.vad, sampleRate: options.sampleRate });
    this.settled = new Promise((resolve) => (this.settle = resolve));
  }

  write(pcm: Int16Array): void {
    if (!this.accepting || pcm.length === 0) return;
    this.options.diarizer?.write(pcm);
    for (const utterance of this.vad.push(pcm)) this.submit(utterance);
    this.commit();
  }

  finalize(): void {
    if (!this.accepting) return;
    const utterance = this.vad.flush();
    if (utterance !== undefined) this.submit(utterance);
  }

  end(): Promise<void> {
    if (!this.ending && !this.done) {
      this.finalize();
      this.ending = true;
      this.accepting = false;
      void this.emitted.then(() => this.finish());
    }
    return this.settled;
  }

  /** Ends the stream with a coded error event now (overload, engine closed). */
  fail(code: RecognizerErrorCode, message: string): void {
    if (this.done) return;
    this.finish();
    this.abort.abort();
    this.emit('error', { code, message });
  }

  private submit(utterance: Utterance): void {
    const samples = utterance.samples.length;
    if (this.pendingSamples + samples > this.options.maxPendingSamples) {
      this.fail('recognizer_overloaded', 'audio is arriving faster than the transcription server transcribes it');
      return;
    }
    this.pendingSamples += samples;
    this.waiting.push(utterance.startSample);
    const outcome = this.transcribe(utterance);
    this.emitted = this.emitted.then(async () => {
      const result = await outcome;
      this.pendingSamples -= samples;
      this.waiting.shift();
      if (this.done) return;
      if (!result.ok) {
        this.fail(result.code, result.message);
        return;
      }
      const final = finalOf(result.reply, {
        offsetMs: (utterance.startSample * 1000) / this.options.sampleRate,
        durationMs: (samples * 1000) / this.options.sampleRate,
      });
      if (final === undefined) {
        this.commit();
        return;
      }
      const attribution = (await this.options.diarizer?.attribute(final)) ?? null;
      // The stream may have failed while the voice was being told.
      if (this.isDone()) return;
      this.emit('final', attribution === null ? final : { ...final, ...attribution });
      this.commit();
    });
  }

  /** Emits how far the audio is committed, when that moved on. */
  private commit(): void {
    if (!this.accepting) return;
    const committed = Math.min(this.waiting[0] ?? Infinity, this.vad.openFrom);
    if (committed <= this.committed) return;
    this.committed = committed;
    this.emit('committed', { ms: (committed * 1000) / this.options.sampleRate });
  }

  private async transcribe(utterance: Utterance): Promise<Outcome> {
    try {
      const reply = await this.transcriber.transcribe(
        {
          samples: utterance.samples,
          sampleRate: this.options.sampleRate,
          language: this.options.language,
          prompt: this.options.prompt,
        },
        this.abort.signal,
      );
      return { ok: true, reply };
    } catch (error) {
      this.accepting = false;
      if (error instanceof TranscriptionFailure) return { ok: false, code: error.code, message: error.message };
      // Only an abort gets here in practice (the stream already failed); report it as a failure anyway.
      return { ok: false, code: 'recognizer_failed', message: 'the transcription request failed' };
    }
  }

  /** Read through a call: `done` changes between the awaits of the emitting chain. */
  private isDone(): boolean {
    return this.done;
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.accepting = false;
    this.options.diarizer?.close();
    this.onDone(this);
    this.settle();
  }
}
