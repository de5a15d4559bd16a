/** A realtime session's own record: stored at `started`, reopened by a resume, ended or touched at the end. */
import type { RealtimeEndReason, StartMessage } from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';

import type { CepstralMeans } from '../asr/recognizer.js';
import type { ConnectionOrigin, RealtimeAudit } from '../audit/realtime-audit.js';
import type { Principal } from '../auth/principal.js';
import { hashSecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { RealtimeMetrics } from './realtime-metrics.js';
import type {
  RealtimeSessionRow,
  RealtimeSessionsRepository,
  TranscriptSegmentsRepository,
} from '../store/realtime-sessions.js';
import type { TranscriptCorrectionsRepository } from '../store/transcript-corrections.js';
import type { Identity, ProvisionalSegments } from './session-machine/index.js';

/** How far a session's audio got: transcribed to the end, and committed per channel (session ms). */
export interface Progress {
  transcribedMs: number;
  committedMs: readonly number[];
  cepstralMeans: CepstralMeans;
}

/** Where sessions, their segments and the clinician's corrections of them are stored. */
export interface RealtimeStore {
  sessions: RealtimeSessionsRepository;
  segments: TranscriptSegmentsRepository;
  corrections: TranscriptCorrectionsRepository;
}

export class SessionRecords {
  constructor(
    private readonly deps: {
      store: RealtimeStore;
      clock: Clock;
      logger: FastifyBaseLogger;
      audit: RealtimeAudit;
      origin: ConnectionOrigin;
      usage: UsageRecorder;
      metrics: RealtimeMetrics;
    },
    private readonly principal: Principal,
  ) {}

  /**
   * Stores a new session, or reopens the one a resume continues, settling the provisional segments
   * its lost socket stored (see session-machine/types.ts) first; throws when it cannot. They are
   * settled only now, once the recognizer is open, so a resume refused before this loses none.
   */
  async open(
    identity: Identity,
    start: StartMessage,
    resumed: { provisional: ProvisionalSegments } | undefined,
    now: number,
  ): Promise<void> {
    const { sessions, segments } = this.deps.store;
    if (resumed === undefined) {
      await sessions.insert(this.rowOf(identity, start, now));
    } else {
      await segments.settleProvisional(identity.sessionId, resumed.provisional);
      await sessions.reopen(identity.sessionId, now);
    }
    await this.deps.audit.sessionOpened(
      this.principal,
      { id: identity.sessionId, resumed: resumed !== undefined },
      this.deps.origin,
    );
    this.deps.metrics.started(resumed !== undefined);
  }

  /**
   * Counts the audio transcribed since the session's stored progress (its last socket's end, for a
   * resumed session), so a session resumed on any instance is counted once.
   */
  private async countAudio(sessionId: string, progress: Progress): Promise<void> {
    const stored = await this.deps.store.sessions.get(sessionId);
    const seconds = Math.round((progress.transcribedMs - (stored?.audio_ms ?? 0)) / 1000);
    this.deps.usage.count(this.principal, 'realtimeAudioSeconds', seconds);
  }

  /** The session ended: when, why, and how far its audio got. A failure is logged, not thrown. */
  async end(sessionId: string, reason: RealtimeEndReason, progress: Progress): Promise<void> {
    try {
      await this.countAudio(sessionId, progress);
      await this.deps.store.sessions.markEnded(sessionId, {
        endedAt: this.deps.clock.now(),
        reason,
        audioMs: progress.transcribedMs,
        committedMs: progress.committedMs,
        cepstralMeans: progress.cepstralMeans,
      });
    } catch (error) {
      this.deps.logger.error({ err: error, sessionId }, 'realtime session end not stored');
    }
  }

  /** The session lost its socket: seen now, and how far its audio got. A failure is logged, not thrown. */
  async interrupt(sessionId: string, progress: Progress): Promise<void> {
    try {
      await this.countAudio(sessionId, progress);
      await this.deps.store.sessions.interrupted(sessionId, this.deps.clock.now(), {
        audioMs: progress.transcribedMs,
        committedMs: progress.committedMs,
        cepstralMeans: progress.cepstralMeans,
      });
    } catch (error) {
      this.deps.logger.error({ err: error, sessionId }, 'realtime session state not stored');
    }
  }

  private rowOf(identity: Identity, start: StartMessage, now: number): RealtimeSessionRow {
    const principal = this.principal;
    const issuer = principal.kind === 'realtime_token' ? principal.issuer : undefined;
    return {
      id: identity.sessionId,
      project_id: principal.projectId,
      environment: principal.environment,
      credential_kind: principal.kind,
      api_key_id: principal.kind === 'api_key' ? principal.apiKeyId : issuer?.kind === 'api_key' ? issuer.id : null,
      partner_id: issuer?.kind === 'partner' ? issuer.id : null,
      encounter_id: principal.kind === 'realtime_token' ? principal.encounterId : null,
      resume_token_hash: hashSecret(identity.resumeToken),
      audio_format: JSON.stringify(start.audio),
      language: start.language,
      created_at: now,
      last_seen_at: now,
      ended_at: null,
      end_reason: null,
      audio_ms: 0,
      committed_ms: null,
      cepstral_means: null,
    };
  }
}
