/**
 * The event-loop delay of the bench target's process (the service's event loop), sampled by
 * perf_hooks and read over HTTP by the runner: `POST /reset` starts a window, `GET /` reports it.
 * A separate listener, so reading it costs the service nothing.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

import Fastify, { type FastifyInstance } from 'fastify';

export interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export const LOOP_DELAY_PATH = '/loop-delay';

/**
 * The histogram records the time between ticks of a timer of this period, so a loop that is never
 * late reads this much: it is taken off, and what is reported is how late the loop was.
 */
const RESOLUTION_MS = 1;

export function loopDelayProbe(): FastifyInstance {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const probe = Fastify();
  probe.addHook('onClose', (_instance, done) => {
    histogram.disable();
    done();
  });
  probe.post(LOOP_DELAY_PATH, (_request, reply) => {
    histogram.reset();
    return reply.code(204).send();
  });
  probe.get(LOOP_DELAY_PATH, (): LoopDelay => {
    const ms = (nanoseconds: number): number => Math.max(0, nanoseconds / 1e6 - RESOLUTION_MS);
    return { p50Ms: ms(histogram.percentile(50)), p99Ms: ms(histogram.percentile(99)), maxMs: ms(histogram.max) };
  });
  return probe;
}
