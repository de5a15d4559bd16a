/**
 * The HTTP side of the metrics: every answer in one duration histogram by route, method and
 * status, and every 429 by the limit that refused it.
 */
import type { FastifyInstance } from 'fastify';
import type { Histogram } from 'prom-client';

import { RATE_LIMITERS, RateLimitRefusal } from '../http/rate-limit.js';
import type { Metrics } from './metrics.js';

/**
 * What a request no route took counts under: its path may hold anything (ids, a scanner's probes,
 * a patient's name typed into a URL), and each path its own series would grow without bound.
 */
const UNMATCHED_ROUTE = 'unmatched';

/** From a cached key lookup (about a millisecond) to a note from a slow provider. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type RequestLabel = 'method' | 'route' | 'status_code';
type Series = ReturnType<Histogram<RequestLabel>['labels']>;

/** Each route, method and status's series, made once: a request allocates no labels. */
class RequestSeries {
  readonly #byRoute = new Map<string, Map<string, Map<number, Series>>>();

  constructor(private readonly histogram: Histogram<RequestLabel>) {}

  of(route: string, method: string, status: number): Series {
    let byMethod = this.#byRoute.get(route);
    if (byMethod === undefined) this.#byRoute.set(route, (byMethod = new Map<string, Map<number, Series>>()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(status);
    if (series === undefined) {
      series = this.histogram.labels({ method, route, status_code: String(status) });
      byStatus.set(status, series);
    }
    return series;
  }
}

/**
 * Makes `metrics` the app's (`app.metrics`, which the metrics listener serves) and counts its HTTP
 * traffic into them. Called before the areas are registered, so its hooks reach every route and
 * both not-found handlers.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.decorate('metrics', metrics);
  const requests = new RequestSeries(
    metrics.histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests answered, by route pattern, method and status, and how long each took (its _count is the request count).',
      labelNames: ['method', 'route', 'status_code'],
      buckets: DURATION_BUCKETS,
    }),
  );
  // A callback hook, as the service's own are: cheaper than an async one on every request.
  app.addHook('onResponse', (request, reply, done) => {
    // The pattern the route was registered with (`/api/v1/notes/:id`), never the URL.
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    requests.of(route, request.method, reply.statusCode).observe(reply.elapsedTime / 1000);
    done();
  });

  const refusals = metrics.counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 rate_limited, by the limit that refused them.',
    labelNames: ['limiter'],
  });
  // Every limit reports from the start, so a rate over any of them is 0 rather than absent.
  for (const limiter of RATE_LIMITERS) refusals.inc({ limiter }, 0);
  app.addHook('onError', (_request, _reply, error, done) => {
    if (error instanceof RateLimitRefusal) refusals.inc({ limiter: error.limiter });
    done();
  });
}
