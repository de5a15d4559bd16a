import type { RealtimeSessionResource, TranscriptSegment } from '@chartwright/protocol';

import type { RealtimeSessionArchive } from '../realtime/session-archive.js';
import type { Conversation, ConversationTurn, TurnWord } from '../text/conversation.js';
import { readableSentences, readableText } from '../text/display-text.js';

const SPEAKER_LABELS: Readonly<Record<TranscriptSegment['speaker'], string>> = {
  clinician: 'Clinician',
  patient: 'Patient',
  unknown: 'Unknown',
};

/** An encounter's recorded conversation: its realtime sessions and the text notes are written from. */
export interface EncounterTranscript {
  realtimeSessions: RealtimeSessionResource[];
  text: string;
}

interface SessionTurn {
  speaker: TranscriptSegment['speaker'];
  texts: string[];
  words: TurnWord[];
  heard: boolean;
}

/** One session's turns: consecutive segments of a speaker form one turn (all of them, unlabelled). */
function sessionTurns(segments: readonly TranscriptSegment[], labelled: boolean): SessionTurn[] {
  const turns: SessionTurn[] = [];
  for (const segment of segments) {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const words = (segment.words ?? []).map(({ word, confidence }): TurnWord =>
      confidence === undefined ? { word } : { word, confidence },
    );
    const last = turns.at(-1);
    if (last !== undefined && (!labelled || last.speaker === segment.speaker)) {
      last.texts.push(text);
      last.words.push(...words);
      last.heard ||= segment.words !== undefined;
    } else turns.push({ speaker: segment.speaker, texts: [text], words, heard: segment.words !== undefined });
  }
  return turns;
}

/** A turn as a note's parser and the chart read it: its segments with their sentence ends and marks. */
const readableTurn = (turn: SessionTurn): string => turn.texts.map(readableText).join(' ');

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
    turns: turns.map((turn, index): ConversationTurn => {
      // Each segment ends where the speaker paused: a sentence ends there at the latest.
      const sentences = turn.texts
        .flatMap(readableSentences)
        .map((sentence, position) => ({ index: position, ...sentence }));
      return {
        index,
        speaker: labelled ? turn.speaker : 'unknown',
        speakerLabel: labelled ? SPEAKER_LABELS[turn.speaker] : null,
        // The turn's readable text, from its sentences rather than derived a second time.
        text: sentences.map((sentence) => sentence.text).join(' '),
        sentences,
        ...(turn.heard ? { words: turn.words } : {}),
      };
    }),
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
