import type { RealtimeSessionResource } from '@chartwright/protocol';

import type { RealtimeSessionArchive } from '../realtime/session-archive.js';
import type { Conversation, ConversationTurn } from '../text/conversation.js';
import { conversationTurn, segmentTurns, SPEAKER_LABELS } from '../text/segment-conversation.js';

/** An encounter's recorded conversation: its realtime sessions and the text notes are written from. */
export interface EncounterTranscript {
  realtimeSessions: RealtimeSessionResource[];
  text: string;
}

const anySpeakerKnown = (realtimeSessions: readonly RealtimeSessionResource[]) =>
  realtimeSessions.some((session) => session.segments.some((segment) => segment.speaker !== 'unknown'));

/** What a note is written from: the transcript's text, and the same turns with the recognizer's words. */
export interface EncounterRecording {
  text: string;
  conversation: Conversation;
}

/**
 * The realtime sessions' segments as one conversation, and as text in the shape the note parser
 * reads back into the same turns (a note's evidence indexes them): consecutive segments of a speaker
 * form one `Clinician:` / `Patient:` turn when any speaker is known (the rest are `Unknown:`, so they
 * are not taken for the previous speaker's words), and plain prose when none is. Realtime sessions
 * are separated by a blank line. The text is written from the turns, so each segment's sentences are
 * read once.
 */
export function transcriptRecording(realtimeSessions: readonly RealtimeSessionResource[]): EncounterRecording {
  const labelled = anySpeakerKnown(realtimeSessions);
  const turns: ConversationTurn[] = [];
  const sessionTexts: string[] = [];
  for (const session of realtimeSessions) {
    const sessionTurns = segmentTurns(session.segments, (previous, next) => !labelled || previous === next).map(
      (turn, position) =>
        conversationTurn(turn, turns.length + position, {
          speaker: labelled ? turn.speaker : 'unknown',
          speakerLabel: labelled ? SPEAKER_LABELS[turn.speaker] : null,
        }),
    );
    turns.push(...sessionTurns);
    const lines = sessionTurns.map((turn) => (labelled ? `${SPEAKER_LABELS[turn.speaker]}: ${turn.text}` : turn.text));
    if (lines.length > 0) sessionTexts.push(lines.join(labelled ? '\n' : ' '));
  }
  return { text: sessionTexts.join('\n\n'), conversation: { turns } };
}

export class EncounterTranscripts {
  constructor(private readonly archive: RealtimeSessionArchive) {}

  /** Every retained realtime session of the encounter (oldest first) with its segments, and the joined text. */
  async forEncounter(encounterId: string): Promise<EncounterTranscript> {
    const realtimeSessions = await this.archive.listForEncounter(encounterId);
    return { realtimeSessions, text: transcriptRecording(realtimeSessions).text };
  }

  /** What a note is written from: the transcript's text, and its turns with the recognizer's words. */
  async recording(encounterId: string): Promise<EncounterRecording> {
    return transcriptRecording(await this.archive.listForEncounter(encounterId));
  }
}
