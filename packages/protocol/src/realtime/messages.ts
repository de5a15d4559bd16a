import { z } from 'zod';

import { AUDIO_ENCODINGS, REALTIME_END_REASONS, REALTIME_LIMITS } from './constants.js';

/**
 * The realtime transcription WebSocket's messages. Audio travels in binary frames; everything
 * else is a JSON text frame with a `type`. The first client message is always `start`: audio
 * never travels without its format.
 */

// A BCP 47 tag as written in practice: a 2–3 letter language, then optional script/region/variants.
const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export const audioFormatSchema = z.strictObject({
  encoding: z.enum(AUDIO_ENCODINGS).describe('16-bit signed or 32-bit float PCM, little-endian, interleaved.'),
  sampleRate: z
    .int()
    .min(REALTIME_LIMITS.minSampleRate)
    .max(REALTIME_LIMITS.maxSampleRate)
    .describe('Hz; resampled by the server as its recognizer needs.'),
  channels: z
    .union([z.literal(1), z.literal(2)])
    .default(1)
    .describe('2 = one speaker per channel (e.g. clinician left, patient right).'),
});
export type AudioFormat = z.output<typeof audioFormatSchema>;

export const resumeRequestSchema = z.strictObject({
  sessionId: z.string().min(1),
  resumeToken: z.string().min(1),
  /**
   * Where the audio the client sends again begins (ms of the session): the last `ack` it received.
   * The server decodes again from the start of the utterance that was open when the socket was
   * lost, which the `ack` never passes, so that utterance comes out whole.
   */
  lastAckedAudioMs: z.int().min(0),
  /** Finals up to this id were received; the server replays every later one. */
  lastSegmentId: z.string().min(1).optional(),
});
export type ResumeRequest = z.output<typeof resumeRequestSchema>;

export const startMessageSchema = z.strictObject({
  type: z.literal('start'),
  audio: audioFormatSchema,
  language: z.string().regex(BCP47, { error: 'must be a BCP 47 language tag such as en-US' }).default('en-US'),
  interimResults: z.boolean().default(true),
  vocabulary: z
    .array(z.string().trim().min(1).max(REALTIME_LIMITS.maxVocabularyTermLength))
    .max(REALTIME_LIMITS.maxVocabularyTerms)
    .optional()
    .describe('Words to favour (drug names, the patient’s name as spoken…).'),
  resume: resumeRequestSchema.optional().describe('Continue an interrupted session instead of opening a new one.'),
});
export type StartMessage = z.output<typeof startMessageSchema>;

const control = <T extends string>(type: T) => z.strictObject({ type: z.literal(type) });

export const finalizeMessageSchema = control('finalize');
export const pauseMessageSchema = control('pause');
export const resumeMessageSchema = control('resume');
export const keepaliveMessageSchema = control('keepalive');
export const stopMessageSchema = control('stop');

export const realtimeClientMessageSchema = z.discriminatedUnion('type', [
  startMessageSchema,
  finalizeMessageSchema,
  pauseMessageSchema,
  resumeMessageSchema,
  keepaliveMessageSchema,
  stopMessageSchema,
]);
export type RealtimeClientMessage = z.output<typeof realtimeClientMessageSchema>;
export type RealtimeClientMessageInput = z.input<typeof realtimeClientMessageSchema>;

/** What a word can change in the chart when misheard. */
export const CLINICAL_WEIGHTS = ['negation', 'number', 'dose', 'measure', 'side', 'drug'] as const;
export type ClinicalWeight = (typeof CLINICAL_WEIGHTS)[number];

export const transcriptWordSchema = z.object({
  word: z.string(),
  startMs: z.number(),
  endMs: z.number(),
  /** Absent when the engine computes no word posteriors (PocketSphinx with its second pass off). */
  confidence: z.number().min(0).max(1).optional(),
  review: z
    .enum(CLINICAL_WEIGHTS)
    .optional()
    .describe(
      'Set when the word can change what the chart says (a negation such as no/now, a number, a dose, a measure such as systolic/diastolic, a side, a drug name) and was heard with low confidence: check it.',
    ),
});

/** Who said a segment: a role, not a person; `unknown` when nothing tells. */
export const TRANSCRIPT_SPEAKERS = ['clinician', 'patient', 'unknown'] as const;
export type TranscriptSpeaker = (typeof TRANSCRIPT_SPEAKERS)[number];

export const displayTokenSchema = z.object({
  text: z.string(),
  wordStart: z.int().min(0),
  wordEnd: z.int().min(0),
});
export type DisplayToken = z.infer<typeof displayTokenSchema>;

export const transcriptSegmentOriginalSchema = z.object({
  text: z.string(),
  speaker: z.enum(TRANSCRIPT_SPEAKERS),
  words: z.array(transcriptWordSchema).optional(),
});

export const transcriptSegmentSchema = z.object({
  /** Stable and sortable: safe to de-duplicate and order by. */
  id: z.string(),
  text: z
    .string()
    .describe(
      'What was said, as recognised (lower case and unpunctuated with PocketSphinx) or as the clinician corrected it (`revision`).',
    ),
  display: z
    .string()
    .describe(
      '`text` as a clinician reads it: sentences ended where they most probably ended when `text` has no punctuation, each in sentence case with a full stop or (`?`) a question mark, numbers and units in chart form (10 mg, 120/80, 98.6), clinical casing (eGFR, HbA1c, MRI), "I". Derived from `text`, the same every time.',
    ),
  displayTokens: z
    .array(displayTokenSchema)
    .describe(
      '`display` split at its spaces, each token with the words of `text` (split at whitespace) it came from: `wordStart` up to, not including, `wordEnd`. When `words` has one entry per word of `text` (always with PocketSphinx), the same indexes point into `words`, e.g. to mark the words the recognizer was unsure of.',
    ),
  startMs: z.number().describe('From the first audio sample of the session.'),
  endMs: z.number(),
  channel: z.int().min(0).describe('0, or 0/1 for two-channel audio.'),
  speaker: z
    .enum(TRANSCRIPT_SPEAKERS)
    .describe(
      'The role: from the channel (two channels: 0 clinician, 1 patient) or, for one channel, from who asks the questions, as the session’s role swaps and the clinician’s corrections leave it.',
    ),
  speakerLabel: z
    .string()
    .optional()
    .describe(
      'Which voice: `S1`, `S2`… (a channel, or a voice the diarizer found, in order of appearance); absent when unknown.',
    ),
  words: z.array(transcriptWordSchema).optional(),
  revision: z
    .int()
    .min(1)
    .optional()
    .describe('The clinician’s latest correction of this segment (1, 2…); absent while it is as recognised.'),
  original: transcriptSegmentOriginalSchema
    .optional()
    .describe(
      'With `revision`: the segment as recognised. `words` then stays here alone when the text was corrected, since they no longer describe it.',
    ),
});
export type TranscriptSegment = z.infer<typeof transcriptSegmentSchema>;

export const startedEventSchema = z.object({
  type: z.literal('started'),
  sessionId: z.string(),
  resumeToken: z.string().describe('Present it with the sessionId to continue after a disconnect.'),
  resumed: z.boolean(),
  credentialExpiresAt: z.string().nullable().describe('When the credential that opened the socket stops working.'),
  audio: audioFormatSchema,
  limits: z.object({
    maxSessionSeconds: z.int(),
    idleTimeoutSeconds: z.int(),
    keepaliveIntervalSeconds: z.int(),
    maxFrameBytes: z.int(),
  }),
});

export const partialEventSchema = z.object({
  type: z.literal('partial'),
  text: z.string(),
  startMs: z.number(),
  channel: z.int().min(0),
});

export const finalEventSchema = z.object({ type: z.literal('final'), segment: transcriptSegmentSchema });

export const ackEventSchema = z.object({
  type: z.literal('ack'),
  /**
   * The client may drop the audio before this position (ms of the session): its words are in finals
   * already (or it was silence), and no utterance still open began before it. Audio after it is
   * kept and sent again on a resume, so an utterance cut by a lost socket is decoded again whole.
   * It never moves back, and stays at the start of an utterance while that utterance is open.
   */
  audioMs: z.number(),
});

export const warningEventSchema = z.object({
  type: z.literal('warning'),
  code: z.enum(['credential_expiring', 'session_limit_approaching']),
  message: z.string(),
  remainingMs: z.number(),
});

export const errorEventSchema = z.object({
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
  /** True when the server closes the socket after this error. */
  fatal: z.boolean(),
});

export const endedEventSchema = z.object({
  type: z.literal('ended'),
  sessionId: z.string(),
  reason: z.enum(REALTIME_END_REASONS),
  audioMs: z.number(),
  segments: z.int(),
});

export const realtimeServerEventSchema = z.discriminatedUnion('type', [
  startedEventSchema,
  partialEventSchema,
  finalEventSchema,
  ackEventSchema,
  warningEventSchema,
  errorEventSchema,
  endedEventSchema,
]);
export type RealtimeServerEvent = z.infer<typeof realtimeServerEventSchema>;
