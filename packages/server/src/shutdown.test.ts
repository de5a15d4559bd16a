import { afterEach, describe, expect, it } from 'vitest';

import { createLogger } from './logger.js';
import { shutDown } from './shutdown.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

/** A route that stays in flight until the test releases it. */
function heldRoute(onFinish: () => void = () => undefined) {
  let release: () => void = () => undefined;
  let arrived: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hasArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return {
    release,
    hasArrived,
    handler: async () => {
      arrived();
      await released;
      onFinish();
      return { finished: true };
    },
  };
}

describe('graceful shutdown', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
  });

  it('finishes in-flight requests, refuses new ones, then closes the database', async () => {
    const events: string[] = [];
    const held = heldRoute(() => events.push('request finished'));
    h = await createHarness({ configure: (app) => app.get('/test/held', held.handler) });
    const harness = h;
    const address = await harness.app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = fetch(`${address}/test/held`);
    await held.hasArrived;

    const stopping = shutDown({
      app: harness.app,
      closeResources: async () => {
        events.push('resources closed');
        await harness.database.close();
      },
      logger: createLogger('silent'),
      timeoutMs: 5000,
      drainMs: 0,
    });
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();

    held.release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    expect(await stopping).toBe(0);
    expect(events).toEqual(['request finished', 'resources closed']);
    await expect(harness.database.ping()).rejects.toThrow();
  });

  it('leaves the load balancer first: /readyz answers 503 while requests are still served, then the listener closes', async () => {
    h = await createHarness();
    const harness = h;
    const address = await harness.app.listen({ port: 0, host: '127.0.0.1' });
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
    // A drain longer than any test, ended by the other signal once the checks are done.
    const hurry = new AbortController();
    const stopping = shutDown({
      app: harness.app,
      closeResources: () => harness.database.close(),
      logger: createLogger('silent'),
      timeoutMs: 5000,
      drainMs: 600_000,
      hurry: hurry.signal,
    });

    const readiness = await fetch(`${address}/readyz`);
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toMatchObject({ error: { code: 'service_unavailable' } });
    // The balancer keeps sending requests until its checks notice: each is served, on a connection
    // that closes after it.
    const templates = await fetch(`${address}/api/v1/templates`, {
      headers: { authorization: `Bearer ${harness.project.testKey}` },
    });
    expect(templates.status).toBe(200);
    expect(templates.headers.get('connection')).toBe('close');
    expect((await fetch(`${address}/healthz`)).status).toBe(200);

    hurry.abort();
    expect(await stopping).toBe(0);
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
  });

  it('gives up on a request that outlives the timeout and still releases resources', async () => {
    const held = heldRoute();
    h = await createHarness({ configure: (app) => app.get('/test/held', held.handler) });
    const harness = h;
    const address = await harness.app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = fetch(`${address}/test/held`).catch((error: unknown) => error);
    await held.hasArrived;
    let closed = false;
    const code = await shutDown({
      app: harness.app,
      closeResources: async () => {
        closed = true;
        await harness.database.close();
      },
      logger: createLogger('silent'),
      timeoutMs: 100,
      drainMs: 0,
    });
    expect(code).toBe(1);
    expect(closed).toBe(true);
    expect(await inFlight).toBeInstanceOf(Error);
    held.release();
  });
});
