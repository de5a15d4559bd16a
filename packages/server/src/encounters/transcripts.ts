import type { RealtimeSessionResource, TranscriptSegment } from '@chartwright/protocol';

import type { RealtimeSessionArchive } from '../realtime/session-archive.js';
import type { Conversation } from '../text/conversation.js';
import { readableText } from '../text/display-text.js';
import { conversationTurn, type SegmentTurn, segmentTurns, SPEAKER_LABELS } from '../text/segment-conversation.js';

/** An encounter's recorded conversation: its realtime sessions and the text notes are written from. */
export interface EncounterTranscript {
  realtimeSessions: RealtimeSessionResource[];
  text: string;
}

/** One session's turns: consecutive segments of a speaker form one turn (all of them, unlabelled). */
const sessionTurns = (segments: readonly TranscriptSegment[], labelled: boolean): SegmentTurn[] =>
  segmentTurns(segments, (previous, next) => !labelled || previous === next);

/** A turn as a note's parser and the chart read it: its segments with their sentence ends and marks. */
const readableTurn = (turn: SegmentTurn): string => turn.texts.map(readableText).join(' ');

const anySpeakerKnown = (realtimeSessions: readonly RealtimeSessionResource[]) =>
  realtimeSessions.some((session) => session.segments.some((segment) => segment.speaker !== 'unknown'));

/**
 * The realtime sessions' segments as one conversation, in the shape the note parser reads: consecutive
 * segments of a speaker form one `Clinician:` / `Patient:` turn when any speaker is known (the rest
 * are `Unknown:`, so they are not taken for the previous speaker's words), and plain prose when none
 * is. Realtime sessions are separated by a blank line.
 */
export function transcriptText(realtimeSessions: readonly RealtimeSessionResource[]): string {
  const labelled = anySpeakerKnown(realtimeSessions);
  return realtimeSessions
    .map((session) => {
      const turns = sessionTurns(session.segments, labelled);
      if (!labelled) return turns.map(readableTurn).join(' ');
      return turns.map((turn) => `${SPEAKER_LABELS[turn.speaker]}: ${readableTurn(turn)}`).join('\n');
    })
    .filter((text) => text !== '')
    .join('\n\n');
}

/**
 * The same conversation as `transcriptText` reads, turn for turn (a note's evidence indexes its
 * turns), built from the segments so each turn keeps the recognizer's words and their confidence.
 */
export function transcriptConversation(realtimeSessions: readonly RealtimeSessionResource[]): Conversation {
  const labelled = anySpeakerKnown(realtimeSessions);
  const turns = realtimeSessions.flatMap((session) => sessionTurns(session.segments, labelled));
  return {
    turns: turns.map((turn, index) =>
      conversationTurn(turn, index, {
        speaker: labelled ? turn.speaker : 'unknown',
        speakerLabel: labelled ? SPEAKER_LABELS[turn.speaker] : null,
      }),
    ),
  };
}

export class EncounterTranscripts {
  constructor(private readonly archive: RealtimeSessionArchive) {}

  /** Every retained realtime session of the encounter (oldest first) with its segments, and the joined text. */
  async forEncounter(encounterId: string): Promise<EncounterTranscript> {
    const realtimeSessions = await this.archive.listForEncounter(encounterId);
    return { realtimeSessions, text: transcriptText(realtimeSessions) };
  }

  /** What a note is written from: the transcript's text, and its turns with the recognizer's words. */
  async recording(encounterId: string): Promise<{ text: string; conversation: Conversation }> {
    const realtimeSessions = await this.archive.listForEncounter(encounterId);
    return { text: transcriptText(realtimeSessions), conversation: transcriptConversation(realtimeSessions) };
  }
}
