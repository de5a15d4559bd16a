import type { FastifyInstance } from 'fastify';

import type { Retention } from '../retention/retention.js';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs the retention sweep once when the app is ready and hourly while it runs. Reads already refuse
 * expired records; the sweep deletes them, so a late or failed sweep loses nothing.
 */
export function registerRetentionSweep(app: FastifyInstance, retention: Retention): void {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    retention.sweep().then(
      (deleted) => {
        if (Object.values(deleted).some((count) => count > 0)) {
          app.log.info({ deleted }, 'deleted records past their retention');
        }
      },
      (error: unknown) => app.log.warn({ err: error }, 'retention sweep failed'),
    );
  };
  app.addHook('onReady', (done) => {
    run();
    timer = setInterval(run, SWEEP_INTERVAL_MS);
    timer.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}
