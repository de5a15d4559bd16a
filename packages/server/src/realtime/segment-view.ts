/**
 * A transcript segment as every reader gets it — a live `final`, a resume's replay, the REST
 * read-back, the widget's transcript and the note written from it: its display text derived from
 * its text, then the clinician's corrections (the segment's latest revision, the session's swapped
 * roles) over what was recognised, which stays stored as it was.
 */
import type { TranscriptSegment, TranscriptSpeaker } from '@chartwright/protocol';

import { displayText } from '../text/display-text.js';

/** A segment before its display text is derived. */
export type RecognisedSegment = Omit<TranscriptSegment, 'display' | 'displayTokens'>;

/** The segment's text and speaker after the clinician's latest correction; null where never corrected. */
export interface SegmentCorrection {
  revision: number;
  text: string | null;
  speaker: TranscriptSpeaker | null;
}

/** Speaker label → role, as the clinician swapped them for the realtime session. */
export type SpeakerRoles = ReadonlyMap<string, 'clinician' | 'patient'>;

export function withDisplay(segment: RecognisedSegment): TranscriptSegment {
  const { display, tokens } = displayText(segment.text);
  return { ...segment, display, displayTokens: tokens };
}

/**
 * The segment as it reads now. The speaker is the segment's own correction, else its label's
 * swapped role, else the recognizer's. A corrected text drops the recognizer's words (they no
 * longer describe it) into `original`, with the text and speaker as recognised.
 */
export function correctedSegment(
  recognised: TranscriptSegment,
  roles: SpeakerRoles,
  correction: SegmentCorrection | undefined,
): TranscriptSegment {
  const swapped = recognised.speakerLabel === undefined ? undefined : roles.get(recognised.speakerLabel);
  const speaker = correction?.speaker ?? swapped ?? recognised.speaker;
  if (correction === undefined) return speaker === recognised.speaker ? recognised : { ...recognised, speaker };
  const { id, startMs, endMs, channel, speakerLabel, words } = recognised;
  const textChanged = correction.text !== null && correction.text !== recognised.text;
  return withDisplay({
    id,
    text: textChanged ? (correction.text ?? recognised.text) : recognised.text,
    startMs,
    endMs,
    channel,
    speaker,
    ...(speakerLabel === undefined ? {} : { speakerLabel }),
    ...(textChanged || words === undefined ? {} : { words }),
    revision: correction.revision,
    original: {
      text: recognised.text,
      speaker: recognised.speaker,
      ...(textChanged && words !== undefined ? { words } : {}),
    },
  });
}
