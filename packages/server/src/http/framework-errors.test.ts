import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';

/** What Fastify refuses before choosing a route comes in the service's error bodies, as a 400. */
describe('requests refused before a route is chosen', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers a path that does not decode with bad_request, in the REST body or the widget envelope', async () => {
    const rest = await h.request({ method: 'GET', url: '/api/v1/notes/%E0%A4%A', key: h.project.testKey });
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'bad_request',
        message: 'The path is not valid percent-encoding.',
        requestId: rest.headers['x-request-id'],
      },
    });
    const widget = await h.request({ method: 'GET', url: '/api/widget/encounters/%E0%A4%A' });
    expect(widget.statusCode).toBe(400);
    expect(widget.json()).toMatchObject({ success: false, error: { code: 'bad_request' } });
  });

  it('answers a path parameter over 100 characters with bad_request', async () => {
    const answer = await h.request({ method: 'GET', url: `/api/v1/notes/${'n'.repeat(101)}`, key: h.project.testKey });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ error: { code: string } }>().error.code).toBe('bad_request');
  });
});
