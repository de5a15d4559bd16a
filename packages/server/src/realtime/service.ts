import { REALTIME_CLOSE_CODES, type RealtimeServerEvent } from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';

import type { Recognizer } from '../asr/recognizer.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import type { RealtimeConfig } from '../config/config.js';
import { RealtimeSession, type RealtimeSocket } from './session.js';

export interface RealtimeSessionInfo {
  id: string;
  projectId: string;
  environment: Principal['environment'];
  credential: Principal['kind'];
}

/** The realtime sessions of this instance: admission (the concurrent-session cap) and shutdown. */
export class RealtimeService {
  readonly #sessions = new Set<RealtimeSession>();

  constructor(
    private readonly deps: {
      recognizer: Recognizer | undefined;
      clock: Clock;
      config: RealtimeConfig;
      logger: FastifyBaseLogger;
    },
  ) {}

  /** Takes over an upgraded, authenticated socket; over the cap, it is told `at_capacity` and closed (1013). */
  accept(socket: RealtimeSocket, principal: Principal): void {
    if (this.#sessions.size >= this.deps.config.maxSessions) {
      const event: RealtimeServerEvent = {
        type: 'error',
        code: 'at_capacity',
        message: `This instance serves ${this.deps.config.maxSessions} realtime sessions at once; retry shortly.`,
        fatal: true,
      };
      socket.send(JSON.stringify(event));
      socket.close(REALTIME_CLOSE_CODES.tryAgainLater, 'at_capacity');
      this.deps.logger.warn({ maxSessions: this.deps.config.maxSessions }, 'realtime session refused: at capacity');
      return;
    }
    const session = new RealtimeSession(socket, principal, this.deps, (closed) => this.#sessions.delete(closed));
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

  /** Every session gets `ended` (server_shutdown) and close 1001. */
  shutdown(): void {
    for (const session of this.#sessions) session.shutdown();
  }
}
