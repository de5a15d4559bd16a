import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '../test-support/harness.js';

describe('credentials never reach logs or error messages', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ config: { logLevel: 'trace' } });
  });
  afterEach(async () => {
    await h.close();
  });

  it('keeps keys and tokens out of every log line and response error', async () => {
    const minted = await h.request({ method: 'POST', url: '/api/v1/realtime/tokens', key: h.project.testKey });
    const { token } = minted.json<{ token: string }>();
    const unknownKey = `sk_live_${'Q'.repeat(43)}`;
    const responses = await Promise.all([
      h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey }),
      h.request({ method: 'GET', url: '/api/v1/templates', key: token }),
      h.request({ method: 'GET', url: '/api/v1/templates', key: unknownKey }),
      h.request({ method: 'GET', url: `/api/v1/templates?api_key=${h.project.liveKey}` }),
      h.request({ method: 'GET', url: '/api/v1/templates', headers: { authorization: `Token ${h.project.liveKey}` } }),
      h.request({
        method: 'POST',
        url: '/api/v1/realtime/tokens',
        key: h.project.testKey,
        payload: { expiresInSeconds: h.project.liveKey },
      }),
    ]);
    await h.keys.revoke(h.project.testKeyId);
    responses.push(await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey }));

    expect(h.logs.lines.length).toBeGreaterThan(10);
    for (const secret of [h.project.testKey, h.project.liveKey, token, unknownKey]) {
      expect(h.logs.text).not.toContain(secret);
      // The random part alone must not leak either (a log that dropped the prefix would still leak).
      expect(h.logs.text).not.toContain(secret.slice(-20));
      for (const response of responses.slice(1)) expect(response.body).not.toContain(secret.slice(-20));
    }
  });
});
