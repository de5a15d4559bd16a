import { z } from 'zod';

import { audioFormatSchema, endedEventSchema, transcriptSegmentSchema } from '../realtime/messages.js';
import { componentRegistry } from './registry.js';

/**
 * A realtime session and its stored transcript, as `GET /api/v1/realtime/sessions/{id}` returns it.
 * Field names follow the realtime protocol (camelCase), since the segments are the `final` events'.
 */
export const realtimeSessionSchema = z
  .object({
    id: z.string().describe('The `sessionId` of the `started` event: `rts_…`.'),
    status: z
      .enum(['open', 'ended'])
      .describe('`open` while a socket streams it or it lost its socket without ending; `ended` once it sent `ended`.'),
    endReason: endedEventSchema.shape.reason.nullable().describe('The `ended` event’s reason; null while open.'),
    resumable: z.boolean().describe('Whether a `start` with `resume` can still continue it.'),
    language: z.string(),
    audio: audioFormatSchema,
    audioMs: z.number().describe('Audio transcribed, in ms of the session’s clock.'),
    createdAt: z.string().describe('ISO 8601: the first `start`.'),
    lastActivityAt: z.string().describe('ISO 8601: its last start, resume, lost socket or end.'),
    endedAt: z.string().nullable(),
    expiresAt: z.string().describe('ISO 8601: when the retention sweep deletes it and its transcript.'),
    text: z.string().describe('The segments’ text joined with spaces, in order.'),
    segments: z
      .array(transcriptSegmentSchema)
      .describe('Every stored `final` segment, in id order, with the clinician’s corrections and role swaps applied.'),
    speakerRoles: z
      .record(z.string(), z.enum(['clinician', 'patient']))
      .describe(
        'Speaker label → role, where the clinician swapped roles: the `speaker` of every segment with that label, later finals included (a segment’s own correction comes first). Empty when never swapped.',
      ),
  })
  .register(componentRegistry, { id: 'RealtimeSession' });
export type RealtimeSessionResource = z.infer<typeof realtimeSessionSchema>;
