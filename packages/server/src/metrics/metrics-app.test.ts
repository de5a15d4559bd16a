import { readFileSync } from 'node:fs';

import type { ErrorBody } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { sampleValue } from '@chartwright/testing/metrics.js';

import { buildMetricsApp } from './metrics-app.js';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';

describe('the metrics listener', () => {
  let h: Harness;
  let metrics: FastifyInstance;
  beforeEach(async () => {
    h = await createHarness();
    metrics = buildMetricsApp({ host: '127.0.0.1', port: 0, token: TOKEN }, h.app.metrics, h.app.log);
  });
  afterEach(async () => {
    await metrics.close();
    await h.close();
  });

  const scrape = (authorization?: string) =>
    metrics.inject({
      method: 'GET',
      url: '/metrics',
      headers: authorization === undefined ? {} : { authorization },
    });

  it('refuses a scrape without its token with a coded 401 in the REST error body', async () => {
    const refusals = [
      [undefined, 'missing_authorization'],
      ['Basic bWV0cmljczpwYXNzd29yZA==', 'malformed_authorization'],
      ['Bearer metrics-token-for-tests-0123456789abcdeX', 'invalid_metrics_token'],
      [`Bearer ${TOKEN}x`, 'invalid_metrics_token'],
    ] as const;
    for (const [authorization, code] of refusals) {
      const response = await scrape(authorization);
      expect(response.statusCode).toBe(401);
      const { error } = response.json<ErrorBody>();
      expect(error).toMatchObject({ type: 'authentication_error', code, requestId: response.headers['x-request-id'] });
      expect(response.body).not.toContain('chartwright_');
    }
    expect((await scrape(`Bearer ${TOKEN}`)).statusCode).toBe(200);
    // What a guessed token was is never logged.
    expect(h.logs.text).not.toContain('metrics-token-for-tests');
  });

  it('answers other paths and methods like the service does', async () => {
    const other = await metrics.inject({ method: 'GET', url: '/api/v1/templates' });
    expect(other.statusCode).toBe(404);
    expect(other.json<ErrorBody>().error.code).toBe('route_not_found');
    const post = await metrics.inject({
      method: 'POST',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(post.statusCode).toBe(405);
    expect(post.headers['allow']).toBe('GET, HEAD');
  });

  it('serves an open listener without a token when none is configured (a loopback address)', async () => {
    const open = buildMetricsApp({ host: '127.0.0.1', port: 0, token: null }, h.app.metrics, h.app.log);
    try {
      const response = await open.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('# TYPE chartwright_http_request_duration_seconds histogram');
    } finally {
      await open.close();
    }
  });

  it('exposes only metrics docs/operations.md lists', async () => {
    const operations = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    const names = [...text.matchAll(/^# TYPE (chartwright_\w+) /gm)].map(([, name]) => name ?? '');
    expect(names).toContain('chartwright_recognizer_backlog_seconds');
    expect(names.filter((name) => !operations.includes(`| \`${name}\` |`))).toEqual([]);
  });

  it('is never served on the public port', async () => {
    const response = await h.request({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.json<ErrorBody>().error.code).toBe('route_not_found');
  });

  it('gives each instance its own metrics: a request counts on the instance that answered it', async () => {
    const other = await createHarness({ database: h.database });
    const otherMetrics = buildMetricsApp({ host: '127.0.0.1', port: 0, token: null }, other.app.metrics, other.app.log);
    try {
      for (let request = 0; request < 3; request += 1) {
        expect((await h.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      }
      expect((await other.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const count = async (app: FastifyInstance, authorization: string | undefined) => {
        const text = (
          await app.inject({
            method: 'GET',
            url: '/metrics',
            headers: authorization === undefined ? {} : { authorization },
          })
        ).body;
        const labels = { method: 'GET', route: '/healthz', status_code: '200' };
        return sampleValue(text, 'chartwright_http_request_duration_seconds_count', labels);
      };
      expect(await count(metrics, `Bearer ${TOKEN}`)).toBe(3);
      expect(await count(otherMetrics, undefined)).toBe(1);
    } finally {
      await otherMetrics.close();
      await other.close();
    }
  });
});
