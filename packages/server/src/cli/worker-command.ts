import { systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import { createJobs, type JobOutcomes } from '../jobs/jobs.js';
import { createLogger, flushLogs } from '../logger.js';
import { Metrics } from '../metrics/metrics.js';
import { NoteService } from '../notes/note-service.js';
import { notePoolFor } from '../notes/pool/note-pool.js';
import { generatedSecrets } from '../secrets/key-file.js';
import { sealingSecret } from '../services.js';
import { openDatabase } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { createRepositories } from '../store/repositories.js';
import { UsageRecorder } from '../usage/usage-recorder.js';

const DAY_MS = 86_400_000;

/** `notes ready 3, failed 0, …; deliveries succeeded 6, …`: what this worker did, for its operator's log. */
function outcomeLine(outcomes: JobOutcomes): string {
  const counts = (record: Readonly<Record<string, number>>) =>
    Object.entries(record)
      .map(([outcome, count]) => `${outcome} ${count}`)
      .join(', ');
  return `notes ${counts(outcomes.notes)}; deliveries ${counts(outcomes.deliveries)}`;
}

/**
 * `chartwright worker`: runs asynchronous notes' jobs and their webhook deliveries, as the service
 * does, on the same database, key file and (when REDIS_URL is set) Redis queue, until SIGTERM or
 * SIGINT; then it finishes the jobs it runs and exits 0. Notes are written in its own note worker
 * pool (NOTES_WORKERS), so writing them scales with these processes, on other machines too.
 */
export async function runWorker(
  config: Config,
  io: { out(text: string): void },
  signals: NodeJS.EventEmitter = process,
): Promise<number> {
  const logger = createLogger(config.logLevel);
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
    const repositories = createRepositories(database);
    const secrets = {
      file: generatedSecrets(config.keyFile),
      database: repositories.serviceSecrets,
      clock: systemClock,
    };
    const secretKey = await sealingSecret(config, secrets);
    const usage = new UsageRecorder(repositories, systemClock, logger);
    const notePool = notePoolFor(config.notes, logger, new Metrics());
    const notes = new NoteService(
      repositories,
      systemClock,
      notePool.write,
      config.notes.retentionDays * DAY_MS,
      usage,
    );
    const jobs = createJobs(config, { repositories, clock: systemClock, logger, notes, secretKey, notePool });
    usage.start();
    jobs.work();
    const queue = config.redisUrl === null ? 'the database' : 'Redis';
    io.out(`chartwright worker: running note and webhook jobs from ${queue} (pid ${process.pid})`);
    const signal = await new Promise<string>((resolve) => {
      for (const name of ['SIGTERM', 'SIGINT']) signals.once(name, () => resolve(name));
    });
    logger.info({ signal }, 'worker stopping');
    // Jobs first: the runs they wait for are written in the note pool.
    await jobs.close(config.shutdownTimeoutMs);
    await notePool.close();
    io.out(`chartwright worker: stopped; ${outcomeLine(jobs.outcomes())}`);
    await usage.close();
    await flushLogs(logger);
    return 0;
  } finally {
    await database.close();
  }
}
