import type { TranscriptSpeaker } from '@chartwright/protocol';

import { WidgetApiError } from '../api/widget-api-error.js';
import type { ControllerContext } from './context.js';
import { describe, whileBusy } from './notices.js';
import { activeEncounterOf, type TranscriptLine } from './widget-state.js';

/** A line as the clinician corrects it: what was said, and who said it. */
export interface LineCorrection {
  text: string;
  speaker: TranscriptSpeaker;
}

/**
 * The clinician's corrections of the transcript before the note is written: a line's words or its
 * speaker (kept by the service as a revision of the segment) and, in one click, which voice is the
 * clinician across the recording.
 */
export class TranscriptController {
  constructor(private readonly context: ControllerContext) {}

  /**
   * Saves what changed of a line (its words, its speaker); resolves whether the line is as the
   * clinician has it now (an editor stays open otherwise).
   */
  async correct(lineId: string, correction: LineCorrection): Promise<boolean> {
    const found = this.lineOf(lineId);
    const text = correction.text.trim();
    if (found === null || text === '') return false;
    const { encounterId, line } = found;
    const change = {
      ...(text === line.segment.text ? {} : { text }),
      ...(correction.speaker === line.segment.speaker ? {} : { speaker: correction.speaker }),
    };
    if (Object.keys(change).length === 0) return true;
    let saved = false;
    await whileBusy(
      this.context.store,
      'correcting_transcript',
      async () => {
        const segment = await this.context.api.correctTranscriptSegment(
          encounterId,
          { realtimeSessionId: line.realtimeSessionId, segmentId: line.segment.id },
          change,
        );
        this.context.store.dispatch({
          type: 'transcript_corrected',
          realtimeSessionId: line.realtimeSessionId,
          segments: [segment],
        });
        saved = true;
      },
      (error) =>
        error instanceof WidgetApiError && error.code === 'revision_conflict'
          ? 'The line was corrected elsewhere at the same moment. Try again.'
          : describe(error),
    );
    return saved;
  }

  /** The line's speaker and the other one exchange roles (clinician ↔ patient) across its realtime session. */
  async swapRoles(lineId: string): Promise<void> {
    const found = this.lineOf(lineId);
    const speakerLabel = found?.line.segment.speakerLabel;
    if (found === null || speakerLabel === undefined) return;
    const { encounterId, line } = found;
    await whileBusy(this.context.store, 'correcting_transcript', async () => {
      const realtimeSession = await this.context.api.swapSpeakerRoles(encounterId, line.realtimeSessionId, {
        speakerLabel,
      });
      this.context.store.dispatch({
        type: 'transcript_corrected',
        realtimeSessionId: realtimeSession.id,
        segments: realtimeSession.segments,
      });
    });
  }

  private lineOf(lineId: string): { encounterId: string; line: TranscriptLine } | null {
    const encounter = activeEncounterOf(this.context.store.state);
    const line = encounter?.transcript.find((candidate) => candidate.id === lineId);
    return encounter === null || line === undefined ? null : { encounterId: encounter.encounterId, line };
  }
}
