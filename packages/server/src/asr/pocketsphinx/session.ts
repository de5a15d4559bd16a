/**
 * Turns one decoder's continuous audio into utterances. PocketSphinx's voice activity detector
 * says when speech starts and stops (it ends speech ~0.5 s after the voice does); an utterance
 * ends at that transition, on `finalize`, at stream end, or when it has run `maxUtteranceSamples`
 * (a long utterance delays its final and costs more to end). Runs inside a worker process.
 */
import type { FinalEvent, RecognizedWord } from '../recognizer.js';
import type { Decoder } from './native.js';

export type SessionEvent = { type: 'partial'; text: string } | ({ type: 'final' } & FinalEvent);

/** The decoder calls a session makes; a fake stands in for the library in unit tests. */
export type SessionDecoder = Pick<
  Decoder,
  'startUtterance' | 'endUtterance' | 'process' | 'inSpeech' | 'hypothesis' | 'segments' | 'probability'
>;

export interface SessionOptions {
  partialIntervalSamples: number;
  maxUtteranceSamples: number;
}

const SAMPLES_PER_FRAME = 160; // 100 frames per second at 16 kHz
const MS_PER_FRAME = 10;

export class DecoderSession {
  /** Samples written since the stream began. */
  private samples = 0;
  private speaking = false;
  /** Where the current speech began (stream samples), for the utterance cut. */
  private speechStart = 0;
  private lastPartialAt = 0;
  private lastPartial = '';

  constructor(
    private readonly decoder: SessionDecoder,
    private readonly options: SessionOptions,
  ) {
    decoder.startUtterance();
  }

  write(pcm: Int16Array): SessionEvent[] {
    const events: SessionEvent[] = [];
    this.decoder.process(pcm);
    this.samples += pcm.length;
    const inSpeech = this.decoder.inSpeech();
    if (inSpeech && !this.speaking) {
      this.speaking = true;
      this.speechStart = this.samples - pcm.length;
      this.lastPartialAt = this.samples;
    } else if (!inSpeech && this.speaking) {
      return this.cut();
    }
    if (!this.speaking) return events;
    if (this.samples - this.speechStart >= this.options.maxUtteranceSamples) return this.cut();
    if (this.samples - this.lastPartialAt >= this.options.partialIntervalSamples) {
      this.lastPartialAt = this.samples;
      const text = this.decoder.hypothesis();
      // Unchanged hypotheses are noise to the client; empty ones say nothing yet.
      if (text !== '' && text !== this.lastPartial) {
        this.lastPartial = text;
        events.push({ type: 'partial', text });
      }
    }
    return events;
  }

  /** Ends the current utterance now, whether or not the detector thinks speech stopped. */
  finalize(): SessionEvent[] {
    return this.cut();
  }

  /** Ends the last utterance; the session must not be used afterwards. */
  end(): SessionEvent[] {
    this.decoder.endUtterance();
    return this.finalEvent();
  }

  private cut(): SessionEvent[] {
    this.decoder.endUtterance();
    const events = this.finalEvent();
    this.decoder.startUtterance();
    return events;
  }

  private finalEvent(): SessionEvent[] {
    this.speaking = false;
    this.lastPartial = '';
    const text = this.decoder.hypothesis().trim();
    if (text === '') return [];
    const words: RecognizedWord[] = [];
    for (const segment of this.decoder.segments()) {
      // Fillers (<s>, </s>, <sil>, [NOISE]) carry no words; "(2)" marks an alternate pronunciation.
      if (segment.word.startsWith('<') || segment.word.startsWith('[')) continue;
      const word: RecognizedWord = {
        word: segment.word.replace(/\(\d+\)$/, ''),
        startMs: segment.startFrame * MS_PER_FRAME,
        endMs: (segment.endFrame + 1) * MS_PER_FRAME,
      };
      // With the second pass off the decoder computes no posteriors and reports 0 (log 1).
      if (segment.logProbability !== 0) word.confidence = this.decoder.probability(segment.logProbability);
      words.push(word);
    }
    const first = words[0];
    const last = words[words.length - 1];
    const fallbackEnd = Math.round((this.samples / SAMPLES_PER_FRAME) * MS_PER_FRAME);
    return [
      {
        type: 'final',
        text,
        startMs: first?.startMs ?? Math.round((this.speechStart / SAMPLES_PER_FRAME) * MS_PER_FRAME),
        endMs: last?.endMs ?? fallbackEnd,
        ...(words.length > 0 ? { words } : {}),
      },
    ];
  }
}
