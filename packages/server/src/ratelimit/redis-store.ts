import type { Redis } from 'ioredis';

import type { RateLimitStore, WindowCounts } from './rate-limiter.js';

// One round trip, atomic across instances: bump this window, read the previous one, and let each
// window's key expire once it can no longer be anyone's "previous".
const INCREMENT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local previous = redis.call('GET', KEYS[2])
return {current, tonumber(previous) or 0}
`;

/** Counts shared by every instance that talks to the same Redis. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'chartwright:ratelimit:',
  ) {
    redis.defineCommand('chartwrightRateLimitIncrement', { numberOfKeys: 2, lua: INCREMENT_SCRIPT });
  }

  async increment(subject: string, windowIndex: number, windowMs: number): Promise<WindowCounts> {
    const key = (index: number) => this.key(subject, index);
    const command = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<[number, number]>>)[
      'chartwrightRateLimitIncrement'
    ];
    if (command === undefined) throw new Error('rate limit script is not defined');
    const [current, previous] = await command.call(this.redis, key(windowIndex), key(windowIndex - 1), windowMs * 2);
    return { current, previous };
  }

  async peek(subject: string, windowIndex: number): Promise<WindowCounts> {
    const [current, previous] = await this.redis.mget(
      this.key(subject, windowIndex),
      this.key(subject, windowIndex - 1),
    );
    return { current: Number(current ?? 0), previous: Number(previous ?? 0) };
  }

  private key(subject: string, windowIndex: number): string {
    return `${this.keyPrefix}${subject}:${windowIndex}`;
  }

  async close(): Promise<void> {
    // The Redis connection is owned by whoever created it.
  }
}
