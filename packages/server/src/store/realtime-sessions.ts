import type { Environment } from '@chartwright/protocol';
import type { Kysely, Selectable } from 'kysely';

import type { CepstralMeans } from '../asr/recognizer.js';

import type { DatabaseSchema, RealtimeSessionsTable, TranscriptSegmentsTable } from './schema.js';

export type RealtimeSessionRow = Selectable<RealtimeSessionsTable>;
export type TranscriptSegmentRow = Selectable<TranscriptSegmentsTable>;

export class RealtimeSessionsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: RealtimeSessionRow): Promise<void> {
    await this.db.insertInto('realtime_sessions').values(row).execute();
  }

  async get(id: string): Promise<RealtimeSessionRow | undefined> {
    return this.db.selectFrom('realtime_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The session, only for its project environment and only while it is retained (active after `retainedAfter`). */
  async getScoped(
    id: string,
    scope: { projectId: string; environment: Environment },
    retainedAfter: number,
  ): Promise<RealtimeSessionRow | undefined> {
    return this.db
      .selectFrom('realtime_sessions')
      .selectAll()
      .where('id', '=', id)
      .where('project_id', '=', scope.projectId)
      .where('environment', '=', scope.environment)
      .where('last_seen_at', '>', retainedAfter)
      .executeTakeFirst();
  }

  /** A widget encounter's retained sessions (active after `retainedAfter`), oldest first. */
  async listByEncounter(encounterId: string, retainedAfter: number): Promise<RealtimeSessionRow[]> {
    return this.db
      .selectFrom('realtime_sessions')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .where('last_seen_at', '>', retainedAfter)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Deletes the session; its segments go with it (foreign key cascade). */
  /** Deletes the session and its transcript; false when there is none. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('realtime_sessions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes sessions (and their segments) last active at or before `cutoff`; returns how many sessions. */
  async deleteLastSeenBy(cutoff: number): Promise<number> {
    const result = await this.db.deleteFrom('realtime_sessions').where('last_seen_at', '<=', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** A lost socket: the session is seen now, transcribed and committed to where its recognizer got. */
  async interrupted(
    id: string,
    now: number,
    progress: { audioMs: number; committedMs: readonly number[]; cepstralMeans: CepstralMeans },
  ): Promise<void> {
    await this.db
      .updateTable('realtime_sessions')
      .set({
        last_seen_at: now,
        audio_ms: progress.audioMs,
        committed_ms: JSON.stringify(progress.committedMs),
        cepstral_means: JSON.stringify(progress.cepstralMeans),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Reopens a session that ended resumably (e.g. its credential expired), for a resume. */
  async reopen(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('realtime_sessions')
      .set({ last_seen_at: now, ended_at: null, end_reason: null })
      .where('id', '=', id)
      .execute();
  }

  /** The session ended (it sent `ended`): when, why, the audio it transcribed and how far it was committed. */
  async markEnded(
    id: string,
    end: {
      endedAt: number;
      reason: string;
      audioMs: number;
      committedMs: readonly number[];
      cepstralMeans: CepstralMeans;
    },
  ): Promise<void> {
    await this.db
      .updateTable('realtime_sessions')
      .set({
        ended_at: end.endedAt,
        last_seen_at: end.endedAt,
        end_reason: end.reason,
        audio_ms: end.audioMs,
        committed_ms: JSON.stringify(end.committedMs),
        cepstral_means: JSON.stringify(end.cepstralMeans),
      })
      .where('id', '=', id)
      .execute();
  }
}

export class TranscriptSegmentsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /**
   * Stores a segment. A live final comes with the session's cepstral means after it, stored in the
   * same transaction: should the process die, a resume on any instance starts its recognizer where
   * this final left it rather than cold (a cold start can garble the utterance the death cut).
   */
  async insert(row: TranscriptSegmentRow, cepstralMeans?: CepstralMeans): Promise<void> {
    if (cepstralMeans === undefined) {
      await this.db.insertInto('transcript_segments').values(row).execute();
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('transcript_segments').values(row).execute();
      await trx
        .updateTable('realtime_sessions')
        .set({ cepstral_means: JSON.stringify(cepstralMeans) })
        .where('id', '=', row.session_id)
        .execute();
    });
  }

  /** The session's segments with a seq above `afterSeq` (0: all of them), in seq order. */
  async listAfter(sessionId: string, afterSeq = 0): Promise<TranscriptSegmentRow[]> {
    return this.db
      .selectFrom('transcript_segments')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .execute();
  }

  /**
   * What becomes of the provisional segments a lost socket stored (see schema.ts) when a resume
   * continues the session: `replace` deletes them (the resumed decode stores the utterance again,
   * whole, under the same numbers), `keep` makes them ordinary segments.
   */
  async settleProvisional(sessionId: string, provisional: 'replace' | 'keep'): Promise<void> {
    if (provisional === 'replace') {
      await this.db
        .deleteFrom('transcript_segments')
        .where('session_id', '=', sessionId)
        .where('provisional', '=', 1)
        .execute();
      return;
    }
    await this.db
      .updateTable('transcript_segments')
      .set({ provisional: 0 })
      .where('session_id', '=', sessionId)
      .where('provisional', '=', 1)
      .execute();
  }
}
