import { REALTIME_ERROR_OUTCOMES, type RealtimeServerEvent } from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';

import type { Recognizer } from '../asr/recognizer.js';
import type { ConnectionOrigin, RealtimeAudit } from '../audit/realtime-audit.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import type { RealtimeConfig } from '../config/config.js';
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

  constructor(
    private readonly deps: {
      recognizer: Recognizer;
      clock: Clock;
      config: RealtimeConfig;
      logger: FastifyBaseLogger;
      store: RealtimeStore;
      audit: RealtimeAudit;
    },
  ) {}

  holds(id: string, except?: RealtimeSession): boolean {
    for (const session of this.#sessions) if (session !== except && session.id === id) return true;
    return false;
  }

  settled(id: string): Promise<void> {
    return this.#settling.get(id) ?? Promise.resolve();
  }

  /** Takes over an upgraded, authenticated socket; over the cap, it is told `at_capacity` and closed (1013). */
  accept(
    socket: RealtimeSocket,
    principal: Principal,
    revalidate: () => Promise<void>,
    origin: ConnectionOrigin,
  ): void {
    if (this.#sessions.size >= this.deps.config.maxSessions) {
      const event: RealtimeServerEvent = {
        type: 'error',
        code: 'at_capacity',
        message: `This instance serves ${this.deps.config.maxSessions} realtime sessions at once; retry shortly.`,
        fatal: REALTIME_ERROR_OUTCOMES.at_capacity.fatal,
      };
      socket.send(JSON.stringify(event));
      socket.close(REALTIME_ERROR_OUTCOMES.at_capacity.closeCode, 'at_capacity');
      this.deps.logger.warn({ maxSessions: this.deps.config.maxSessions }, 'realtime session refused: at capacity');
      return;
    }
    const session = new RealtimeSession(
      socket,
      principal,
      { ...this.deps, registry: this, revalidate, origin },
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
    for (const session of this.#sessions) session.shutdown();
  }

  /** Resolves once every closed session has stored its last segments (before the database closes). */
  async drain(): Promise<void> {
    await Promise.all([...this.#settling.values(), ...[...this.#sessions].map((session) => session.done())]);
  }
}
