import type { NoteSegment } from '@chartwright/protocol';

import type { Conversation, ConversationSentence, ConversationTurn, Speaker, TurnWord } from './conversation.js';
import { hasSentenceMarks, readableSentences } from './display-text.js';
import { mayEndAfter } from './punctuation/sentence-ends.js';

/** How a turn's speaker is written before its text (`Clinician: …`). */
export const SPEAKER_LABELS: Readonly<Record<Speaker, string>> = {
  clinician: 'Clinician',
  patient: 'Patient',
  other: 'Other',
  unknown: 'Unknown',
};

/** A recognised segment as turns are made of: its text, its speaker when known, its words. */
export interface SpokenSegment {
  text: string;
  speaker?: Speaker | undefined;
  words?: readonly { word: string; confidence?: number | undefined }[] | undefined;
}

/** Consecutive segments taken as one speaker's turn, before their sentences are read. */
export interface SegmentTurn {
  speaker: Speaker;
  texts: string[];
  words: TurnWord[];
  /** Whether any of its segments carried the recognizer's words. */
  heard: boolean;
}

/**
 * The recognizer's segments as turns: a segment joins the turn before it when `joins(previous,
 * next)` says the two speakers are one (the recognizer cuts a speaker's talk at pauses). Segments
 * with no text are skipped.
 */
export function segmentTurns(
  segments: readonly SpokenSegment[],
  joins: (previous: Speaker, next: Speaker) => boolean,
): SegmentTurn[] {
  const turns: SegmentTurn[] = [];
  for (const segment of segments) {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const speaker = segment.speaker ?? 'unknown';
    const words = (segment.words ?? []).map(({ word, confidence }): TurnWord =>
      confidence === undefined ? { word } : { word, confidence },
    );
    const last = turns.at(-1);
    if (last !== undefined && joins(last.speaker, speaker)) {
      last.texts.push(text);
      last.words.push(...words);
      last.heard ||= segment.words !== undefined;
    } else turns.push({ speaker, texts: [text], words, heard: segment.words !== undefined });
  }
  return turns;
}

/** Unpunctuated speech cut where no sentence ends ("… the sugars are fine I don't think"). */
const runsOn = (text: string): boolean =>
  !hasSentenceMarks(text) && !mayEndAfter((text.split(' ').at(-1) ?? '').toLowerCase().replace(/[^a-z']/g, ''));

/**
 * A turn's segment texts with each one cut off mid-sentence joined to the next ("… I don't think" |
 * "we need to change anything"): read apart, the second reads as said without the first's words
 * ("We need to change anything.").
 */
function spokenSentenceRuns(texts: readonly string[]): string[] {
  const runs: string[] = [];
  for (const text of texts) {
    const previous = runs.at(-1);
    if (previous !== undefined && runsOn(previous) && !hasSentenceMarks(text))
      runs[runs.length - 1] = `${previous} ${text}`;
    else runs.push(text);
  }
  return runs;
}

/** A turn as a note's conversation holds it: the sentences of its segments, and its words if heard. */
export function conversationTurn(
  turn: SegmentTurn,
  index: number,
  speaker: { speaker: Speaker; speakerLabel: string | null },
): ConversationTurn {
  // Each segment ends where the speaker paused: a sentence ends there at the latest, unless the
  // pause came where none can end.
  const sentences = spokenSentenceRuns(turn.texts)
    .flatMap(readableSentences)
    .map((sentence, position): ConversationSentence => ({ index: position, ...sentence }));
  return {
    index,
    ...speaker,
    // The turn's readable text, from its sentences rather than derived a second time.
    text: sentences.map((sentence) => sentence.text).join(' '),
    sentences,
    ...(turn.heard ? { words: turn.words } : {}),
  };
}

/**
 * The conversation a note is written from when the visit came as realtime segments: the same turns
 * and sentences as parsed text, and on each turn the recognizer's words with their confidence.
 * Adjacent segments of one known speaker form one turn; segments of an unknown speaker stay turns
 * of their own, since nothing says they are one person's.
 */
export function conversationFromSegments(segments: readonly NoteSegment[]): Conversation {
  const turns = segmentTurns(segments, (previous, next) => next !== 'unknown' && previous === next);
  return {
    turns: turns.map((turn, index) =>
      conversationTurn(turn, index, {
        speaker: turn.speaker,
        speakerLabel: turn.speaker === 'unknown' ? null : SPEAKER_LABELS[turn.speaker],
      }),
    ),
  };
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
