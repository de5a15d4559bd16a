import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export interface ShutdownOptions {
  app: FastifyInstance;
  closeResources: () => Promise<void>;
  logger: Logger;
  timeoutMs: number;
}

/**
 * Stops accepting connections, lets in-flight requests finish (up to the timeout), then releases
 * the database and Redis. Resolves to the exit code the process should use.
 */
export async function shutDown(options: ShutdownOptions): Promise<number> {
  const { app, closeResources, logger, timeoutMs } = options;
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
