/** What the realtime WebSocket tells operators (docs/operations.md, Metrics): its sessions on this instance. */
import type { Counter } from 'prom-client';

import type { Metrics } from '../metrics/metrics.js';

type Refusal = 'at_capacity' | 'tenant_at_capacity';

export class RealtimeMetrics {
  readonly #started: Counter<'kind'>;
  readonly #refused: Counter<'reason'>;

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
      help: 'Realtime sockets refused for capacity: the instance cap (at_capacity) or a tenant share (tenant_at_capacity).',
      labelNames: ['reason'],
    });
    for (const kind of ['new', 'resumed']) this.#started.inc({ kind }, 0);
    for (const reason of ['at_capacity', 'tenant_at_capacity'] satisfies Refusal[]) this.#refused.inc({ reason }, 0);
  }

  started(resumed: boolean): void {
    this.#started.inc({ kind: resumed ? 'resumed' : 'new' });
  }

  refused(reason: Refusal): void {
    this.#refused.inc({ reason });
  }
}
