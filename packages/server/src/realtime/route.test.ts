import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';

describe('GET /api/v1/realtime', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('refuses a body, as every operation that takes none does, once the credential is checked', async () => {
    const withBody = {
      method: 'GET',
      url: '/api/v1/realtime',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    } as const;
    const refused = await h.request({ ...withBody, key: h.project.testKey });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('body_not_allowed');
    expect((await h.request(withBody)).statusCode).toBe(401);
  });
});
