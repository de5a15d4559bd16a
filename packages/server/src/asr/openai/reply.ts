/**
 * An OpenAI-compatible transcription reply, turned into the `final` of the utterance it came from.
 * `verbose_json` carries words (with `timestamp_granularities[]=word`) and segments; plain `json`
 * carries only text, and then the final spans the utterance the detector cut.
 */
import { z } from 'zod';

import type { FinalEvent, RecognizedWord } from '../recognizer.js';

const seconds = z.number().nonnegative();

export const transcriptionSchema = z.object({
  text: z.string(),
  words: z
    .array(
      z.object({
        word: z.string(),
        start: seconds,
        end: seconds,
        // Some self-hosted servers (faster-whisper based) add each word's probability.
        probability: z.number().min(0).max(1).optional(),
      }),
    )
    .nullish(),
  segments: z
    .array(
      z.object({
        start: seconds,
        end: seconds,
        text: z.string(),
        avg_logprob: z.number().optional(),
        no_speech_prob: z.number().optional(),
      }),
    )
    .nullish(),
});

export type Transcription = z.infer<typeof transcriptionSchema>;
type Segment = NonNullable<Transcription['segments']>[number];

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

  const words: RecognizedWord[] = (reply.words ?? []).flatMap((word) => {
    const spoken = word.word.trim();
    if (spoken === '' || inDropped(word.start, word.end)) return [];
    const startMs = at(word.start);
    return [
      {
        word: spoken,
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
