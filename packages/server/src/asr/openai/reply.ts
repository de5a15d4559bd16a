/**
 * An OpenAI-compatible transcription reply, turned into the `final` of the utterance it came from.
 * `verbose_json` carries words (with `timestamp_granularities[]=word`) and segments; plain `json`
 * carries only text, and then the final spans the utterance the detector cut.
 *
 * Self-hosted servers shape `verbose_json` their own way, and each shape is read:
 * - OpenAI: whole words at the top level, without spaces or punctuation;
 * - speaches (faster-whisper): words at the top level and in each segment, each with its leading
 *   space and any punctuation after it, and a probability;
 * - whisper.cpp's server: no top-level words; each segment's `words` are Whisper's tokens, a space
 *   opening each new word (" met", "formin", ","), with a probability;
 * - vLLM: segments without words, or (older versions) no `verbose_json` at all (see transcriber.ts).
 * A final's words are spoken words, as PocketSphinx gives them: pieces are joined into words and
 * punctuation is left to the text.
 */
import { z } from 'zod';

import type { FinalEvent, RecognizedWord } from '../recognizer.js';

const seconds = z.number().nonnegative();

const wordSchema = z.object({
  word: z.string(),
  start: seconds,
  end: seconds,
  // Self-hosted servers (faster-whisper based, whisper.cpp) add each word's probability.
  probability: z.number().min(0).max(1).optional(),
});
type Piece = z.infer<typeof wordSchema>;

export const transcriptionSchema = z.object({
  text: z.string(),
  words: z.array(wordSchema).nullish(),
  segments: z
    .array(
      z.object({
        start: seconds,
        end: seconds,
        text: z.string(),
        avg_logprob: z.number().optional(),
        no_speech_prob: z.number().optional(),
        words: z.array(wordSchema).nullish(),
      }),
    )
    .nullish(),
});

export type Transcription = z.infer<typeof transcriptionSchema>;
type Segment = NonNullable<Transcription['segments']>[number];

const opensWord = (piece: Piece) => /^\s/.test(piece.word);

/**
 * Whole words from the reply's pieces. When the server marks where words begin with a space
 * (whisper.cpp's tokens), a piece without one continues the word before it: its time extends the
 * word, and the word is only as probable as its least probable piece.
 */
function wholeWords(pieces: readonly Piece[]): Piece[] {
  if (!pieces.slice(1).some(opensWord)) return [...pieces];
  const words: Piece[] = [];
  for (const piece of pieces) {
    const last = words.at(-1);
    if (last === undefined || opensWord(piece)) {
      words.push({ ...piece });
      continue;
    }
    last.word += piece.word;
    last.end = Math.max(last.end, piece.end);
    if (piece.probability !== undefined) {
      last.probability = Math.min(last.probability ?? piece.probability, piece.probability);
    }
  }
  return words;
}

/** The spoken word: no surrounding spaces or punctuation (an apostrophe inside or before it stays). */
const spoken = (word: string) => word.trim().replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');

/**
 * Whisper's own rule (its `no_speech_threshold` and `logprob_threshold`) for a segment it wrote
 * over silence or noise — the "Thank you." it hallucinates — which its API returns anyway.
 */
function hallucinated(segment: Segment): boolean {
  return (segment.no_speech_prob ?? 0) > 0.6 && (segment.avg_logprob ?? 0) < -1;
}

const tidy = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Where the utterance sits on the stream's clock. */
export interface UtteranceSpan {
  offsetMs: number;
  durationMs: number;
}

/** The utterance's `final`, or undefined when the reply holds no speech. */
export function finalOf(reply: Transcription, span: UtteranceSpan): FinalEvent | undefined {
  // Reply times are seconds into the utterance's file; servers may overshoot its end slightly.
  const at = (time: number) => span.offsetMs + Math.round(Math.min(time * 1000, span.durationMs));
  const segments = reply.segments ?? [];
  const dropped = segments.filter(hallucinated);
  const kept = segments.filter((segment) => !hallucinated(segment));
  const inDropped = (start: number, end: number) =>
    dropped.some((segment) => (start + end) / 2 >= segment.start && (start + end) / 2 <= segment.end);

  const text = tidy(dropped.length === 0 ? reply.text : kept.map((segment) => segment.text).join(' '));
  if (text === '') return undefined;

  const pieces = (reply.words ?? []).length > 0 ? (reply.words ?? []) : kept.flatMap((segment) => segment.words ?? []);
  const words: RecognizedWord[] = wholeWords(pieces).flatMap((word) => {
    const spelled = spoken(word.word);
    if (spelled === '' || inDropped(word.start, word.end)) return [];
    const startMs = at(word.start);
    return [
      {
        word: spelled,
        startMs,
        endMs: Math.max(startMs, at(word.end)),
        ...(word.probability === undefined ? {} : { confidence: word.probability }),
      },
    ];
  });

  const timed =
    words.length > 0 ? words : kept.map((segment) => ({ startMs: at(segment.start), endMs: at(segment.end) }));
  const startMs = timed[0]?.startMs ?? span.offsetMs;
  const endMs = Math.max(startMs, timed.at(-1)?.endMs ?? span.offsetMs + Math.round(span.durationMs));
  return { text, startMs, endMs, ...(words.length > 0 ? { words } : {}) };
}
