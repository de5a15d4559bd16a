import { z } from 'zod';

import { CLINICAL_WEIGHTS, displayTokenSchema, transcriptSegmentOriginalSchema } from '../realtime/messages.js';
import { componentRegistry } from './registry.js';

/**
 * A visit given as the recognizer heard it: the segments of the realtime `final` events, sent
 * instead of `conversation_text` (REST) or `conversationText` (widget), so a note knows which words
 * the recognizer was unsure of.
 */

/** What a note request may carry as segments. */
export const NOTE_SEGMENT_LIMITS = Object.freeze({
  /** Segments in one request: a realtime segment is an utterance of a few seconds; four hours fit. */
  maxSegments: 10_000,
  /** Recognizer words over all segments, about as many as MAX_CONVERSATION_CHARACTERS holds. */
  maxWords: 60_000,
} as const);

/**
 * Who said a segment. The realtime service names `clinician`, `patient` or `unknown`; `other` (a
 * companion, an interpreter) is accepted from recognizers that tell them apart.
 */
export const NOTE_SEGMENT_SPEAKERS = ['clinician', 'patient', 'other', 'unknown'] as const;
export type NoteSegmentSpeaker = (typeof NOTE_SEGMENT_SPEAKERS)[number];

const noteSegmentWordSchema = z.strictObject({
  word: z.string(),
  startMs: z.number().optional(),
  endMs: z.number().optional(),
  confidence: z.number().min(0).max(1).optional().describe('0–1; absent when the recognizer gives none.'),
  review: z.enum(CLINICAL_WEIGHTS).optional().describe('The realtime word’s `review`; ignored (confidence decides).'),
});

export const noteSegmentSchema = z
  .strictObject({
    id: z.string().optional().describe('The realtime segment id; ignored.'),
    text: z
      .string()
      .describe(
        'What was said; segments with only spaces are skipped. Text without punctuation is read in its display form: each segment ends a sentence (unless it was cut where no sentence can end, after a word such as “the”, “and” or “think”: then it runs on into the same speaker’s next segment), and the sentences inside it end where they most probably did.',
      ),
    startMs: z.number().optional(),
    endMs: z.number().optional(),
    channel: z.int().min(0).optional(),
    speaker: z
      .enum(NOTE_SEGMENT_SPEAKERS)
      .optional()
      .describe('Default `unknown`. Adjacent segments of one known speaker form one conversation turn.'),
    words: z
      .array(noteSegmentWordSchema)
      .optional()
      .describe('The recognizer’s words with their confidence; low-confidence clinical words are flagged.'),
    // A `final` segment is accepted as it arrived: what is only for reading it is ignored.
    display: z.string().optional().describe('Ignored: the note reads `text`, and derives its display form itself.'),
    displayTokens: z.array(displayTokenSchema).optional().describe('Ignored.'),
    speakerLabel: z.string().optional().describe('Ignored: `speaker` says who spoke.'),
    revision: z.int().min(1).optional().describe('Ignored: `text` and `speaker` are the corrected ones.'),
    original: transcriptSegmentOriginalSchema.optional().describe('Ignored.'),
  })
  .register(componentRegistry, { id: 'NoteSegment' });
export type NoteSegment = z.output<typeof noteSegmentSchema>;
export type NoteSegmentInput = z.input<typeof noteSegmentSchema>;

/** The `segments` body field: the realtime `final` events' segments, in the order they were spoken. */
export const noteSegmentsSchema = z
  .array(noteSegmentSchema)
  .min(1)
  .max(NOTE_SEGMENT_LIMITS.maxSegments)
  .superRefine((segments, context) => {
    const words = segments.reduce((total, segment) => total + (segment.words?.length ?? 0), 0);
    if (words > NOTE_SEGMENT_LIMITS.maxWords) {
      context.addIssue({
        code: 'custom',
        message: `must have at most ${NOTE_SEGMENT_LIMITS.maxWords} words in all; these have ${words}`,
      });
    }
    if (segments.every((segment) => segment.text.trim() === '')) {
      context.addIssue({ code: 'custom', message: 'must hold some text: every segment is empty' });
    }
  })
  .describe(
    `The realtime \`final\` events' segments (speaker, text, words with confidence), in spoken order: at most ${NOTE_SEGMENT_LIMITS.maxSegments} segments and ${NOTE_SEGMENT_LIMITS.maxWords} words.`,
  );

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The check of a body that takes the visit as `textField` (`conversation_text`, `conversationText`)
 * or as `segments`: never both, and (when `required`) one of them. It also runs when another field
 * is broken, so every problem is reported in one go.
 */
export function oneTranscript(textField: string, required: boolean) {
  return [
    (body: unknown, context: z.RefinementCtx) => {
      if (!isObject(body)) return;
      const text = body[textField];
      if (text !== undefined && body['segments'] !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['segments'],
          message: `cannot be sent with ${textField}: send the visit as one of them`,
        });
      } else if (required && text === undefined && body['segments'] === undefined) {
        context.addIssue({ code: 'custom', path: [textField], message: 'is required (or send segments instead)' });
      }
    },
    { when: (payload: { value: unknown }) => isObject(payload.value) },
  ] as const;
}
