import { Redis } from 'ioredis';
import type { Logger } from 'pino';

import type { Config } from './config/config.js';
import type { ReadinessCheck } from './operations/routes.js';
import { MemoryRateLimitStore } from './ratelimit/memory-store.js';
import type { RateLimitStore } from './ratelimit/rate-limiter.js';
import { RedisRateLimitStore } from './ratelimit/redis-store.js';
import { openDatabase, type Database } from './store/database.js';
import { migrateToLatest } from './store/migrate.js';

/** The external resources a running service holds, opened from the configuration. */
export interface Runtime {
  database: Database;
  rateLimitStore: RateLimitStore;
  readinessChecks: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, logger: Logger): Promise<Runtime> {
  const database = openDatabase(config.database);
  try {
    const { applied } = await migrateToLatest(database);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
  } catch (error) {
    await database.close();
    throw error;
  }

  if (config.redisUrl === null) {
    const rateLimitStore = new MemoryRateLimitStore();
    return {
      database,
      rateLimitStore,
      readinessChecks: {},
      close: async () => {
        await rateLimitStore.close();
        await database.close();
      },
    };
  }

  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  redis.on('error', (error: Error) => logger.warn({ err: { message: error.message } }, 'redis connection error'));
  return {
    database,
    rateLimitStore: new RedisRateLimitStore(redis),
    readinessChecks: {
      redis: async () => {
        await redis.ping();
      },
    },
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
      await database.close();
    },
  };
}
