import { segmentId, type TranscriptSegment } from '@chartwright/protocol';

import type { FinalEvent } from '../../asr/recognizer.js';
import { reviewWeight } from '../../text/clinical-weight.js';
import type { SessionCommand, Transcript } from './types.js';

/**
 * Two channels are two speakers, clinician first; one channel holds whoever the recognizer's
 * diarization heard (asr/diarization), or an unknown speaker when the engine does not diarize.
 */
function speakerOf(
  channels: number,
  channel: number,
  final: FinalEvent,
): Pick<TranscriptSegment, 'speaker' | 'speakerLabel'> {
  if (channels === 2) return { speaker: channel === 0 ? 'clinician' : 'patient', speakerLabel: `S${channel + 1}` };
  return {
    speaker: final.speaker ?? 'unknown',
    ...(final.speakerLabel === undefined ? {} : { speakerLabel: final.speakerLabel }),
  };
}

/**
 * A recognizer final as the session's next segment, on the session's clock (the streams started at
 * `streamOffsetMs`), and the command that stores it, then sends it. An empty final makes none.
 */
export function addFinal(
  transcript: Transcript,
  sessionId: string,
  channel: number,
  final: FinalEvent,
): { transcript: Transcript; command: SessionCommand } | undefined {
  if (final.text.trim() === '') return undefined;
  const seq = transcript.segments + 1;
  const offset = transcript.streamOffsetMs;
  const segment: TranscriptSegment = {
    id: segmentId(seq),
    text: final.text,
    startMs: offset + final.startMs,
    endMs: offset + final.endMs,
    channel,
    ...speakerOf(transcript.format.channels, channel, final),
    ...(final.words === undefined
      ? {}
      : {
          words: final.words.map((word) => {
            const review = reviewWeight(word.word, word.confidence);
            return {
              word: word.word,
              startMs: offset + word.startMs,
              endMs: offset + word.endMs,
              ...(word.confidence === undefined ? {} : { confidence: word.confidence }),
              ...(review === null ? {} : { review }),
            };
          }),
        }),
  };
  const lastFinalEndMs = [...transcript.lastFinalEndMs];
  lastFinalEndMs[channel] = segment.endMs;
  return {
    transcript: { ...transcript, segments: seq, lastFinalEndMs },
    command: { type: 'store_final', sessionId, seq, segment },
  };
}
