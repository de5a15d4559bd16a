import { describe, expect, it } from 'vitest';

import { createHarness } from '@chartwright/testing/harness.js';
import { loadConfig } from '../config/config.js';
import { apiServers } from './api-document.js';

describe('the OpenAPI document’s servers', () => {
  it('are {base_url} for sk_live_ keys and {sandbox_base_url} for sk_test_ keys', () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: 'https://api.clinic.example',
      SANDBOX_BASE_URL: 'https://sandbox.clinic.example/',
    });
    expect(apiServers(config)).toEqual([
      { url: 'https://api.clinic.example', description: 'Production (sk_live_ keys)' },
      { url: 'https://sandbox.clinic.example', description: 'Sandbox (sk_test_ keys)' },
    ]);
  });

  it('are one entry when both environments have one address', () => {
    expect(apiServers(loadConfig({ PUBLIC_BASE_URL: 'https://api.clinic.example' }))).toEqual([
      {
        url: 'https://api.clinic.example',
        description: 'Production (sk_live_ keys) and sandbox (sk_test_ keys): the key decides which',
      },
    ]);
  });

  it('name the address the document was fetched from (`/`) instead of a loopback one', () => {
    expect(apiServers(loadConfig({})).map((server) => server.url)).toEqual(['/']);
    for (const loopback of ['http://127.0.0.1:9000', 'http://[::1]:8080', 'http://LOCALHOST']) {
      const urls = apiServers({ publicBaseUrl: loopback, sandboxBaseUrl: 'https://sandbox.clinic.example' });
      expect(urls.map((server) => server.url)).toEqual(['/', 'https://sandbox.clinic.example']);
    }
  });

  it('are what the service serves', async () => {
    const h = await createHarness({
      config: { publicBaseUrl: 'https://api.clinic.example', sandboxBaseUrl: 'https://sandbox.clinic.example' },
    });
    try {
      const document = (await h.request({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ servers: unknown }>();
      expect(document.servers).toEqual(apiServers(h.config));
      expect(document.servers).toHaveLength(2);
    } finally {
      await h.close();
    }
  });
});
