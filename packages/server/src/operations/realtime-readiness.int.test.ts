import { healthSchema, REALTIME_CLOSE_CODES } from '@chartwright/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { testConfig } from '../config/config.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { open, realtimeUrl } from '@chartwright/testing/realtime-client.js';
import { missingSpeechTools, PocketSphinxRecognizer } from '@chartwright/testing/speech.js';

const missing = await missingSpeechTools();

/**
 * `GET /readyz/realtime`, which a load balancer's realtime backend checks: ready only while a new
 * realtime socket would be served, so new sockets go to an instance with room instead of being
 * refused `at_capacity` by a full one.
 */
describe('readiness for new realtime sessions', () => {
  it('is 503 without a working recognizer, though the instance is ready for REST', async () => {
    const h = await createHarness();
    try {
      expect((await h.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const response = await h.request({ method: 'GET', url: '/readyz/realtime' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(healthSchema.parse(response.json())).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', recognizer: 'unavailable', capacity: 'ok' },
      });
    } finally {
      await h.close();
    }
  });

  describe.skipIf(missing.length > 0)('with the recognizer', () => {
    let recognizer: PocketSphinxRecognizer;
    let h: Harness;
    beforeAll(async () => {
      recognizer = new PocketSphinxRecognizer({ workers: 1 });
      h = await createHarness({ recognizer, config: { realtime: { ...testConfig().realtime, maxSessions: 1 } } });
    });
    afterAll(async () => {
      await h.close();
      await recognizer.close();
    });

    it('is 503 "capacity" while the instance holds as many sockets as it serves, and 200 again once one closes', async () => {
      const ready = async () => {
        const response = await h.request({ method: 'GET', url: '/readyz/realtime' });
        return { status: response.statusCode, body: healthSchema.parse(response.json()) };
      };
      expect(await ready()).toEqual({
        status: 200,
        body: { status: 'ok', checks: { database: 'ok', recognizer: 'ok', capacity: 'ok' } },
      });
      const client = await open(await realtimeUrl(h.app), { bearer: h.project.testKey });
      await expect.poll(() => h.app.realtime.sessions().length).toBe(1);
      expect(await ready()).toEqual({
        status: 503,
        body: { status: 'unavailable', checks: { database: 'ok', recognizer: 'ok', capacity: 'unavailable' } },
      });
      // What the check foretold: the next socket is refused.
      const refused = await open(await realtimeUrl(h.app), { bearer: h.project.testKey });
      expect(await refused.next('error')).toMatchObject({ code: 'at_capacity' });
      expect((await refused.closed).code).toBe(REALTIME_CLOSE_CODES.tryAgainLater);

      client.socket.close();
      await expect.poll(() => h.app.realtime.sessions().length).toBe(0);
      expect((await ready()).status).toBe(200);
    });
  });
});
