import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

import type { ErrorBody, WidgetErrorEnvelope } from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';

import { testConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import { openRuntime, type Runtime } from '../runtime.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

const REDIS_SERVER_INSTALLED = spawnSync('redis-server', ['--version']).status === 0;

/** A redis-server of the test's own, on a spare port, that the test may kill. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  // Refused connections are expected until the server listens.
  probe.on('error', () => undefined);
  await expect.poll(async () => probe.ping().catch(() => 'down'), { timeout: 10_000 }).toBe('PONG');
  probe.disconnect();
  return child;
}

describe('rate-limited routes while Redis cannot be reached', () => {
  let runtime: Runtime | undefined;
  let h: Harness | undefined;
  let redisServer: ChildProcess | undefined;
  afterEach(async () => {
    redisServer?.kill('SIGKILL');
    await h?.close();
    await runtime?.close();
    [runtime, h, redisServer] = [undefined, undefined, undefined];
  });

  /** The service with the rate-limit store `npm start` opens for REDIS_URL. */
  async function serviceWithRedisAt(port: number): Promise<Harness> {
    runtime = await openRuntime(testConfig({ redisUrl: `redis://127.0.0.1:${port}` }), createLogger('silent'));
    h = await createHarness({ rateLimitStore: runtime.rateLimitStore });
    return h;
  }

  const templates = (service: Harness) =>
    service.request({ method: 'GET', url: '/api/v1/templates', key: service.project.testKey });

  async function widgetToken(service: Harness): Promise<LightMyRequestResponse> {
    const partner = await service.createPartner();
    return service.app.inject({
      method: 'POST',
      url: '/api/widget/token',
      headers: { 'x-partner-key': partner.partnerKey },
      payload: { userEmail: 'dr.who@clinic.example', emrUserId: 'emr-user-1' },
    });
  }

  function expectUnavailable(response: LightMyRequestResponse): void {
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
  }

  it('answers 503 service_unavailable with Retry-After, on the REST API and the widget API', async () => {
    const service = await serviceWithRedisAt(await closedPort());
    const rest = await templates(service);
    expectUnavailable(rest);
    expect(rest.json<ErrorBody>().error).toMatchObject({ type: 'overloaded_error', code: 'service_unavailable' });
    const widget = await widgetToken(service);
    expectUnavailable(widget);
    expect(widget.json<WidgetErrorEnvelope>()).toMatchObject({
      success: false,
      error: { code: 'service_unavailable' },
    });
    // Nothing was logged as an unexpected failure.
    expect(service.logs.text).not.toContain('unhandled error');
  }, 30_000);

  it.skipIf(!REDIS_SERVER_INSTALLED)(
    'answers 503 when the Redis it was counting in goes down, and counts again once it is back',
    async () => {
      const port = await closedPort();
      redisServer = await startRedisServer(port);
      const service = await serviceWithRedisAt(port);
      expect((await templates(service)).statusCode).toBe(200);
      expect((await widgetToken(service)).statusCode).toBe(200);

      redisServer.kill('SIGKILL');
      await once(redisServer, 'exit');
      expectUnavailable(await templates(service));
      expectUnavailable(await widgetToken(service));

      redisServer = await startRedisServer(port);
      await expect.poll(async () => (await templates(service)).statusCode, { timeout: 15_000 }).toBe(200);
    },
    40_000,
  );
});
