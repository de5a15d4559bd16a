import { segmentId, type TranscriptSegment } from '@chartwright/protocol';

import type { CepstralMeans, FinalEvent } from '../../asr/recognizer.js';
import { reviewWeight } from '../../text/clinical-weight.js';
import { withDisplay } from '../segment-view.js';
import type { SessionCommand, Transcript } from './types.js';

/**
 * Two channels are two speakers, clinician first (`S1`) and patient (`S2`); one channel holds
 * whoever the recognizer's diarization heard (asr/diarization), or an unknown speaker when the
 * engine does not diarize.
 */
function speakerOf(
  transcript: Pick<Transcript, 'format' | 'voicesBefore'>,
  channel: number,
  final: FinalEvent,
): Pick<TranscriptSegment, 'speaker' | 'speakerLabel'> {
  if (transcript.format.channels === 2) {
    return { speaker: channel === 0 ? 'clinician' : 'patient', speakerLabel: `S${channel + 1}` };
  }
  const voice = final.speakerLabel === undefined ? undefined : /^S(\d+)$/.exec(final.speakerLabel)?.[1];
  return {
    speaker: final.speaker ?? 'unknown',
    ...(voice === undefined ? {} : { speakerLabel: `S${Number(voice) + transcript.voicesBefore}` }),
  };
}

/**
 * A recognizer final as the session's next segment, on the session's clock (the channel's stream
 * started at its `streamOffsetMs`), and the command that stores it, then sends it. An empty final
 * makes none. A provisional one (stored for a lost socket, see types.ts) commits nothing: a resume
 * that resends its audio decodes it again from where the audio was committed before it.
 */
export function addFinal(
  transcript: Transcript,
  sessionId: string,
  channel: number,
  final: FinalEvent,
  provisional: boolean,
): { transcript: Transcript; command: SessionCommand } | undefined {
  if (final.text.trim() === '') return undefined;
  const seq = transcript.segments + 1;
  const offset = transcript.streamOffsetMs[channel] ?? 0;
  const segment: TranscriptSegment = withDisplay({
    id: segmentId(seq),
    text: final.text,
    startMs: offset + final.startMs,
    endMs: offset + final.endMs,
    channel,
    ...speakerOf(transcript, channel, final),
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
  });
  const lastFinalEndMs = [...transcript.lastFinalEndMs];
  lastFinalEndMs[channel] = segment.endMs;
  const cepstralMeans = channelsOf(transcript.cepstralMeans, channel, final.cepstralMean);
  const committed = provisional
    ? {}
    : {
        committedMs: commit(transcript.committedMs, channel, segment.endMs),
        unstored: [...transcript.unstored, { seq, channel, startMs: segment.startMs }],
      };
  return {
    transcript: { ...transcript, segments: seq, lastFinalEndMs, cepstralMeans, ...committed },
    command: { type: 'store_final', sessionId, seq, segment, provisional, cepstralMeans },
  };
}

/** The channel's cepstral mean is `mean` when the final reported one; the others' as they were. */
function channelsOf(means: CepstralMeans, channel: number, mean: readonly number[] | undefined): CepstralMeans {
  if (mean === undefined) return means;
  const next: (readonly number[] | null)[] = Array.from({ length: Math.max(means.length, channel + 1) }, (_, index) =>
    index === channel ? mean : (means[index] ?? null),
  );
  return next;
}

/** Per channel, how far the audio is committed and its finals stored: what a client may drop, or a resume skip. */
export function committedOf(transcript: Pick<Transcript, 'committedMs' | 'unstored'>): number[] {
  return transcript.committedMs.map((ms, channel) =>
    transcript.unstored.reduce((upTo, final) => (final.channel === channel ? Math.min(upTo, final.startMs) : upTo), ms),
  );
}

/** The channel's committed position moved to `ms` (session time), never back. */
export function commit(committedMs: readonly number[], channel: number, ms: number): number[] {
  const next = [...committedMs];
  next[channel] = Math.max(next[channel] ?? 0, ms);
  return next;
}
