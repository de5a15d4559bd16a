/**
 * What a stored realtime session is, read back from the database: whether it can still be resumed,
 * and its segments in the protocol's shape. Shared by the socket's resume and the REST read-back.
 */
import { isResumableEndReason, type TranscriptSegment } from '@chartwright/protocol';

import { judgeRoles } from '../asr/diarization/speaker-roles.js';
import type { RealtimeSessionRow, TranscriptSegmentRow } from '../store/realtime-sessions.js';
import type { TranscriptSegmentRevisionRow } from '../store/transcript-corrections.js';
import { correctedSegment, withDisplay, type SegmentCorrection, type SpeakerRoles } from './segment-view.js';
import type { RealtimeStore } from './session-records.js';

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

/** A stored segment as it was recognised, with its display text. */
export function segmentOfRow(row: TranscriptSegmentRow): TranscriptSegment {
  return withDisplay({
    id: row.id,
    text: row.text,
    startMs: row.start_ms,
    endMs: row.end_ms,
    channel: row.channel,
    speaker: row.speaker,
    ...(row.speaker_label === null ? {} : { speakerLabel: row.speaker_label }),
    ...(row.words === null ? {} : { words: JSON.parse(row.words) as NonNullable<TranscriptSegment['words']> }),
  });
}

export function correctionOfRow(row: TranscriptSegmentRevisionRow): SegmentCorrection {
  return { revision: row.revision, text: row.text, speaker: row.speaker };
}

/** The session's stored segments after `afterSeq` (0: all), as they read now, and its swapped roles. */
export async function readSegments(
  store: RealtimeStore,
  sessionId: string,
  afterSeq = 0,
): Promise<{ segments: TranscriptSegment[]; roles: SpeakerRoles }> {
  const [rows, revisions, roles] = await Promise.all([
    store.segments.listAfter(sessionId),
    store.corrections.latestRevisions(sessionId),
    store.corrections.roles(sessionId),
  ]);
  // One channel: the roles the diarizer gave each final as it came out, judged again with the
  // whole session (asr/diarization/speaker-roles.ts). Two channels keep their channels' roles.
  const recognised = rows.map(segmentOfRow);
  const judged = rows.every((row) => row.channel === 0) ? judgeRoles(recognised) : recognised;
  const segments = rows.flatMap((row, index) => {
    if (row.seq <= afterSeq) return [];
    const revision = revisions.get(row.seq);
    const segment = judged[index] ?? segmentOfRow(row);
    return [correctedSegment(segment, roles, revision === undefined ? undefined : correctionOfRow(revision))];
  });
  return { segments, roles };
}
