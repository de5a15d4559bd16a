/** What the realtime WebSocket tells operators (docs/operations.md, Metrics): its sessions on this instance. */
import type { Counter } from 'prom-client';

import type { Metrics } from '../metrics/metrics.js';

type Refusal = 'at_capacity' | 'tenant_at_capacity';
/** Which limit refused: the instance's session cap, its recognizer's capacity, a project's or a credential's share. */
export type RefusedCap = 'instance' | 'recognizer' | 'project' | 'key';
const CAPS = {
  instance: 'at_capacity',
  recognizer: 'at_capacity',
  project: 'tenant_at_capacity',
  key: 'tenant_at_capacity',
} as const satisfies Record<RefusedCap, Refusal>;

export class RealtimeMetrics {
  readonly #started: Counter<'kind'>;
  readonly #refused: Counter<'reason' | 'cap'>;

  /** `openSessions`: the sockets the instance serves now, as its cap counts them. */
  constructor(metrics: Metrics, openSessions: () => number) {
    metrics.gauge({
      name: 'realtime_sessions_open',
      help: 'Realtime WebSockets this instance serves now, started or not (what REALTIME_MAX_SESSIONS caps).',
      read: (record) => record(openSessions()),
    });
    this.#started = metrics.counter({
      name: 'realtime_sessions_started_total',
      help: 'Realtime sessions that reached started on this instance: new, or resumed after a lost socket.',
      labelNames: ['kind'],
    });
    this.#refused = metrics.counter({
      name: 'realtime_sessions_refused_total',
      help: 'Realtime sockets refused for capacity: at_capacity (the instance cap or its recognizer) or tenant_at_capacity (a project or credential share), by the cap that refused.',
      labelNames: ['reason', 'cap'],
    });
    for (const kind of ['new', 'resumed']) this.#started.inc({ kind }, 0);
    for (const [cap, reason] of Object.entries(CAPS)) this.#refused.inc({ reason, cap }, 0);
  }

  started(resumed: boolean): void {
    this.#started.inc({ kind: resumed ? 'resumed' : 'new' });
  }

  refused(cap: RefusedCap): void {
    this.#refused.inc({ reason: CAPS[cap], cap });
  }
}
