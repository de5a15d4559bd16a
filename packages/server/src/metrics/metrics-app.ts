/**
 * The operators' listener: `GET /metrics` in the Prometheus text format, on METRICS_HOST:METRICS_PORT
 * and never on the public port, so a load balancer in front of the service cannot expose it and
 * Prometheus scrapes each instance at its own address. With METRICS_TOKEN set, a scrape must bring it
 * as a bearer token (compared in constant time); without one, the listener is on a loopback address
 * (config/metrics-config.ts refuses anything else). Like the public port, it answers errors and
 * unknown paths with the REST error body.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type onRequestHookHandler } from 'fastify';

import { credentialFromAuthorization } from '../auth/authenticator.js';
import { sameSecret } from '../auth/secrets.js';
import type { MetricsConfig } from '../config/metrics-config.js';
import { AppError } from '../errors.js';
import { errorBody } from '../http/error-body.js';
import { answerErrorsWith } from '../http/error-handler.js';
import { echoRequestId, requestIdFor } from '../http/request-id.js';
import { RequestLogController } from '../http/request-log.js';
import { registerRouteTable } from '../http/route-table.js';
import type { Metrics } from './metrics.js';

const METRICS_PATH = '/metrics';

function bearerToken(expected: string): onRequestHookHandler {
  // A throw here is answered as done(error) would be (Fastify runs hooks in a try).
  return (request, _reply, done) => {
    const presented = credentialFromAuthorization(request.headers.authorization, 'metrics token');
    if (!sameSecret(presented, expected)) {
      throw new AppError('invalid_metrics_token', 'The bearer token is not this instance’s METRICS_TOKEN.');
    }
    done();
  };
}

/** The metrics listener's app. Never listens: server.ts does, and tests use inject(). */
export function buildMetricsApp(config: MetricsConfig, metrics: Metrics, logger: FastifyBaseLogger): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    genReqId: requestIdFor,
    requestIdHeader: false,
    logController: new RequestLogController(),
  });
  answerErrorsWith(app, errorBody);
  registerRouteTable(app);
  echoRequestId(app);
  metrics.includeProcessMetrics();
  app.get(
    METRICS_PATH,
    { onRequest: config.token === null ? [] : [bearerToken(config.token)] },
    async (_request, reply) => {
      const text = await metrics.render();
      return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
    },
  );
  return app;
}

/** Starts the listener the configuration asks for; null when METRICS_PORT is unset (the default). */
export async function listenForMetrics(
  config: MetricsConfig | null,
  metrics: Metrics,
  logger: FastifyBaseLogger,
): Promise<FastifyInstance | null> {
  if (config === null) return null;
  const app = buildMetricsApp(config, metrics, logger);
  await app.listen({ host: config.host, port: config.port });
  logger.info({ address: app.addresses()[0], token: config.token !== null }, 'metrics listening');
  return app;
}
