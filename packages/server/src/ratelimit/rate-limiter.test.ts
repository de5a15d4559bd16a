import { randomBytes } from 'node:crypto';

import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

import { ManualClock } from '../clock.js';
import { TEST_REDIS_URL } from '@chartwright/testing/databases.js';
import { MemoryRateLimitStore } from './memory-store.js';
import { RateLimiter, decide, type RateLimitStore } from './rate-limiter.js';
import { RedisRateLimitStore } from './redis-store.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** 2026-01-01T00:00:00Z, which is the start of a one-minute window. */
const T0 = Date.UTC(2026, 0, 1);

describe('decide', () => {
  it('allows the request that reaches the limit exactly, resetting when the next one fits', () => {
    // The next request fits once the 10 of this window, as the previous one, weigh 9: 6 s into the next.
    expect(decide({ previous: 0, current: 10 }, 10, MINUTE, T0)).toEqual({
      allowed: true,
      limit: 10,
      remaining: 0,
      retryAfterSeconds: 0,
      resetSeconds: 66,
    });
  });

  it('refuses the request one over the limit', () => {
    const decision = decide({ previous: 0, current: 11 }, 10, MINUTE, T0);
    expect(decision).toMatchObject({ allowed: false, limit: 10, remaining: 0 });
    expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('counts down the remaining requests', () => {
    expect(decide({ previous: 0, current: 1 }, 10, MINUTE, T0).remaining).toBe(9);
    expect(decide({ previous: 0, current: 7 }, 10, MINUTE, T0).remaining).toBe(3);
  });

  it('weights the previous window by how much of it the sliding window still covers', () => {
    const counts = { previous: 10, current: 0 };
    // At the start of a window all of the previous one still counts, half of it halfway, a tenth near the end.
    expect(decide(counts, 100, MINUTE, T0).remaining).toBe(90);
    expect(decide(counts, 100, MINUTE, T0 + 30 * SECOND).remaining).toBe(95);
    expect(decide(counts, 100, MINUTE, T0 + 54 * SECOND).remaining).toBe(99);
  });

  it('refuses when the weighted previous window plus the current one exceed the limit', () => {
    // Halfway through: 10 previous weigh 5, so 5 current fit and a sixth does not.
    expect(decide({ previous: 10, current: 5 }, 10, MINUTE, T0 + 30 * SECOND).allowed).toBe(true);
    expect(decide({ previous: 10, current: 6 }, 10, MINUTE, T0 + 30 * SECOND).allowed).toBe(false);
    // Later in the window the previous one weighs less, and the same six fit.
    expect(decide({ previous: 10, current: 6 }, 10, MINUTE, T0 + 40 * SECOND).allowed).toBe(true);
  });

  it('reports the seconds until the current window ends while requests remain, at least 1', () => {
    expect(decide({ previous: 0, current: 1 }, 10, MINUTE, T0).resetSeconds).toBe(60);
    expect(decide({ previous: 0, current: 1 }, 10, MINUTE, T0 + 15_500).resetSeconds).toBe(45);
    expect(decide({ previous: 0, current: 1 }, 10, MINUTE, T0 + MINUTE - 1).resetSeconds).toBe(1);
  });

  it('gives a Retry-After of at least 1 second even when room comes within milliseconds', () => {
    // 1000 previous still weigh 2 with 120 ms of the window left; room comes as they slide out.
    const decision = decide({ previous: 1000, current: 9 }, 10, MINUTE, T0 + MINUTE - 120);
    expect(decision.allowed).toBe(false);
    expect(decision.retryAfterSeconds).toBe(1);
  });

  it('points a refusal caused by the previous window inside the current window', () => {
    const decision = decide({ previous: 10, current: 6 }, 10, MINUTE, T0 + 30 * SECOND);
    expect(decision.allowed).toBe(false);
    expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(decision.retryAfterSeconds).toBeLessThanOrEqual(30);
  });

  it('points a refusal caused by a full current window past its end, but within the next window', () => {
    const decision = decide({ previous: 0, current: 11 }, 10, MINUTE, T0 + 20 * SECOND);
    expect(decision.retryAfterSeconds).toBeGreaterThan(40);
    expect(decision.retryAfterSeconds).toBeLessThanOrEqual(40 + 60);
  });

  it('gives a refusal the same RateLimit-Reset as Retry-After, wherever in the window it falls', () => {
    // The case: a window full on its own, refused 21 s in (the window ends in 39 s).
    const decision = decide({ previous: 0, current: 21 }, 20, MINUTE, T0 + 21 * SECOND);
    expect(decision.retryAfterSeconds).toBeGreaterThan(39);
    expect(decision.resetSeconds).toBe(decision.retryAfterSeconds);
    let refusals = 0;
    for (const at of [0, 1, 15_500, 30 * SECOND, MINUTE - 1]) {
      for (const counts of [
        { previous: 10, current: 6 },
        { previous: 0, current: 11 },
        { previous: 1000, current: 9 },
      ]) {
        const refused = decide(counts, 10, MINUTE, T0 + at);
        if (refused.allowed) continue;
        refusals += 1;
        expect(refused.resetSeconds).toBe(refused.retryAfterSeconds);
      }
    }
    expect(refusals).toBeGreaterThanOrEqual(10);
  });
});

/** Hits until the first refusal; returns the limiter's answer to it. */
async function hitUntilRefused(limiter: RateLimiter, subject: string, limit: number, windowMs: number) {
  for (let hits = 1; hits <= limit * 3 + 1; hits += 1) {
    const decision = await limiter.hit(subject, limit, windowMs);
    if (!decision.allowed) return decision;
  }
  throw new Error('never refused');
}

interface StoreCase {
  name: string;
  skip: boolean;
  /** A new store; the stores one case opens share their counts, as Redis-backed instances do. */
  open: () => RateLimitStore;
  cleanUp: () => Promise<void>;
  numRuns: number;
}

async function deleteRedisKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

function connectRedis(): Redis {
  if (TEST_REDIS_URL === undefined) throw new Error('TEST_REDIS_URL is not set');
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
}

function redisCase(): StoreCase {
  // Unique per run, so parallel runs against one Redis never meet; deleted afterwards.
  const prefix = `cw_test_ratelimit:${randomBytes(6).toString('hex')}:`;
  let redis: Redis | undefined;
  return {
    name: 'RedisRateLimitStore',
    skip: TEST_REDIS_URL === undefined,
    open: () => new RedisRateLimitStore((redis ??= connectRedis()), prefix),
    cleanUp: async () => {
      if (redis === undefined) return;
      await deleteRedisKeys(redis, prefix);
      await redis.quit();
    },
    numRuns: 40,
  };
}

const STORE_CASES: StoreCase[] = [
  {
    name: 'MemoryRateLimitStore',
    skip: false,
    open: () => new MemoryRateLimitStore(),
    cleanUp: () => Promise.resolve(),
    numRuns: 200,
  },
  redisCase(),
];

let subjectCounter = 0;
/** A subject no other test used, so tests sharing a store never share counts. */
const freshSubject = () => `subject-${(subjectCounter += 1)}`;

describe.each(STORE_CASES)('RateLimiter over $name', ({ skip, open, cleanUp, numRuns }) => {
  afterAll(cleanUp);

  describe.skipIf(skip)('store', () => {
    it('counts hits per window and hands the last window on as the previous one', async () => {
      const store = open();
      const subject = freshSubject();
      const index = Math.floor(T0 / MINUTE);
      expect(await store.increment(subject, index, MINUTE)).toEqual({
        current: 1,
        previous: 0,
      });
      expect(await store.increment(subject, index, MINUTE)).toEqual({
        current: 2,
        previous: 0,
      });
      expect(await store.increment(subject, index + 1, MINUTE)).toEqual({
        current: 1,
        previous: 2,
      });
      expect(await store.increment(subject, index + 1, MINUTE)).toEqual({
        current: 2,
        previous: 2,
      });
      // A window with no hits in between: nothing carries over.
      expect(await store.increment(subject, index + 3, MINUTE)).toEqual({
        current: 1,
        previous: 0,
      });
      await store.close();
    });

    it('peeks at both windows without counting', async () => {
      const store = open();
      const subject = freshSubject();
      expect(await store.peek(subject, 5)).toEqual({ current: 0, previous: 0 });
      await store.increment(subject, 5, MINUTE);
      await store.increment(subject, 5, MINUTE);
      expect(await store.peek(subject, 5)).toEqual({ current: 2, previous: 0 });
      expect(await store.peek(subject, 6)).toEqual({ current: 0, previous: 2 });
      expect(await store.peek(subject, 7)).toEqual({ current: 0, previous: 0 });
      // Peeking added nothing.
      expect(await store.increment(subject, 5, MINUTE)).toEqual({ current: 3, previous: 0 });
      await store.close();
    });

    it('keeps subjects apart', async () => {
      const store = open();
      const [a, b] = [freshSubject(), freshSubject()];
      await store.increment(a, 5, MINUTE);
      await store.increment(a, 5, MINUTE);
      expect(await store.increment(b, 5, MINUTE)).toEqual({
        current: 1,
        previous: 0,
      });
      await store.close();
    });
  });

  describe.skipIf(skip)('limiter', () => {
    it('allows up to the limit in a window and refuses the next request', async () => {
      const clock = new ManualClock(T0 + 10 * SECOND);
      const limiter = new RateLimiter(open(), () => clock.now());
      const subject = freshSubject();
      for (let hit = 1; hit <= 5; hit += 1) {
        expect(await limiter.hit(subject, 5, MINUTE)).toMatchObject({
          allowed: true,
          remaining: 5 - hit,
        });
      }
      const refused = await limiter.hit(subject, 5, MINUTE);
      expect(refused).toMatchObject({ allowed: false, remaining: 0 });
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.resetSeconds).toBe(refused.retryAfterSeconds);
      // Another subject is unaffected.
      expect((await limiter.hit(freshSubject(), 5, MINUTE)).allowed).toBe(true);
    });

    it('tells from a peek whether one more hit would be allowed, counting nothing', async () => {
      const clock = new ManualClock(T0 + 10 * SECOND);
      const limiter = new RateLimiter(open(), () => clock.now());
      const subject = freshSubject();
      for (let hit = 1; hit <= 3; hit += 1) {
        expect(await limiter.peek(subject, 3, MINUTE)).toMatchObject({ allowed: true, remaining: 3 - hit });
        await limiter.hit(subject, 3, MINUTE);
      }
      const refused = await limiter.peek(subject, 3, MINUTE);
      expect(refused).toMatchObject({ allowed: false, remaining: 0 });
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(await limiter.peek(subject, 3, MINUTE)).toEqual(refused);
      clock.advance(refused.retryAfterSeconds * SECOND);
      expect((await limiter.peek(subject, 3, MINUTE)).allowed).toBe(true);
    });

    it('allows a new request once Retry-After has passed', async () => {
      const clock = new ManualClock(T0 + 10 * SECOND);
      const limiter = new RateLimiter(open(), () => clock.now());
      const subject = freshSubject();
      const refused = await hitUntilRefused(limiter, subject, 5, MINUTE);
      clock.advance(refused.retryAfterSeconds * SECOND);
      expect((await limiter.hit(subject, 5, MINUTE)).allowed).toBe(true);
    });

    it('smooths the burst at a window edge with the weighted previous window', async () => {
      const clock = new ManualClock(T0 + MINUTE - SECOND);
      const limiter = new RateLimiter(open(), () => clock.now());
      const subject = freshSubject();
      for (let hit = 0; hit < 10; hit += 1) expect((await limiter.hit(subject, 10, MINUTE)).allowed).toBe(true);
      // One second later a new fixed window begins, but the 10 hits still weigh almost fully.
      clock.advance(SECOND);
      const refused = await limiter.hit(subject, 10, MINUTE);
      expect(refused.allowed).toBe(false);
      clock.advance(refused.retryAfterSeconds * SECOND);
      expect((await limiter.hit(subject, 10, MINUTE)).allowed).toBe(true);
    });

    it('always allows a request made Retry-After seconds after a refusal (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 12 }),
          fc.constantFrom(1000, 1500, 7000, MINUTE, 3_600_000),
          // Gaps between hits as fractions of a window: mostly bursts, sometimes a pause of a window or two.
          fc.array(
            fc.oneof(fc.double({ min: 0, max: 0.05, noNaN: true }), fc.double({ min: 0, max: 2.2, noNaN: true })),
            {
              minLength: 1,
              maxLength: 40,
            },
          ),
          async (limit, windowMs, gaps) => {
            const clock = new ManualClock(T0 + 7);
            const limiter = new RateLimiter(open(), () => clock.now());
            const subject = freshSubject();
            for (const gap of gaps) {
              clock.advance(Math.floor(gap * windowMs));
              const decision = await limiter.hit(subject, limit, windowMs);
              expect(decision.resetSeconds).toBeGreaterThanOrEqual(1);
              if (decision.remaining > 0) {
                expect(decision.resetSeconds).toBeLessThanOrEqual(Math.ceil(windowMs / SECOND));
              }
              if (decision.allowed) {
                expect(decision.retryAfterSeconds).toBe(0);
                continue;
              }
              expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
              expect(decision.resetSeconds).toBe(decision.retryAfterSeconds);
              // Never longer than what is left of this window plus the next one.
              const windowLeftSeconds = Math.ceil((windowMs - (clock.now() % windowMs)) / SECOND);
              expect(decision.retryAfterSeconds).toBeLessThanOrEqual(windowLeftSeconds + Math.ceil(windowMs / SECOND));
              clock.advance(decision.retryAfterSeconds * SECOND);
              expect((await limiter.hit(subject, limit, windowMs)).allowed).toBe(true);
            }
          },
        ),
        { numRuns },
      );
    });
  });
});

describe('MemoryRateLimitStore', () => {
  it('sweeps subjects idle for two windows, and keeps those still needed as the previous window', async () => {
    const store = new MemoryRateLimitStore();
    await store.increment('a', 10);
    await store.increment('b', 10);
    expect(store.size).toBe(2);

    // Window 11: both are still someone's previous window.
    await store.increment('c', 11);
    expect(store.size).toBe(3);

    // Window 12: a and b last counted in window 10 and are swept; c (window 11) stays.
    await store.increment('d', 12);
    expect(store.size).toBe(2);

    // A swept subject starts from zero.
    expect(await store.increment('a', 12)).toEqual({
      current: 1,
      previous: 0,
    });
    expect(await store.increment('c', 12)).toEqual({
      current: 1,
      previous: 1,
    });
    expect(store.size).toBe(3);
  });

  it('stays bounded under a stream of one-off subjects', async () => {
    const store = new MemoryRateLimitStore();
    for (let window = 0; window < 50; window += 1) {
      for (let n = 0; n < 20; n += 1) await store.increment(`w${window}-s${n}`, window);
    }
    // Only the current and previous windows' subjects remain.
    expect(store.size).toBeLessThanOrEqual(40);
  });

  it('forgets everything on close', async () => {
    const store = new MemoryRateLimitStore();
    await store.increment('a', 1);
    await store.close();
    expect(store.size).toBe(0);
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('RedisRateLimitStore across instances', () => {
  const prefix = `cw_test_ratelimit:${randomBytes(6).toString('hex')}:`;
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(TEST_REDIS_URL ?? '', {
      maxRetriesPerRequest: 1,
    });
    connections.push(redis);
    return redis;
  };

  afterAll(async () => {
    const [first] = connections;
    if (first !== undefined) {
      await deleteRedisKeys(first, prefix);
      expect(await first.keys(`${prefix}*`)).toEqual([]);
    }
    await Promise.all(connections.map((redis) => redis.quit()));
  });

  it('shares one count between instances with their own connections', async () => {
    const clock = new ManualClock(T0 + 5 * SECOND);
    const instanceA = new RateLimiter(new RedisRateLimitStore(connect(), prefix), () => clock.now());
    const instanceB = new RateLimiter(new RedisRateLimitStore(connect(), prefix), () => clock.now());

    for (let hit = 0; hit < 3; hit += 1) expect((await instanceA.hit('shared', 5, MINUTE)).allowed).toBe(true);
    expect(await instanceB.hit('shared', 5, MINUTE)).toMatchObject({
      allowed: true,
      remaining: 1,
    });
    expect(await instanceA.hit('shared', 5, MINUTE)).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    expect((await instanceB.hit('shared', 5, MINUTE)).allowed).toBe(false);
    expect((await instanceA.hit('shared', 5, MINUTE)).allowed).toBe(false);

    // The next window sees the shared count as its previous one, on either instance.
    clock.advance(MINUTE - 5 * SECOND);
    expect((await instanceB.hit('shared', 5, MINUTE)).allowed).toBe(false);
  });

  it('keeps separate key prefixes apart', async () => {
    const other = `${prefix}other:`;
    const storeA = new RedisRateLimitStore(connect(), prefix);
    const storeB = new RedisRateLimitStore(connect(), other);
    await storeA.increment('apart', 1, MINUTE);
    await storeA.increment('apart', 1, MINUTE);
    expect(await storeB.increment('apart', 1, MINUTE)).toEqual({
      current: 1,
      previous: 0,
    });
  });

  it('lets every key it writes expire once it can no longer be the previous window', async () => {
    const redis = connect();
    const ttlPrefix = `${prefix}ttl:`;
    const store = new RedisRateLimitStore(redis, ttlPrefix);
    await store.increment('subject', 7, MINUTE);
    await store.increment('subject', 8, MINUTE);
    await store.increment('subject', 8, MINUTE);
    const keys = await redis.keys(`${ttlPrefix}*`);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(MINUTE);
      expect(ttl).toBeLessThanOrEqual(2 * MINUTE);
    }
  });
});
