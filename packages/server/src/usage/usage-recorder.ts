import type { UsageMetric } from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';

import type { ProjectScope } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import type { Repositories } from '../store/repositories.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const FLUSH_INTERVAL_MS = 60_000;

/** The UTC day of an instant, YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Counts use per project environment, metric and UTC day, and which API keys were used, in memory,
 * and adds them to the database once a minute (and on close): a console that shows usage and
 * "last used" costs no write per request. Instances add their counts up; a crash loses at most the
 * last minute's, which is why usage is reporting, never billing-grade metering.
 */
export class UsageRecorder {
  readonly #counts = new Map<string, { scope: ProjectScope; day: string; metric: UsageMetric; count: number }>();
  /** Keys used since the last flush, with the hour they were used in. */
  readonly #keysUsed = new Map<string, number>();
  /** The hour each key's last use was written for, so it is written once an hour at most. */
  readonly #keyHoursWritten = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #day = '';
  /** Start of the day `#day` names; -Infinity until the first count. */
  #dayStarts = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly logger: FastifyBaseLogger,
  ) {}

  count(scope: ProjectScope, metric: UsageMetric, amount = 1): void {
    if (amount <= 0) return;
    const day = this.today();
    const key = `${scope.projectId}\n${scope.environment}\n${day}\n${metric}`;
    const entry = this.#counts.get(key);
    if (entry === undefined) this.#counts.set(key, { scope, day, metric, count: amount });
    else entry.count += amount;
  }

  /** The UTC day, formatted once a day rather than on every request (this is the REST hot path). */
  private today(): string {
    const now = this.clock.now();
    if (now < this.#dayStarts || now >= this.#dayStarts + DAY_MS) {
      this.#dayStarts = now - (now % DAY_MS);
      this.#day = utcDay(now);
    }
    return this.#day;
  }

  keyUsed(apiKeyId: string): void {
    const now = this.clock.now();
    const hour = now - (now % HOUR_MS);
    if (this.#keyHoursWritten.get(apiKeyId) !== hour) this.#keysUsed.set(apiKeyId, hour);
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** Adds what was counted since the last flush; what fails to be written is kept for the next. */
  async flush(): Promise<void> {
    const counts = [...this.#counts.values()];
    this.#counts.clear();
    const keysUsed = [...this.#keysUsed];
    this.#keysUsed.clear();
    try {
      await this.repositories.usageCounters.add(
        counts.map(({ scope, day, metric, count }) => ({
          project_id: scope.projectId,
          environment: scope.environment,
          day,
          metric,
          count,
        })),
      );
    } catch (error) {
      for (const entry of counts) this.count(entry.scope, entry.metric, entry.count);
      this.logger.warn({ err: error }, 'usage counts not stored; kept for the next flush');
    }
    const byHour = new Map<number, string[]>();
    for (const [id, hour] of keysUsed) byHour.set(hour, [...(byHour.get(hour) ?? []), id]);
    for (const [hour, ids] of byHour) {
      try {
        await this.repositories.apiKeys.recordUse(ids, hour);
        for (const id of ids) this.#keyHoursWritten.set(id, hour);
      } catch (error) {
        this.logger.warn({ err: error }, 'API key last use not stored');
      }
    }
  }
}
