import { randomBytes } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import type { Config } from '../config/config.js';
import { MemoryRateLimitStore } from '../ratelimit/memory-store.js';
import type { RateLimitStore } from '../ratelimit/rate-limiter.js';
import { RedisRateLimitStore } from '../ratelimit/redis-store.js';
import { TEST_REDIS_URL } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { expectWidgetError, widgetCall } from '@chartwright/testing/widget-encounters.js';

const redisPrefix = `cw_test_widget_api:${randomBytes(6).toString('hex')}:`;
let redis: Redis | undefined;

const STORES: { name: string; skip: boolean; open: () => RateLimitStore }[] = [
  { name: 'memory', skip: false, open: () => new MemoryRateLimitStore() },
  {
    name: 'Redis',
    skip: TEST_REDIS_URL === undefined,
    open: () =>
      new RedisRateLimitStore((redis ??= new Redis(TEST_REDIS_URL ?? '', { maxRetriesPerRequest: 1 })), redisPrefix),
  },
];

afterAll(async () => {
  if (redis === undefined) return;
  const keys = await redis.keys(`${redisPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe.each(STORES)('widget API rate limits ($name store)', ({ skip, open }) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function service(config: Partial<Config>): Promise<Harness> {
    h = await createHarness({ config, rateLimitStore: open() });
    return h;
  }

  async function tokenFor(service: Harness, partnerKey: string, emrUserId: string): Promise<string> {
    return (await service.mintWidgetToken(partnerKey, { userEmail: `${emrUserId}@clinic.example`, emrUserId })).token;
  }

  const session = (service: Harness, token: string, remoteAddress = '127.0.0.1') =>
    service.app.inject({
      method: 'GET',
      url: '/api/widget/session',
      headers: { authorization: `Bearer ${token}` },
      remoteAddress,
    });

  it.skipIf(skip)('limits each clinician, leaving their colleagues their own allowance', async () => {
    const s = await service({ widgetApiRateLimitPerClinicianPerMinute: 5, widgetApiRateLimitPerPartnerPerMinute: 100 });
    const partner = await s.createPartner();
    const [first, colleague] = [
      await tokenFor(s, partner.partnerKey, 'u-1'),
      await tokenFor(s, partner.partnerKey, 'u-2'),
    ];
    for (let call = 1; call <= 5; call += 1) {
      const response = await session(s, first);
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe('5');
      expect(response.headers['ratelimit-remaining']).toBe(String(5 - call));
    }
    const refused = await session(s, first);
    expectWidgetError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe(refused.headers['ratelimit-reset']);
    // Every route of the widget API counts, not only this one.
    expectWidgetError(await widgetCall(s, first, 'POST', '/api/widget/encounters'), 429, 'rate_limited');
    expect((await session(s, colleague)).statusCode).toBe(200);
    s.clock.advance(Number(refused.headers['retry-after']) * 1000);
    expect((await session(s, first)).statusCode).toBe(200);
  });

  it.skipIf(skip)('limits all of a partner’s clinicians together, leaving other partners theirs', async () => {
    const s = await service({ widgetApiRateLimitPerClinicianPerMinute: 100, widgetApiRateLimitPerPartnerPerMinute: 6 });
    const partner = await s.createPartner();
    const other = await s.createPartner({ origins: ['https://other-emr.example.com'] });
    const clinicians = [await tokenFor(s, partner.partnerKey, 'u-1'), await tokenFor(s, partner.partnerKey, 'u-2')];
    for (let call = 0; call < 6; call += 1) {
      expect((await session(s, clinicians[call % 2] ?? '')).statusCode).toBe(200);
    }
    const refused = await session(s, clinicians[0] ?? '');
    expectWidgetError(refused, 429, 'rate_limited');
    expect(refused.headers['ratelimit-limit']).toBe('6');
    expectWidgetError(await session(s, clinicians[1] ?? ''), 429, 'rate_limited');
    expect((await session(s, await tokenFor(s, other.partnerKey, 'u-1'))).statusCode).toBe(200);
  });

  it.skipIf(skip)('throttles failed tokens per address before checking the token, but not expired ones', async () => {
    const s = await service({ widgetAuthFailuresPerMinute: 3 });
    const partner = await s.createPartner({ tokenLifetimeSeconds: 300 });
    const token = await tokenFor(s, partner.partnerKey, 'u-1');
    const attacker = '198.51.100.7';
    for (const forged of ['not-a-jwt', `${token}x`, 'a.b.c']) {
      expectWidgetError(await session(s, forged, attacker), 401, 'invalid_widget_token');
    }
    // The genuine token from that address is refused unread; from another address it works.
    const refused = await session(s, token, attacker);
    expectWidgetError(refused, 429, 'rate_limited');
    expect(refused.headers['ratelimit-limit']).toBe('3');
    expect((await session(s, token, '198.51.100.8')).statusCode).toBe(200);

    // A clinic whose widgets all present their expired tokens before refreshing is not throttled.
    s.clock.advance(300_000);
    for (let call = 0; call < 10; call += 1) {
      expectWidgetError(await session(s, token, '203.0.113.5'), 401, 'widget_token_expired');
    }
    expect((await session(s, await tokenFor(s, partner.partnerKey, 'u-1'), '203.0.113.5')).statusCode).toBe(200);
  });
});
