/**
 * What a stored realtime session is, read back from the database: whether it can still be resumed,
 * and its segments in the protocol's shape. Shared by the socket's resume and the REST read-back.
 */
import { isResumableEndReason, type TranscriptSegment } from '@chartwright/protocol';

import type { RealtimeSessionRow, TranscriptSegmentRow } from '../store/realtime-sessions.js';

/** A session that lost its socket (or ended resumably) may be resumed this long after its last activity. */
export const RESUME_WINDOW_MS = 10 * 60_000;

/** Why the session can no longer be resumed, or undefined when it can. */
export function resumeRefusal(row: RealtimeSessionRow, now: number, maxSessionSeconds: number): string | undefined {
  if (row.end_reason !== null && !isResumableEndReason(row.end_reason)) {
    return `The session ended (${row.end_reason}) and cannot be resumed; start a new one.`;
  }
  if (now - (row.ended_at ?? row.last_seen_at) > RESUME_WINDOW_MS) {
    return `Sessions can be resumed for ${RESUME_WINDOW_MS / 60_000} minutes after their last activity; start a new one.`;
  }
  if (now - row.created_at >= maxSessionSeconds * 1000) {
    return 'The session reached its maximum length; start a new one.';
  }
  return undefined;
}

export function segmentOfRow(row: TranscriptSegmentRow): TranscriptSegment {
  return {
    id: row.id,
    text: row.text,
    startMs: row.start_ms,
    endMs: row.end_ms,
    channel: row.channel,
    speaker: row.speaker,
    ...(row.words === null ? {} : { words: JSON.parse(row.words) as NonNullable<TranscriptSegment['words']> }),
  };
}
