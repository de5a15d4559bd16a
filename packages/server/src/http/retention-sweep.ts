import type { FastifyInstance } from 'fastify';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs `sweep` once when the app is ready and hourly while it runs. Reads already refuse expired
 * records; the sweep frees their space, so a late or failed sweep loses nothing.
 */
export function registerRetentionSweep(app: FastifyInstance, what: string, sweep: () => Promise<number>): void {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    sweep().then(
      (deleted) => {
        if (deleted > 0) app.log.info({ deleted, what }, 'deleted records past their retention');
      },
      (error: unknown) => app.log.warn({ err: error, what }, 'retention sweep failed'),
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
