/**
 * Realtime sessions after the fact: reading a session and its stored transcript back, deleting it on
 * request, and the retention sweep. Everything is scoped to the project environment that made it,
 * and a partner widget's encounter sessions to the widget API alone.
 */
import { endedEventSchema, type AudioFormat, type RealtimeSessionResource } from '@chartwright/protocol';

import type { ProjectScope } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import type { RealtimeConfig } from '../config/config.js';
import { AppError } from '../errors.js';
import type { RealtimeSessionRow } from '../store/realtime-sessions.js';
import type { Deletion } from '../retention/deletion.js';
import type { RealtimeStore } from './session-records.js';
import { readSegments, resumeRefusal } from './stored-session.js';

const DAY_MS = 86_400_000;

export class RealtimeSessionArchive {
  private readonly retentionMs: number;

  constructor(
    private readonly deps: {
      store: RealtimeStore;
      clock: Clock;
      config: Pick<RealtimeConfig, 'retentionDays' | 'maxSessionSeconds'>;
      /** True while a socket of this instance streams the session. */
      isStreaming: (id: string) => boolean;
      deletion: Deletion;
    },
  ) {
    this.retentionMs = deps.config.retentionDays * DAY_MS;
  }

  async retrieve(scope: ProjectScope, id: string): Promise<RealtimeSessionResource> {
    const now = this.deps.clock.now();
    return this.resourceOf(await this.find(scope, id, now), now);
  }

  /** A widget encounter's retained sessions with their transcripts, oldest first. */
  async listForEncounter(encounterId: string): Promise<RealtimeSessionResource[]> {
    const now = this.deps.clock.now();
    const rows = await this.deps.store.sessions.listByEncounter(encounterId, now - this.retentionMs);
    return Promise.all(rows.map((row) => this.resourceOf(row, now)));
  }

  /** One retained realtime session of a widget encounter; another encounter's is not found, as an unknown id. */
  async retrieveForEncounter(encounterId: string, id: string): Promise<RealtimeSessionResource> {
    const now = this.deps.clock.now();
    const row = await this.deps.store.sessions.get(id);
    if (row?.encounter_id !== encounterId || row.last_seen_at <= now - this.retentionMs) {
      throw new AppError('realtime_session_not_found', `No realtime session ${id} belongs to this encounter.`);
    }
    return this.resourceOf(row, now);
  }

  private async resourceOf(row: RealtimeSessionRow, now: number): Promise<RealtimeSessionResource> {
    const { segments, roles } = await readSegments(this.deps.store, row.id);
    const open = row.ended_at === null;
    return {
      id: row.id,
      status: open ? 'open' : 'ended',
      endReason: open ? null : (endedEventSchema.shape.reason.safeParse(row.end_reason).data ?? null),
      resumable: resumeRefusal(row, now, this.deps.config.maxSessionSeconds) === undefined,
      language: row.language,
      audio: JSON.parse(row.audio_format) as AudioFormat,
      audioMs: row.audio_ms,
      createdAt: new Date(row.created_at).toISOString(),
      lastActivityAt: new Date(row.last_seen_at).toISOString(),
      endedAt: row.ended_at === null ? null : new Date(row.ended_at).toISOString(),
      expiresAt: new Date(row.last_seen_at + this.retentionMs).toISOString(),
      text: segments
        .map((segment) => segment.text)
        .filter((text) => text !== '')
        .join(' '),
      segments,
      speakerRoles: Object.fromEntries(roles),
    };
  }

  /** Deletes the session and its transcript; one still streaming here must be stopped first. */
  async delete(scope: ProjectScope, id: string): Promise<void> {
    const row = await this.find(scope, id, this.deps.clock.now());
    if (this.deps.isStreaming(row.id)) {
      throw new AppError(
        'realtime_session_active',
        `Realtime session ${row.id} is streaming; send stop (or close its socket) before deleting it.`,
      );
    }
    await this.deps.deletion.realtimeSession(row.id);
  }

  /**
   * A session an sk_ key of its project environment may read or delete. A partner's encounter
   * sessions are not among them: the partner's clinician reaches them through the widget API, and no
   * key of the environment (a sandbox one included) may read or delete their patient's words. They
   * are answered as unknown ids are, so a key cannot learn which exist.
   */
  private async find(scope: ProjectScope, id: string, now: number): Promise<RealtimeSessionRow> {
    const row = await this.deps.store.sessions.getScoped(id, scope, now - this.retentionMs);
    if (row?.encounter_id !== null) {
      throw new AppError(
        'realtime_session_not_found',
        `No realtime session ${id} exists for this key's project environment.`,
      );
    }
    return row;
  }
}
