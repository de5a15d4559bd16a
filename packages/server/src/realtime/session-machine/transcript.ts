import { segmentId, type TranscriptSegment } from '@chartwright/protocol';

import type { FinalEvent } from '../../asr/recognizer.js';
import { withDisplay } from '../segment-view.js';
import type { SessionCommand, Transcript } from './types.js';

/**
 * Who said a final: the voice and role a diarizing engine gave it, else its channel's — two
 * channels are two speakers, clinician first (`S1`) and patient (`S2`); one channel could be anyone.
 */
function speakerOf(
  channels: number,
  channel: number,
  final: FinalEvent,
): Pick<TranscriptSegment, 'speaker' | 'speakerLabel'> {
  const stereo = channels === 2;
  const speakerLabel = final.speakerLabel ?? (stereo ? `S${channel + 1}` : undefined);
  const speaker = final.speaker ?? (stereo ? (channel === 0 ? 'clinician' : 'patient') : 'unknown');
  return speakerLabel === undefined ? { speaker } : { speaker, speakerLabel };
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
  const segment: TranscriptSegment = withDisplay({
    id: segmentId(seq),
    text: final.text,
    startMs: offset + final.startMs,
    endMs: offset + final.endMs,
    channel,
    ...speakerOf(transcript.format.channels, channel, final),
    ...(final.words === undefined
      ? {}
      : {
          words: final.words.map((word) => ({
            word: word.word,
            startMs: offset + word.startMs,
            endMs: offset + word.endMs,
            ...(word.confidence === undefined ? {} : { confidence: word.confidence }),
          })),
        }),
  });
  const lastFinalEndMs = [...transcript.lastFinalEndMs];
  lastFinalEndMs[channel] = segment.endMs;
  return {
    transcript: { ...transcript, segments: seq, lastFinalEndMs },
    command: { type: 'store_final', sessionId, seq, segment },
  };
}
