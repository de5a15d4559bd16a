import { WidgetApiError } from '../api/widget-api-error.js';
import type { ControllerContext } from './context.js';
import { describe, whileBusy } from './notices.js';
import { activeEncounterOf, type TranscriptLine } from './widget-state.js';

/**
 * The clinician's corrections of the transcript before the note is written: a line's words (kept
 * by the service as a revision of the segment) and, in one click, which speaker is the clinician.
 */
export class TranscriptController {
  constructor(private readonly context: ControllerContext) {}

  /** Saves the clinician's wording of a line; resolves whether it was saved (an editor stays open otherwise). */
  async correct(lineId: string, text: string): Promise<boolean> {
    const found = this.lineOf(lineId);
    if (found === null || text.trim() === '') return false;
    const { encounterId, line } = found;
    let saved = false;
    await whileBusy(
      this.context.store,
      'correcting_transcript',
      async () => {
        const segment = await this.context.api.correctTranscriptSegment(
          encounterId,
          { realtimeSessionId: line.realtimeSessionId, segmentId: line.segment.id },
          { text },
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
