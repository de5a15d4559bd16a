import type { NoteSegment } from '@chartwright/protocol';

import type { Conversation, ConversationSentence, ConversationTurn, Speaker, TurnWord } from './conversation.js';
import { readableSentences } from './display-text.js';

const SPEAKER_LABELS: Readonly<Record<Speaker, string>> = {
  clinician: 'Clinician',
  patient: 'Patient',
  other: 'Other',
  unknown: 'Unknown',
};

interface TurnDraft {
  speaker: Speaker;
  texts: string[];
  words: TurnWord[];
  /** Whether any of its segments carried the recognizer's words. */
  heard: boolean;
}

/**
 * The recognizer's segments as turns: adjacent segments of one known speaker form one turn (the
 * recognizer cuts a speaker's talk at pauses); segments of an unknown speaker stay turns of their
 * own, since nothing says they are one person's. Segments with no text are skipped.
 */
function turnDrafts(segments: readonly NoteSegment[]): TurnDraft[] {
  const drafts: TurnDraft[] = [];
  for (const segment of segments) {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const speaker: Speaker = segment.speaker ?? 'unknown';
    const words: TurnWord[] = (segment.words ?? []).map(({ word, confidence }) =>
      confidence === undefined ? { word } : { word, confidence },
    );
    const last = drafts.at(-1);
    if (last !== undefined && speaker !== 'unknown' && last.speaker === speaker) {
      last.texts.push(text);
      last.words.push(...words);
      last.heard ||= segment.words !== undefined;
    } else {
      drafts.push({ speaker, texts: [text], words, heard: segment.words !== undefined });
    }
  }
  return drafts;
}

/**
 * The conversation a note is written from when the visit came as realtime segments: the same turns
 * and sentences as parsed text, and on each turn the recognizer's words with their confidence.
 */
export function conversationFromSegments(segments: readonly NoteSegment[]): Conversation {
  const turns = turnDrafts(segments).map((draft, index): ConversationTurn => {
    // Each segment ends where the speaker paused: a sentence ends there at the latest.
    const sentences = draft.texts
      .flatMap(readableSentences)
      .map((sentence, position): ConversationSentence => ({ index: position, ...sentence }));
    return {
      index,
      speaker: draft.speaker,
      speakerLabel: draft.speaker === 'unknown' ? null : SPEAKER_LABELS[draft.speaker],
      text: sentences.map((sentence) => sentence.text).join(' '),
      sentences,
      ...(draft.heard ? { words: draft.words } : {}),
    };
  });
  return { turns };
}

/**
 * The segments as text, in the shape the conversation parser reads back into the same turns, and the
 * widget shows: `Clinician: …` / `Patient: …` lines when any speaker is known, else a paragraph per
 * turn.
 */
export function segmentsText(segments: readonly NoteSegment[]): string {
  const { turns } = conversationFromSegments(segments);
  if (turns.every((turn) => turn.speaker === 'unknown')) return turns.map((turn) => turn.text).join('\n\n');
  return turns.map((turn) => `${SPEAKER_LABELS[turn.speaker]}: ${turn.text}`).join('\n');
}

/** The characters of the segments' text: what the conversation limit counts. */
export function segmentsLength(segments: readonly NoteSegment[]): number {
  return segments.reduce((total, segment) => total + segment.text.length, 0);
}
