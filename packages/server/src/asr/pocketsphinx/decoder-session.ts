/**
 * Turns one decoder's continuous audio into utterances. PocketSphinx's voice activity detector
 * says when speech starts and stops (it ends speech ~0.3 s after the voice does, as configured); an
 * utterance ends at that transition, when the search itself has heard as long a silence after the
 * last word (`END_OF_SPEECH_FRAMES`), on `finalize`, at stream end, or when it has run
 * `maxUtteranceSamples` (a long utterance delays its final and costs more to end). Runs inside a
 * worker process.
 *
 * A long utterance is not cut where the clock says: that would split a word, and both halves would
 * come out as look-alikes. The decoder ends the utterance, the final keeps the words up to a word
 * boundary well before the end (a pause if there is one), and the audio after that boundary is
 * decoded again as the start of the next utterance.
 */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

import { isFilledPause, isHeardForFilledPause } from '../filled-pauses.js';
import { concatPcm } from '../pcm.js';
import type { FinalEvent, RecognizedWord } from '../recognizer.js';
import type { Decoder, Segment } from './native.js';
import { TrailingQuiet } from './trailing-quiet.js';

export type DecoderSessionEvent = { type: 'partial'; text: string } | ({ type: 'final' } & FinalEvent);

/** The decoder calls a decoder session makes; a fake stands in for the library in unit tests. */
export type DecoderCalls = Pick<
  Decoder,
  | 'startUtterance'
  | 'endUtterance'
  | 'process'
  | 'inSpeech'
  | 'hypothesis'
  | 'segments'
  | 'probability'
  | 'cepstralMean'
  | 'setCepstralMean'
>;

export interface DecoderSessionOptions {
  partialIntervalSamples: number;
  maxUtteranceSamples: number;
  /**
   * The stream starts cold (no mean carried from its own earlier audio): its first utterance, heard
   * against a prior, is decoded again normalised by its own mean before its final goes out (on the
   * development set's real recordings, a sixth fewer word errors on read sentences and most of them
   * on short commands; docs/realtime.md, "Cepstral normalisation").
   */
  decodeFirstWhole: boolean;
}

const MS_PER_FRAME = 10;
const SAMPLES_PER_FRAME = (RECOGNIZER_SAMPLE_RATE * MS_PER_FRAME) / 1000;

/**
 * How long a silence ends an utterance: the detector's wait (config.ts passes it as
 * `-vad_postspeech`), and the same length of silence or noise the search places after the last
 * word. The detector judges by energy, so breath, room noise and a line's hiss after the last word
 * kept an utterance open until they stopped — 0.3–0.4 s more on some real recordings, and those
 * finals set the latency's tail (docs/performance.md, "Where the final latency goes").
 */
export const END_OF_SPEECH_FRAMES = 30;

/**
 * Where a long utterance may be cut, in frames before its end: the last words of a hypothesis are
 * guesses until the audio after them arrives, so none of the final `HOLDBACK` is kept, and at most
 * `REDECODE_LIMIT` is decoded twice (about a fifth of an 18 s utterance at worst).
 */
const HOLDBACK_FRAMES = 60;
const REDECODE_LIMIT_FRAMES = 400;
/**
 * Audio kept before a cold stream's first speech for its second decode: more than the detector's
 * pre-speech window (0.2 s), so a stream silent for minutes before anyone speaks holds no more.
 */
const LEAD_IN_FRAMES = 100;
/** A silence this long inside the search window is a better cut than any word boundary. */
const MIN_PAUSE_FRAMES = 5;

export class DecoderSession {
  /** Samples written since the stream began. */
  private samples = 0;
  /**
   * Frames the decoder has been fed twice (audio decoded again after a long utterance's cut). The
   * decoder numbers frames from its first sample, so its numbers run ahead of the stream's by this.
   */
  private redecodedFrames = 0;
  /**
   * The stream frame where the current utterance's audio begins, when it begins with audio decoded
   * again. Its frame numbers are then off by up to the detector's pre-speech window (the detector,
   * restarted with the utterance, numbers speech as if a full window of audio came before it), so
   * they are read from the utterance's first segment, which starts at its first frame.
   */
  private anchorFrame: number | null = null;
  private speaking = false;
  /** Where the current speech began (stream samples), for the utterance cut. */
  private speechStart = 0;
  private lastPartialAt = 0;
  private lastPartial = '';
  /** Gates the search's silence (END_OF_SPEECH_FRAMES): the audio must have gone quiet too. */
  private readonly trailingQuiet = new TrailingQuiet();
  /** The current utterance's most recent audio (at least REDECODE_LIMIT), for a cut's second decode. */
  private recent: Int16Array[] = [];
  private recentSamples = 0;
  /** All of the first utterance's audio while it may still be decoded again; null after. */
  private firstUtterance: Int16Array[] | null;

  constructor(
    private readonly decoder: DecoderCalls,
    private readonly options: DecoderSessionOptions,
  ) {
    this.firstUtterance = options.decodeFirstWhole ? [] : null;
    decoder.startUtterance();
  }

  write(pcm: Int16Array): DecoderSessionEvent[] {
    const events: DecoderSessionEvent[] = [];
    this.decoder.process(pcm);
    this.samples += pcm.length;
    this.remember(pcm);
    this.firstUtterance?.push(pcm);
    const inSpeech = this.decoder.inSpeech();
    if (inSpeech && !this.speaking) {
      this.speaking = true;
      this.speechStart = this.samples - pcm.length;
      this.lastPartialAt = this.samples;
      // Levels heard since the utterance started are silence before this speech.
      this.trailingQuiet.reset();
    } else if (!inSpeech && this.speaking) {
      return this.cut();
    }
    if (!this.speaking) {
      this.keepOnlyLeadIn();
      return events;
    }
    this.trailingQuiet.hear(pcm);
    if (this.samples - this.speechStart >= this.options.maxUtteranceSamples) return this.cutLong();
    // Cut in that silence: the best path lags the audio by about a dozen frames, which may hold the
    // next word's start, so the audio from the middle of the silence on opens the next utterance.
    if (this.mayEndAtSilence() && this.heardSilenceAfterWords()) return this.cutAtPause(0);
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

  /**
   * Not in a cold stream's first utterance: heard against a prior rather than the speaker's own
   * mean, the search takes the start of a word for silence now and then ("go forward | ten meters"
   * split in a loud recording), and the whole decode after it needs the utterance whole.
   */
  private mayEndAtSilence(): boolean {
    // Quiet is counted from the speech's start, so it also says the speech has run that long.
    return this.firstUtterance === null && this.trailingQuiet.frames >= END_OF_SPEECH_FRAMES;
  }

  /**
   * The search's best path so far ends in END_OF_SPEECH_FRAMES of non-words after its last word:
   * the sentence end, silence, noise or a filled pause. While someone speaks, the path ends in a
   * word (often a short one the sound so far matches: "for" on the way to "forward").
   */
  private heardSilenceAfterWords(): boolean {
    const segments = this.decoder.segments();
    const last = segments[segments.length - 1];
    const lastWord = segments.findLast(isWord);
    return last !== undefined && lastWord !== undefined && last.endFrame - lastWord.endFrame >= END_OF_SPEECH_FRAMES;
  }

  /** Ends the current utterance now, whether or not the detector thinks speech stopped. */
  finalize(): DecoderSessionEvent[] {
    return this.cut();
  }

  /** Ends the last utterance; the decoder session must not be used afterwards. */
  end(): DecoderSessionEvent[] {
    this.decoder.endUtterance();
    return this.endedUtterance();
  }

  private cut(): DecoderSessionEvent[] {
    this.decoder.endUtterance();
    const events = this.endedUtterance();
    this.startUtterance();
    return events;
  }

  /**
   * The final of the utterance just ended; for the cold first one, from its audio decoded again
   * against the mean it left (the library's running mean, which a cold stream's first utterance
   * sets on its own).
   */
  private endedUtterance(): DecoderSessionEvent[] {
    const streamed = this.decoder.segments();
    const audio = this.firstUtterance;
    this.firstUtterance = null;
    const mean = audio === null ? null : this.decoder.cepstralMean();
    const firstWord = streamed.find(isWord);
    if (audio === null || mean === null || firstWord === undefined) return this.finalEvent(streamed);
    const offset = this.frameOffset(streamed);
    const pcm = concatPcm(audio);
    this.decoder.setCepstralMean(mean, true);
    this.decoder.startUtterance();
    this.decoder.process(pcm);
    this.decoder.endUtterance();
    this.redecodedFrames += pcm.length / SAMPLES_PER_FRAME;
    const again = this.decoder.segments();
    // The detector, restarted, drops the silence before the speech, so the second decode's frames
    // are numbered from elsewhere: both heard the speech begin at the same moment.
    const againFirst = again.find(isWord);
    if (againFirst === undefined) return this.finalEvent(streamed, offset);
    return this.finalEvent(again, offset + againFirst.startFrame - firstWord.startFrame);
  }

  /**
   * Ends an utterance that ran too long at a word boundary (see the module comment): the words
   * after it are decoded again, with the audio that follows them, in the next utterance.
   */
  private cutLong(): DecoderSessionEvent[] {
    // Decoding a long utterance again would make its final later by a second or more; the
    // library's own running mean has moved during it anyway.
    this.firstUtterance = null;
    return this.cutAtPause(HOLDBACK_FRAMES);
  }

  /**
   * Ends the utterance at a pause (else a word boundary) no later than `holdbackFrames` before the
   * audio's end, and decodes the audio after that point again in the next utterance.
   */
  private cutAtPause(holdbackFrames: number): DecoderSessionEvent[] {
    this.decoder.endUtterance();
    const segments = this.decoder.segments();
    const offset = this.frameOffset(segments);
    const endFrame = Math.floor(this.samples / SAMPLES_PER_FRAME) + offset;
    const redecodable = Math.min(REDECODE_LIMIT_FRAMES, Math.floor(this.recentSamples / SAMPLES_PER_FRAME));
    const boundary = cutFrame(segments, endFrame - redecodable, endFrame - holdbackFrames);
    if (boundary === null) {
      const events = this.finalEvent(segments);
      this.startUtterance();
      return events;
    }
    const events = this.finalEvent(segments.filter((segment) => segment.endFrame < boundary));
    const frames = endFrame - boundary;
    const from = this.samples - frames * SAMPLES_PER_FRAME;
    const again = this.recentFrom(from);
    this.startUtterance();
    this.redecodedFrames += frames;
    // Audio decoded again from a pause in a long utterance opens with speech, whose frames the
    // restarted detector numbers from elsewhere (see anchorFrame); audio from the middle of the
    // silence that ended an utterance opens with silence, numbered as ever, so the count of frames
    // fed twice holds (anchored, the next final's times came out 1.1 s early).
    const opensWithSpeech = holdbackFrames > 0;
    if (opensWithSpeech) this.anchorFrame = from / SAMPLES_PER_FRAME;
    this.decoder.process(again);
    this.remember(again);
    // The detector restarts with the utterance: the speech it hears again starts the next one.
    if (this.decoder.inSpeech()) {
      this.speaking = true;
      this.speechStart = from;
      this.lastPartialAt = this.samples;
    }
    return events;
  }

  private startUtterance(): void {
    this.decoder.startUtterance();
    this.anchorFrame = null;
    this.trailingQuiet.reset();
    this.recent = [];
    this.recentSamples = 0;
  }

  /** How far the decoder's frame numbers run ahead of the stream's in the current utterance. */
  private frameOffset(segments: readonly Segment[]): number {
    const first = segments[0];
    return this.anchorFrame !== null && first !== undefined
      ? first.startFrame - this.anchorFrame
      : this.redecodedFrames;
  }

  /** Before anyone speaks, the first utterance needs only the audio just before the speech. */
  private keepOnlyLeadIn(): void {
    const audio = this.firstUtterance;
    if (audio === null) return;
    let samples = audio.reduce((total, chunk) => total + chunk.length, 0);
    while (audio.length > 1 && samples - (audio[0]?.length ?? 0) >= LEAD_IN_FRAMES * SAMPLES_PER_FRAME) {
      samples -= audio.shift()?.length ?? 0;
    }
  }

  private remember(pcm: Int16Array): void {
    this.recent.push(pcm);
    this.recentSamples += pcm.length;
    const limit = REDECODE_LIMIT_FRAMES * SAMPLES_PER_FRAME;
    while (this.recentSamples - (this.recent[0]?.length ?? 0) >= limit) {
      this.recentSamples -= this.recent.shift()?.length ?? 0;
    }
  }

  /** The remembered audio from stream sample `from` (no earlier than the oldest remembered) to now. */
  private recentFrom(from: number): Int16Array {
    const out = new Int16Array(this.samples - from);
    // Where the oldest remembered chunk lands in `out` (negative: it starts before `from`).
    let offset = this.samples - this.recentSamples - from;
    for (const chunk of this.recent) {
      const start = Math.max(0, -offset);
      if (start < chunk.length) out.set(chunk.subarray(start), offset + start);
      offset += chunk.length;
    }
    return out;
  }

  private finalEvent(segments: readonly Segment[], offset = this.frameOffset(segments)): DecoderSessionEvent[] {
    this.speaking = false;
    this.lastPartial = '';
    const streamMs = (frame: number): number => Math.round((frame - offset) * MS_PER_FRAME);
    const words: RecognizedWord[] = [];
    for (const segment of segments) {
      // Fillers (<s>, </s>, <sil>, [NOISE]) and filled pauses (um, and a "but" the search is unsure
      // of: filled-pauses.ts) carry no words.
      if (!isWord(segment)) continue;
      // The posterior from the best-path pass (config.ts), which always runs.
      const confidence = this.decoder.probability(segment.logProbability);
      const word = spelling(segment);
      if (isHeardForFilledPause(word, confidence)) continue;
      words.push({ word, startMs: streamMs(segment.startFrame), endMs: streamMs(segment.endFrame + 1), confidence });
    }
    const first = words[0];
    const last = words[words.length - 1];
    if (first === undefined || last === undefined) return [];
    const cepstralMean = this.decoder.cepstralMean();
    return [
      {
        type: 'final',
        text: words.map((word) => word.word).join(' '),
        startMs: first.startMs,
        endMs: last.endMs,
        words,
        ...(cepstralMean === null ? {} : { cepstralMean }),
      },
    ];
  }
}

/** The word without the "(2)" that marks an alternate pronunciation. */
function spelling(segment: Segment): string {
  return segment.word.replace(/\(\d+\)$/, '');
}

function isWord(segment: Segment): boolean {
  return !segment.word.startsWith('<') && !segment.word.startsWith('[') && !isFilledPause(spelling(segment));
}

/**
 * The decoder frame at which to cut an utterance, searching the frames between `earliest` and
 * `latest`: the middle of the last pause there, else the end of the last word there; null when
 * neither lies in that window (one very long word, or no words at all). Only a cut after the first
 * word makes progress, so a pause before it never counts.
 */
export function cutFrame(segments: readonly Segment[], earliest: number, latest: number): number | null {
  const firstWord = segments.find(isWord);
  if (firstWord === undefined) return null;
  const from = Math.max(earliest, firstWord.endFrame + 1);
  let wordEnd: number | null = null;
  for (const segment of [...segments].reverse()) {
    if (segment.endFrame + 1 < from) break;
    if (isWord(segment)) {
      const end = segment.endFrame + 1;
      if (wordEnd === null && end >= from && end <= latest) wordEnd = end;
      continue;
    }
    if (segment.endFrame - segment.startFrame + 1 < MIN_PAUSE_FRAMES) continue;
    const middle = Math.floor((segment.startFrame + segment.endFrame + 1) / 2);
    if (middle >= from && middle <= latest) return middle;
  }
  return wordEnd;
}
