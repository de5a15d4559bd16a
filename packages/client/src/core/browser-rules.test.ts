import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Chartwright as ChartwrightClass } from '../client.js';
import { PermissionDeniedError } from '../errors.js';
import { capturingLogger, recordingFetch, startTestServer, type TestServer } from '../test-support/server.js';

// The rules as Node sees them when a page's globals are present; the browser tests run the same
// rules in Chromium.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

// Each test loads the library afresh, as a new page would.
let Chartwright: typeof ChartwrightClass;
beforeEach(async () => {
  vi.resetModules();
  ({ Chartwright } = await import('../client.js'));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function pretendToBeAPage(): void {
  vi.stubGlobal('window', { document: {} });
}

type ApiKey = ConstructorParameters<typeof ChartwrightClass>[0]['apiKey'];

/** Clients of one page, sharing its console. */
function page() {
  const recorded = recordingFetch();
  const log = capturingLogger();
  return {
    client: (apiKey: ApiKey) =>
      new Chartwright({ apiKey, baseUrl: server.baseUrl, fetch: recorded.fetch, logger: log.logger }),
    attempts: recorded.attempts,
    warnings: () => log.lines.filter((line) => line.level === 'warn'),
  };
}

describe('in a browser', () => {
  it('warns once when it sees a permanent sk_ key, however many clients use it, without showing the key', async () => {
    pretendToBeAPage();
    const { client, warnings } = page();
    const first = client(server.harness.project.testKey);
    const second = client(server.harness.project.testKey);
    await first.templates.list();
    await second.templates.list();
    expect(warnings()).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(/permanent sk_ key .* browser/),
        fields: { code: 'permanent_key_in_browser' },
      },
    ]);
    expect(JSON.stringify(warnings())).not.toContain(server.harness.project.testKey);
  });

  it('warns once too when an apiKey function hands out sk_ keys', async () => {
    pretendToBeAPage();
    const { client, warnings } = page();
    const chartwright = client(() => Promise.resolve(server.harness.project.liveKey));
    expect(warnings()).toHaveLength(0);
    await chartwright.templates.list();
    await chartwright.templates.list();
    expect(warnings()).toHaveLength(1);
  });

  it('does not warn about a temporary token', () => {
    pretendToBeAPage();
    const { client, warnings } = page();
    client('svc_rt_notARealTokenButTheRightShape');
    expect(warnings()).toHaveLength(0);
  });

  it('blocks realtime.tokens.create before any request', async () => {
    pretendToBeAPage();
    const { client, attempts } = page();
    const error: unknown = await client(server.harness.project.testKey)
      .realtime.tokens.create()
      .catch((rejection: unknown) => rejection);
    // A fresh copy of the library has its own classes: compare by name and code.
    expect(error).toMatchObject({
      name: PermissionDeniedError.name,
      status: 403,
      code: 'token_creation_blocked_in_browser',
    });
    expect((error as Error).message).toMatch(/on your server/);
    expect(attempts).toHaveLength(0);
  });

  it('blocks it in a web worker too, and sends no x-chartwright-client header there', async () => {
    vi.stubGlobal('importScripts', () => undefined);
    const { client, attempts } = page();
    const chartwright = client(server.harness.project.testKey);
    await expect(chartwright.realtime.tokens.create()).rejects.toMatchObject({
      code: 'token_creation_blocked_in_browser',
    });
    await chartwright.templates.list();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.headers.has('x-chartwright-client')).toBe(false);
  });
});

describe('in Node', () => {
  it('neither warns about sk_ keys nor blocks token creation', async () => {
    const { client, warnings } = page();
    const token = await client(server.harness.project.testKey).realtime.tokens.create({ expiresInSeconds: 60 });
    expect(token.token).toMatch(/^svc_rt_/);
    expect(warnings()).toHaveLength(0);
  });
});
