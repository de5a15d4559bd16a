import Fastify, { type FastifyInstance } from 'fastify';

import { apiArea, consoleArea, publicArea, WIDGET_API_PREFIX, widgetApiArea } from './areas.js';
import type { Config } from './config/config.js';
import { clientErrorHandler, watchEarlyAnswers } from './http/client-errors.js';
import { limitConnectionsPerAddress } from './http/connection-limits.js';
import { registerDraining, type Draining } from './http/draining.js';
import { errorBody } from './http/error-body.js';
import { answerErrorsWith } from './http/error-handler.js';
import { frameworkErrors } from './http/framework-errors.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { RequestLogController } from './http/request-log.js';
import { echoRequestId, requestIdFor } from './http/request-id.js';
import { registerRetentionSweep } from './http/retention-sweep.js';
import { registerRouteTable } from './http/route-table.js';
import { registerMetrics } from './metrics/http-metrics.js';
import type { Metrics } from './metrics/metrics.js';
import type { NotePool } from './notes/pool/note-pool.js';
import { proxyTrust } from './http/trusted-proxies.js';
import { registerRealtimeRoute } from './realtime/route.js';
import type { RealtimeService } from './realtime/service.js';
import type { Jobs } from './jobs/jobs.js';
import { createServices, type AppDependencies, type Services } from './services.js';
import type { UsageRecorder } from './usage/usage-recorder.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The realtime WebSocket's sessions on this instance. */
    realtime: RealtimeService;
    /** The note workers of this instance (diagnostics, supervision tests). */
    notePool: NotePool;
    /** Asynchronous notes' queue and webhooks; `metrics()` for the metrics listener. */
    jobs: Jobs;
    /** This instance's usage counts not yet stored (flushed each minute and on close). */
    usage: UsageRecorder;
    /** What this instance measures, for the metrics listener (server.ts). */
    metrics: Metrics;
    /** Leaving the load balancer before closing (shutdown.ts): readiness off, requests still served. */
    draining: Draining;
  }
}

/**
 * The note pool and the jobs that write asynchronous notes in it: the jobs run once the app is
 * ready (unless workers run them all), and close before the pool, whose notes their runs wait for
 * (at most SHUTDOWN_TIMEOUT_MS: a run cut short is run again elsewhere).
 */
function registerNoteWriting(app: FastifyInstance, services: Services, config: Config): void {
  app.decorate('notePool', services.notePool);
  app.decorate('jobs', services.jobs);
  if (config.jobs.inService) {
    app.addHook('onReady', (done) => {
      services.jobs.work();
      done();
    });
  }
  app.addHook('onClose', async () => {
    await services.jobs.close(config.shutdownTimeoutMs);
    await services.notePool.close();
  });
}

/** Assembles the HTTP service. Never listens: main.ts does, and tests use inject() or port 0. */
export async function buildApp(config: Config, deps: AppDependencies): Promise<FastifyInstance> {
  const trustProxy = proxyTrust(config.trustProxy);
  const { requestTimeoutMs, headersTimeoutMs, maxPerAddress } = config.connections;
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger,
    genReqId: requestIdFor,
    requestIdHeader: false,
    logController: new RequestLogController(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy,
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      // How often Node looks for requests past their timeouts (its default, 30 s, would let a slow
      // request live twice its timeout).
      connectionsCheckingInterval: Math.min(1000, Math.ceil(headersTimeoutMs / 4)),
    },
    clientErrorHandler: clientErrorHandler(deps.logger),
    frameworkErrors: frameworkErrors(WIDGET_API_PREFIX),
    // Draining answers late requests itself, with the service's error body.
    return503OnClosing: false,
  });
  limitConnectionsPerAddress(app.server, { max: maxPerAddress, trust: trustProxy, logger: deps.logger });
  watchEarlyAnswers(app);
  // Plumbing before any area, so its hooks and handlers reach every route.
  answerErrorsWith(app, errorBody);
  registerRouteTable(app);
  registerJsonBodyParser(app);
  echoRequestId(app);
  registerDraining(app);

  const services = await createServices(config, deps);
  registerRetentionSweep(app, services.retention);
  app.decorate('realtime', services.realtime);
  app.decorate('operationAudit', services.operationAudit);
  app.decorate('idempotency', services.idempotency);
  registerNoteWriting(app, services, config);
  app.decorate('usage', services.usage);
  services.usage.start();
  app.addHook('onClose', () => services.usage.close());
  registerMetrics(app, services.metrics);

  const areas = { config, deps, services };
  await app.register(publicArea, areas);
  await app.register(apiArea, areas);
  await registerRealtimeRoute(app, {
    authenticator: services.authenticator,
    service: services.realtime,
    maxFrameBytes: config.realtime.maxFrameBytes,
  });
  await app.register(widgetApiArea, { ...areas, prefix: WIDGET_API_PREFIX });
  await app.register(consoleArea, areas);
  return app;
}
