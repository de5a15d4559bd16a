import { REALTIME_ERROR_OUTCOMES, type RealtimeServerEvent } from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';

import type { Recognizer } from '../asr/recognizer.js';
import type { ConnectionOrigin, RealtimeAudit } from '../audit/realtime-audit.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import type { RealtimeConfig } from '../config/config.js';
import type { Metrics } from '../metrics/metrics.js';
import { RealtimeMetrics, type RefusedCap } from './realtime-metrics.js';
import { RecognizerHeadroom } from './recognizer-headroom.js';
import type { RealtimeStore } from './session-records.js';
import { RealtimeSession, type RealtimeSocket, type RealtimeSessionRegistry } from './session.js';

export interface RealtimeSessionInfo {
  id: string;
  projectId: string;
  environment: Principal['environment'];
  credential: Principal['kind'];
}

/**
 * The realtime sessions of this instance: admission (the concurrent-session cap), the registry a
 * resume consults (a session still open here is not resumed twice; one still storing its last
 * segments is waited for), and shutdown.
 */
export class RealtimeService implements RealtimeSessionRegistry {
  readonly #sessions = new Set<RealtimeSession>();
  /** Sessions whose socket closed and that are still storing their last segments, by session id. */
  readonly #settling = new Map<string, Promise<void>>();
  readonly #metrics: RealtimeMetrics;
  readonly #headroom: RecognizerHeadroom;

  constructor(
    private readonly deps: {
      recognizer: Recognizer;
      clock: Clock;
      config: RealtimeConfig;
      logger: FastifyBaseLogger;
      store: RealtimeStore;
      audit: RealtimeAudit;
      usage: UsageRecorder;
      metrics: Metrics;
    },
  ) {
    this.#metrics = new RealtimeMetrics(deps.metrics, () => this.#sessions.size);
    this.#headroom = new RecognizerHeadroom(deps.recognizer, deps.config.recognizerMaxLoadPercent / 100);
    this.#headroom.start();
  }

  holds(id: string, except?: RealtimeSession): boolean {
    for (const session of this.#sessions) if (session !== except && session.id === id) return true;
    return false;
  }

  settled(id: string): Promise<void> {
    return this.#settling.get(id) ?? Promise.resolve();
  }

  /**
   * Takes over an upgraded, authenticated socket. Over the instance's cap it is told `at_capacity`;
   * over its project environment's or its credential's share, `tenant_at_capacity`; either way it
   * is closed with 1013.
   */
  accept(
    socket: RealtimeSocket,
    principal: Principal,
    revalidate: () => Promise<void>,
    origin: ConnectionOrigin,
  ): void {
    const refusal = this.#refusal(principal);
    if (refusal !== null) {
      this.#metrics.refused(refusal.cap);
      const event: RealtimeServerEvent = {
        type: 'error',
        code: refusal.code,
        message: refusal.message,
        fatal: REALTIME_ERROR_OUTCOMES[refusal.code].fatal,
      };
      socket.send(JSON.stringify(event));
      socket.close(REALTIME_ERROR_OUTCOMES[refusal.code].closeCode, refusal.code);
      this.deps.logger.warn(
        { code: refusal.code, cap: refusal.cap, limit: refusal.limit, projectId: principal.projectId },
        'realtime session refused: at capacity',
      );
      return;
    }
    const session = new RealtimeSession(
      socket,
      principal,
      { ...this.deps, realtimeMetrics: this.#metrics, registry: this, revalidate, origin },
      (closed) => {
        this.#sessions.delete(closed);
        const id = closed.id;
        const settled = closed.done().finally(() => {
          if (this.#settling.get(id) === settled) this.#settling.delete(id);
        });
        this.#settling.set(id, settled);
      },
    );
    this.#sessions.add(session);
  }

  /**
   * Why a new socket of `principal` may not be served, or null. The instance cap keeps the
   * recognizer workers within what they decode in real time; the project and key caps keep one
   * tenant (or one leaked key) from taking all of it.
   */
  #refusal(principal: Principal): {
    code: 'at_capacity' | 'tenant_at_capacity';
    cap: RefusedCap;
    limit: number;
    message: string;
  } | null {
    const { maxSessions, maxSessionsPerProject, maxSessionsPerKey } = this.deps.config;
    if (this.#atInstanceCap()) {
      return {
        code: 'at_capacity',
        cap: 'instance',
        limit: maxSessions,
        message: `This instance serves ${maxSessions} realtime sessions at once; retry shortly.`,
      };
    }
    const key = credentialOf(principal);
    let ofProject = 0;
    let ofKey = 0;
    for (const { principal: open } of this.#sessions) {
      if (open.projectId !== principal.projectId || open.environment !== principal.environment) continue;
      ofProject++;
      if (credentialOf(open) === key) ofKey++;
    }
    if (ofKey >= maxSessionsPerKey) {
      return {
        code: 'tenant_at_capacity',
        cap: 'key',
        limit: maxSessionsPerKey,
        message: `This ${key.startsWith('partner:') ? 'partner' : 'key'} has ${maxSessionsPerKey} realtime sessions open on this instance, its limit; end one or retry shortly.`,
      };
    }
    if (ofProject >= maxSessionsPerProject) {
      return {
        code: 'tenant_at_capacity',
        cap: 'project',
        limit: maxSessionsPerProject,
        message: `This project environment has ${maxSessionsPerProject} realtime sessions open on this instance, its limit; end one or retry shortly.`,
      };
    }
    return this.#recognizerRefusal();
  }

  #recognizerRefusal(): { code: 'at_capacity'; cap: 'recognizer'; limit: number; message: string } | null {
    const refusal = this.#headroom.refusal(this.#sessions.size);
    if (refusal === null) return null;
    return refusal.reason === 'behind'
      ? {
          code: 'at_capacity',
          cap: 'recognizer',
          limit: 0,
          message: `This instance's speech recognizer is ${Math.round(refusal.behindSeconds)} s behind real time; retry shortly or on another instance.`,
        }
      : {
          code: 'at_capacity',
          cap: 'recognizer',
          limit: refusal.capacity,
          message: `This instance's speech recognizer transcribes ${refusal.capacity} live stream${refusal.capacity === 1 ? '' : 's'} at once; retry shortly or on another instance.`,
        };
  }

  /** Whether a new socket would be admitted as far as the instance goes (its tenants' shares apart). */
  hasRoom(): boolean {
    return !this.#atInstanceCap() && this.#headroom.refusal(this.#sessions.size) === null;
  }

  #atInstanceCap(): boolean {
    return this.#sessions.size >= this.deps.config.maxSessions;
  }

  /** Open sessions (sockets accepted and not yet closed), for diagnostics and tests. */
  sessions(): RealtimeSessionInfo[] {
    return [...this.#sessions].map((session) => ({
      id: session.id,
      projectId: session.principal.projectId,
      environment: session.principal.environment,
      credential: session.principal.kind,
    }));
  }

  /**
   * Ends this instance's sessions recording the encounter now (credential_expired, 4002); another
   * instance's end at their next credential check, once the encounter's tokens are gone.
   */
  stopEncounter(encounterId: string): void {
    for (const session of this.#sessions) {
      if (session.principal.kind === 'realtime_token' && session.principal.encounterId === encounterId) {
        session.credentialRevoked();
      }
    }
  }

  /** Every session gets `ended` (server_shutdown) and close 1001. */
  shutdown(): void {
    this.#headroom.stop();
    for (const session of this.#sessions) session.shutdown();
  }

  /** Resolves once every closed session has stored its last segments (before the database closes). */
  async drain(): Promise<void> {
    await Promise.all([...this.#settling.values(), ...[...this.#sessions].map((session) => session.done())]);
  }
}

/**
 * The credential a socket's session counts against: the sk_ key that opened it or minted its
 * realtime token, or the partner whose widget minted it.
 */
function credentialOf(principal: Principal): string {
  if (principal.kind === 'api_key') return `api_key:${principal.apiKeyId}`;
  return `${principal.issuer.kind}:${principal.issuer.id}`;
}
