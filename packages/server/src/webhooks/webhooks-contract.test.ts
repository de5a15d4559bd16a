import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { startValidatingProxy, type ValidatingProxy } from '@chartwright/testing/validating-proxy.js';
import { testConfig } from '../config/config.js';

/**
 * Asynchronous notes and webhooks, as their clients meet them, checked by Stoplight Prism against
 * the OpenAPI document the service serves: every status, header and body must be the document's.
 */
describe('the OpenAPI document of asynchronous notes and webhooks, as the service answers', () => {
  let h: Harness;
  let proxy: ValidatingProxy;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'chartwright-contract-'));
    // Nobody runs jobs: the test runs the note's job itself, between reads.
    h = await createHarness({ config: { jobs: { ...testConfig().jobs, inService: false } } });
    const upstream = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const documentPath = join(folder, 'openapi.json');
    writeFileSync(documentPath, (await h.request({ method: 'GET', url: '/api/v1/openapi.json' })).body);
    proxy = await startValidatingProxy(documentPath, upstream);
  });
  afterAll(async () => {
    await proxy.close();
    await h.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('holds for every answer, successes and refusals', async () => {
    const problems: string[] = [];
    const call = async (method: string, path: string, expected: number, json?: unknown) => {
      const answer = await proxy.fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${h.project.testKey}`,
          'accept-encoding': 'identity',
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      const exchange = `${method} ${path} → ${answer.status}`;
      if (answer.status !== expected) problems.push(`${exchange} (expected ${expected}): ${answer.text.slice(0, 200)}`);
      for (const violation of [...answer.requestViolations, ...answer.responseViolations]) {
        problems.push(`${exchange}: ${violation.location.join('.')}: ${violation.message}`);
      }
      return answer;
    };
    const visit = { template_id: 'soap', conversation_text: '[doctor] any cough ? [patient] yes , for a week .' };

    await call('POST', '/api/v1/notes', 409, { ...visit, async: true, callback_url: 'https://hooks.example.com/x' });
    await call('POST', '/api/v1/webhooks/callback-secret', 201);
    const queued = await call('POST', '/api/v1/notes', 202, {
      ...visit,
      async: true,
      callback_url: 'https://hooks.example.com/x',
    });
    const { id } = JSON.parse(queued.text) as { id: string };
    expect(queued.headers.get('location')).toBe(`/api/v1/notes/${id}`);
    await call('GET', `/api/v1/notes/${id}`, 200);
    await h.app.jobs.asyncNotes.run(id);
    await call('GET', `/api/v1/notes/${id}?include=facts`, 200);
    await call('POST', '/api/v1/notes', 400, { ...visit, async: true, callback_url: 'http://hooks.example.com/x' });

    const endpoint = await call('POST', '/api/v1/webhooks/endpoints', 201, { url: 'https://hooks.example.com/y' });
    const endpointId = (JSON.parse(endpoint.text) as { id: string }).id;
    await call('POST', '/api/v1/webhooks/endpoints', 400, { url: 'https://10.0.0.1/y' });
    await call('GET', '/api/v1/webhooks/endpoints', 200);
    await call('GET', `/api/v1/webhooks/deliveries?note_id=${id}&limit=10`, 200);
    await call('GET', '/api/v1/webhooks/deliveries?limit=1000', 400);
    await call('DELETE', `/api/v1/webhooks/endpoints/${endpointId}`, 204);
    await call('DELETE', `/api/v1/webhooks/endpoints/${endpointId}`, 404);
    expect(problems).toEqual([]);
  });
});
