/**
 * Where a resumed session continues, from what its store holds. Pure, so the choice is tested apart
 * from the database.
 *
 * A lost socket stores the utterance open at the cut as a provisional segment (decoded only up to
 * the cut, never sent). When the client resends the audio from before that utterance began (the
 * `ack` of a current client never passes it), the segment is replaced: each channel decodes again
 * from where its audio was committed, so the utterance comes out once, whole, in context. When the
 * client cannot (it resends from later, or it was already given the segment), the provisional
 * segments are kept and decoding continues after them, as a resume did before.
 */
import type { ProvisionalSegments } from './session-machine/index.js';

export interface StoredSegment {
  seq: number;
  channel: number;
  startMs: number;
  endMs: number;
  provisional: boolean;
}

export interface StoredProgress {
  /** The session's segments, in seq order. */
  segments: readonly StoredSegment[];
  /** Audio transcribed to the end when the session last lost its socket or ended. */
  transcribedMs: number;
  /** Per channel, how far the audio was committed then; undefined when never recorded (a crash). */
  committedMs: readonly number[] | undefined;
}

export interface ResumePlan {
  decodeFromMs: number[];
  provisional: ProvisionalSegments;
  /** The last segment kept. */
  lastSeq: number;
}

function lastEnd(segments: readonly StoredSegment[], channel: number): number {
  return segments.reduce((end, segment) => (segment.channel === channel ? Math.max(end, segment.endMs) : end), 0);
}

/**
 * The plan for a client that resends audio from `lastAckedAudioMs` and has received the segments up
 * to `afterSeq`, for a session of `channels` channels.
 */
export function planResume(
  stored: StoredProgress,
  request: { lastAckedAudioMs: number; afterSeq: number },
  channels: number,
): ResumePlan {
  const confirmed = stored.segments.filter((segment) => !segment.provisional);
  const provisional = stored.segments.filter((segment) => segment.provisional);
  const resent = request.lastAckedAudioMs;
  const channelList = Array.from({ length: channels }, (_, channel) => channel);
  // Finals stored and not provisional were committed, even if the socket died before its record was.
  const committed = channelList.map((channel) =>
    Math.max(stored.committedMs?.[channel] ?? 0, lastEnd(confirmed, channel)),
  );
  const confirmedLastSeq = confirmed.reduce((last, segment) => Math.max(last, segment.seq), 0);
  const redecodable =
    request.afterSeq <= confirmedLastSeq &&
    provisional.every((segment) => {
      const from = committed[segment.channel] ?? 0;
      return resent <= from && segment.startMs >= from;
    });
  if (redecodable) {
    return {
      decodeFromMs: committed.map((from) => Math.max(resent, from)),
      provisional: 'replace',
      lastSeq: confirmedLastSeq,
    };
  }
  return {
    decodeFromMs: channelList.map((channel) =>
      Math.max(resent, stored.transcribedMs, lastEnd(stored.segments, channel)),
    ),
    provisional: 'keep',
    lastSeq: stored.segments.reduce((last, segment) => Math.max(last, segment.seq), 0),
  };
}
