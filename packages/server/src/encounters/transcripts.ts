import type { RealtimeSessionResource, TranscriptSegment } from '@chartwright/protocol';

import type { RealtimeSessionArchive } from '../realtime/session-archive.js';

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

function realtimeSessionText(segments: readonly TranscriptSegment[], labelled: boolean): string {
  const turns: { speaker: TranscriptSegment['speaker']; texts: string[] }[] = [];
  for (const segment of segments) {
    const text = segment.text.trim();
    if (text === '') continue;
    const last = turns.at(-1);
    if (last?.speaker === segment.speaker) last.texts.push(text);
    else turns.push({ speaker: segment.speaker, texts: [text] });
  }
  if (!labelled) return turns.flatMap((turn) => turn.texts).join(' ');
  return turns.map((turn) => `${SPEAKER_LABELS[turn.speaker]}: ${turn.texts.join(' ')}`).join('\n');
}

/**
 * The realtime sessions' segments as one conversation, in the shape the note parser reads: consecutive
 * segments of a speaker form one `Clinician:` / `Patient:` turn when any speaker is known (the rest
 * are `Unknown:`, so they are not taken for the previous speaker's words), and plain prose when none
 * is. Realtime sessions are separated by a blank line.
 */
export function transcriptText(realtimeSessions: readonly RealtimeSessionResource[]): string {
  const labelled = realtimeSessions.some((session) =>
    session.segments.some((segment) => segment.speaker !== 'unknown'),
  );
  return realtimeSessions
    .map((session) => realtimeSessionText(session.segments, labelled))
    .filter((text) => text !== '')
    .join('\n\n');
}

export class EncounterTranscripts {
  constructor(private readonly archive: RealtimeSessionArchive) {}

  /** Every retained realtime session of the encounter (oldest first) with its segments, and the joined text. */
  async forEncounter(encounterId: string): Promise<EncounterTranscript> {
    const realtimeSessions = await this.archive.listForEncounter(encounterId);
    return { realtimeSessions, text: transcriptText(realtimeSessions) };
  }
}
