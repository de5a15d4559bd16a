import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

import { buildApp } from './app.js';
import { createRecognizer } from './asr/create-recognizer.js';
import type { Recognizer } from './asr/recognizer.js';
import { systemClock } from './clock.js';
import { loadConfig, type Config } from './config/config.js';
import { startBanner } from './console/first-start.js';
import { demoBanner, seedDemoPartner, seedDemoProject } from './demo.js';
import { createLogger, flushLogs } from './logger.js';
import { listenForMetrics } from './metrics/metrics-app.js';
import { openRuntime, type Runtime } from './runtime.js';
import { shutDown } from './shutdown.js';
import { createRepositories } from './store/repositories.js';
import { SERVICE_VERSION } from './version.js';

export interface RunningServer {
  app: FastifyInstance;
  config: Config;
  /** Graceful stop, draining first as on SIGTERM; resolves to the exit code. */
  stop(): Promise<number>;
  /** The partner key of the demo EMR `npm start` serves at `origin` (see demo.ts). */
  seedDemoPartner(origin: string): Promise<{ partnerId: string; partnerKey: string }>;
}

/** The service's parts as the configuration makes them, not yet listening. */
export interface AssembledService {
  app: FastifyInstance;
  runtime: Runtime;
  recognizer: Recognizer;
}

/** The database, limits store, recognizer and app the configuration names: what `npm start` runs, and the evaluations measure. */
export async function assembleService(config: Config, logger: Logger): Promise<AssembledService> {
  const runtime = await openRuntime(config, logger);
  let recognizer: Recognizer | undefined;
  try {
    recognizer = await createRecognizer(config, logger);
    const app = await buildApp(config, {
      recognizer,
      database: runtime.database,
      clock: systemClock,
      logger,
      rateLimitStore: runtime.rateLimitStore,
      readinessChecks: runtime.readinessChecks,
    });
    return { app, runtime, recognizer };
  } catch (error) {
    // A refused start must exit: open connections and worker processes would keep it alive.
    await recognizer?.close();
    await runtime.close();
    throw error;
  }
}

/** Starts the service from environment variables and installs SIGTERM/SIGINT handlers. */
export async function createServer(env: Readonly<Record<string, string | undefined>>): Promise<RunningServer> {
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  const { app, runtime, recognizer } = await assembleService(config, logger);

  let metrics: FastifyInstance | null = null;
  let seed: Awaited<ReturnType<typeof seedDemoProject>> | null;
  try {
    seed = config.seedDemo ? await seedDemoProject(createRepositories(runtime.database), systemClock, config) : null;
    // First, so a metrics port in use stops the start before the service takes traffic.
    metrics = await listenForMetrics(config.metrics, app.metrics, logger);
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A refused start (a port in use) must exit: open connections and workers would keep it alive.
    await metrics?.close();
    await app.close();
    await recognizer.close();
    await runtime.close();
    throw error;
  }
  logger.info(
    { version: SERVICE_VERSION, database: config.database.kind, redis: config.redisUrl !== null },
    'chartwright started',
  );
  if (seed !== null) process.stdout.write(demoBanner(seed, config.sandboxBaseUrl));
  process.stdout.write(await startBanner(createRepositories(runtime.database), systemClock, config));

  let stopping: Promise<number> | null = null;
  const hurry = new AbortController();
  const stop = (drainMs = config.shutdownDrainMs) => {
    stopping ??= shutDown({
      app,
      closeResources: async () => {
        // Last to close, so the drain and the shutdown can be watched.
        await metrics?.close();
        await recognizer.close();
        await runtime.close();
      },
      logger,
      timeoutMs: config.shutdownTimeoutMs,
      drainMs,
      hurry: hurry.signal,
    });
    return stopping;
  };
  stopOnSignals({ logger, drainMs: config.shutdownDrainMs, stopping: () => stopping, stop, hurry });
  const seedPartner = async (origin: string) => {
    const issued = await seedDemoPartner(createRepositories(runtime.database), systemClock, config, origin);
    return { partnerId: issued.partner.id, partnerKey: issued.partnerKey };
  };
  return { app, config, stop: () => stop(), seedDemoPartner: seedPartner };
}

/**
 * SIGTERM and SIGINT stop the service. Supervisors and orchestrators send SIGTERM, and a load
 * balancer may be routing to us: drain first. SIGINT is a person at a terminal (Ctrl-C), who wants
 * the service stopped now; so does the other signal arriving while it drains.
 */
function stopOnSignals(options: {
  logger: Logger;
  drainMs: number;
  stopping: () => Promise<number> | null;
  stop: (drainMs: number) => Promise<number>;
  hurry: AbortController;
}): void {
  const { logger, drainMs, stopping, stop, hurry } = options;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (stopping() !== null) hurry.abort();
      else logger.info({ signal }, 'shutting down');
      // Exit explicitly: a stray handle (a client socket, a timer) must not keep a stopped service alive.
      // The log is written asynchronously, so what it still queues is written first.
      void stop(signal === 'SIGTERM' ? drainMs : 0).then(async (code) => {
        await flushLogs(logger);
        process.exit(code);
      });
    });
  }
}
