import {
  segmentSeq,
  type CorrectTranscriptSegmentParams,
  type RealtimeSessionResource,
  type TranscriptSegment,
} from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { WidgetSession } from '../partners/widget-sessions.js';
import type { RealtimeSessionArchive } from '../realtime/session-archive.js';
import type { Repositories } from '../store/repositories.js';
import type { TranscriptSpeakerRoleRow } from '../store/transcript-corrections.js';
import { requireOwnedEncounter } from './owned-encounter.js';

/** Two corrections of one segment saved at once: the later one is numbered after the first, once. */
const REVISION_ATTEMPTS = 2;

type Role = TranscriptSpeakerRoleRow['speaker'];
const otherRole = (role: Role): Role => (role === 'clinician' ? 'patient' : 'clinician');

/**
 * The clinician's corrections of an encounter's transcript before the note is written: a segment's
 * words or speaker (a new revision; the recognised segment stays as it was), and the roles of a
 * realtime session's speakers swapped in one go. Every transcript read applies them.
 */
export class TranscriptCorrectionService {
  constructor(private readonly deps: { repositories: Repositories; clock: Clock; archive: RealtimeSessionArchive }) {}

  async correctSegment(
    widgetSession: WidgetSession,
    target: { encounterId: string; realtimeSessionId: string; segmentId: string },
    correction: CorrectTranscriptSegmentParams,
  ): Promise<TranscriptSegment> {
    const session = await this.realtimeSessionOf(widgetSession, target.encounterId, target.realtimeSessionId);
    const seq = segmentSeq(target.segmentId);
    if (seq === undefined || !session.segments.some((segment) => segment.id === target.segmentId)) {
      throw new AppError(
        'transcript_segment_not_found',
        `No segment ${target.segmentId} was stored in realtime session ${session.id}.`,
      );
    }
    const { transcriptCorrections } = this.deps.repositories;
    for (let attempt = 0; attempt < REVISION_ATTEMPTS; attempt++) {
      const latest = (await transcriptCorrections.latestRevisions(session.id)).get(seq);
      const stored = await transcriptCorrections.insertRevision({
        session_id: session.id,
        seq,
        revision: (latest?.revision ?? 0) + 1,
        text: correction.text ?? latest?.text ?? null,
        speaker: correction.speaker ?? latest?.speaker ?? null,
        clinician_id: widgetSession.clinician.id,
        created_at: this.deps.clock.now(),
      });
      if (stored) return this.segmentAsRead(target.encounterId, session.id, target.segmentId);
    }
    throw new AppError(
      'revision_conflict',
      'The segment was corrected meanwhile; reload the transcript and try again.',
    );
  }

  /**
   * The label's role becomes the other one (clinician ↔ patient), and the labels that held that
   * other role take the label's: the two speakers exchange roles across the whole realtime session,
   * finals that arrive later included.
   */
  async swapRoles(
    widgetSession: WidgetSession,
    target: { encounterId: string; realtimeSessionId: string },
    speakerLabel: string,
  ): Promise<RealtimeSessionResource> {
    const session = await this.realtimeSessionOf(widgetSession, target.encounterId, target.realtimeSessionId);
    const roles = rolesOf(session);
    const role = roles.get(speakerLabel);
    if (role === undefined) {
      throw new AppError(
        'speaker_label_not_found',
        `No segment of realtime session ${session.id} has that speaker label.`,
      );
    }
    if (role === 'unknown') {
      throw new AppError(
        'speaker_role_unknown',
        'That speaker is neither the clinician nor the patient, so there is no role to swap; correct its segments instead.',
      );
    }
    const swapped = otherRole(role);
    const now = this.deps.clock.now();
    const changes = [...roles]
      .filter(([label, current]) => label === speakerLabel || current === swapped)
      .map(([label]): TranscriptSpeakerRoleRow => ({
        session_id: session.id,
        speaker_label: label,
        speaker: label === speakerLabel ? swapped : role,
        clinician_id: widgetSession.clinician.id,
        updated_at: now,
      }));
    await this.deps.repositories.transcriptCorrections.setRoles(changes);
    return this.deps.archive.retrieveForEncounter(target.encounterId, session.id);
  }

  private async realtimeSessionOf(
    widgetSession: WidgetSession,
    encounterId: string,
    realtimeSessionId: string,
  ): Promise<RealtimeSessionResource> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
    return this.deps.archive.retrieveForEncounter(encounter.id, realtimeSessionId);
  }

  private async segmentAsRead(encounterId: string, realtimeSessionId: string, segmentId: string) {
    const session = await this.deps.archive.retrieveForEncounter(encounterId, realtimeSessionId);
    const segment = session.segments.find((candidate) => candidate.id === segmentId);
    if (segment === undefined) {
      throw new AppError(
        'transcript_segment_not_found',
        `No segment ${segmentId} was stored in this realtime session.`,
      );
    }
    return segment;
  }
}

/**
 * Each speaker label's role as the session reads now: the role swapped for it, else what the
 * recognizer gave its latest segment (a segment's own correction is not its label's role).
 */
function rolesOf(session: RealtimeSessionResource): Map<string, TranscriptSegment['speaker']> {
  const roles = new Map<string, TranscriptSegment['speaker']>();
  for (const segment of session.segments) {
    if (segment.speakerLabel === undefined) continue;
    const recognised = segment.original?.speaker ?? segment.speaker;
    roles.set(segment.speakerLabel, session.speakerRoles[segment.speakerLabel] ?? recognised);
  }
  return roles;
}
