import { healthSchema } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { PocketSphinxRecognizer } from '../asr/index.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown>; security: unknown[] }>>;
  components: { schemas: Record<string, unknown> };
}

describe('operations routes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('reports liveness without a key', async () => {
    const response = await h.request({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(healthSchema.parse(response.json())).toEqual({ status: 'ok' });
  });

  it('reports readiness when the database answers, and the missing recognizer beside it', async () => {
    const response = await h.request({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', recognizer: 'unavailable' } });
  });

  it('stays ready without a working recognizer, saying so', async () => {
    const recognizer = new PocketSphinxRecognizer({ libraryPath: '/nonexistent/libpocketsphinx.so.3' });
    const broken = await createHarness({ recognizer });
    try {
      const response = await broken.request({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', recognizer: 'unavailable' } });
    } finally {
      await broken.close();
      await recognizer.close();
    }
  });

  it('reports not ready with 503 when the database does not answer', async () => {
    await h.database.close();
    const response = await h.request({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'unavailable', recognizer: 'unavailable' },
    });
  });

  describe('the OpenAPI document', () => {
    it('is OpenAPI 3.1 and lists exactly the routes the service serves', async () => {
      const response = await h.request({ method: 'GET', url: '/api/v1/openapi.json' });
      expect(response.statusCode).toBe(200);
      const document = response.json<OpenApiDocument>();
      expect(document.openapi).toBe('3.1.0');

      const documented = Object.entries(document.paths)
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      const served = h.app
        .knownRoutes()
        .filter((route) => route.method !== 'HEAD')
        .map((route) => `${route.method} ${route.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`)
        .sort();
      expect(served.length).toBeGreaterThan(0);
      expect(documented).toEqual(served);
    });

    it('documents the error body and the schemas the routes use', async () => {
      const document = (await h.request({ method: 'GET', url: '/api/v1/openapi.json' })).json<OpenApiDocument>();
      expect(Object.keys(document.components.schemas)).toEqual(
        expect.arrayContaining(['Error', 'Template', 'TemplateList', 'RealtimeToken', 'CreateRealtimeTokenRequest']),
      );
      const templates = document.paths['/api/v1/templates']?.['get'];
      expect(Object.keys(templates?.responses ?? {})).toEqual(['200', '304', '400', '401', '403', '429', '500', '503']);
      expect(templates?.security).toEqual([{ bearerAuth: [] }]);
      const tokens = document.paths['/api/v1/realtime/tokens']?.['post'];
      expect(Object.keys(tokens?.responses ?? {})).toEqual(
        expect.arrayContaining(['201', '400', '401', '403', '413', '415', '429']),
      );
    });
  });
});
