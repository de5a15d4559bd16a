import { setTimeout as sleep } from 'node:timers/promises';

import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export interface ShutdownOptions {
  app: FastifyInstance;
  closeResources: () => Promise<void>;
  logger: Logger;
  timeoutMs: number;
  /** How long the instance stays up but not ready before it stops accepting connections (0: at once). */
  drainMs: number;
  /** Ends the drain early (another signal): the service closes at once. */
  hurry?: AbortSignal;
}

/**
 * Leaves the load balancer first: /readyz answers 503 for `drainMs` while every request is still
 * served, so the balancer's health checks take the instance out before its listener closes and no
 * request is sent to a closed port. Then stops accepting connections, lets in-flight requests
 * finish (up to the timeout), and releases the database and Redis. Resolves to the exit code.
 */
export async function shutDown(options: ShutdownOptions): Promise<number> {
  const { app, closeResources, logger, timeoutMs, drainMs, hurry } = options;
  if (drainMs > 0 && hurry?.aborted !== true) {
    app.draining.leave();
    logger.info({ drainMs }, 'not ready: leaving the load balancer before closing');
    await sleep(drainMs, undefined, hurry === undefined ? {} : { signal: hurry }).catch(() => undefined);
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([app.close().then(() => 'closed' as const), timedOut]);
    if (outcome === 'timeout') {
      logger.warn({ timeoutMs }, 'in-flight requests did not finish in time; closing anyway');
      app.server.closeAllConnections();
    }
    await closeResources();
    logger.info('shut down cleanly');
    return outcome === 'timeout' ? 1 : 0;
  } catch (error) {
    logger.error({ err: error }, 'error during shutdown');
    return 1;
  } finally {
    clearTimeout(timer);
  }
}
