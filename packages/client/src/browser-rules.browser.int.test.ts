import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPage, servePageFrom, type ChartwrightModule } from './test-support/browser.js';
import { launchChromium, missingBrowser, recordConsole } from '@chartwright/testing/browser.js';
import { startTestServer, type TestServer } from './test-support/server.js';

/**
 * The spec's browser rules, in Debian's Chromium with the browser bundle, the page on the
 * service's own origin: a permanent key is warned about once, token minting is blocked, and a
 * temporary token only opens the realtime WebSocket — refusals made without a network call.
 */
const missing = missingBrowser();

/** Runs in the page: what a call's rejection looked like (`undefined` when it resolved). */
interface Refusal {
  permissionDenied: boolean;
  name: string;
  code: string;
  message: string;
}

describe.skipIf(missing.length > 0)('browser rules in Chromium', () => {
  let browser: Browser;
  let server: TestServer;
  let page: Page;
  let console: { type: string; text: string }[];
  /** Requests the page sent to the service's API. */
  let apiRequests: string[];

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startTestServer({ configure: servePageFrom });
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  async function freshPage(): Promise<void> {
    page = await openPage(browser, `${server.baseUrl}/browser-test`);
    console = recordConsole(page);
    apiRequests = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(new URL(request.url()).pathname);
    });
  }

  it('warns once in the console about a permanent sk_ key, however many clients use it', async () => {
    await freshPage();
    const listed = await page.evaluate(
      async ({ key }) => {
        const { Chartwright } = (window as unknown as { chartwright: ChartwrightModule }).chartwright;
        const first = new Chartwright({ apiKey: key, baseUrl: location.origin });
        const second = new Chartwright({ apiKey: key, baseUrl: location.origin });
        return [(await first.templates.list()).length, (await second.templates.list()).length];
      },
      { key: server.harness.project.testKey },
    );

    expect(listed[0]).toBeGreaterThan(0);
    expect(listed[1]).toBe(listed[0]);
    const warnings = console.filter((line) => line.type === 'warning' && line.text.includes('permanent sk_ key'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.text).not.toContain(server.harness.project.testKey);
    await page.close();
  });

  it('blocks realtime.tokens.create with a PermissionDeniedError that says why, before any request', async () => {
    await freshPage();
    const refusal = await page.evaluate(
      async ({ key }): Promise<Refusal | undefined> => {
        const { Chartwright, PermissionDeniedError } = (window as unknown as { chartwright: ChartwrightModule })
          .chartwright;
        try {
          await new Chartwright({ apiKey: key, baseUrl: location.origin }).realtime.tokens.create({
            expiresInSeconds: 60,
          });
          return undefined;
        } catch (error) {
          const { name, code, message } = error as { name: string; code: string; message: string };
          return { permissionDenied: error instanceof PermissionDeniedError, name, code, message };
        }
      },
      { key: server.harness.project.testKey },
    );

    expect(refusal).toMatchObject({ permissionDenied: true, code: 'token_creation_blocked_in_browser' });
    expect(refusal?.message).toMatch(/blocked in browsers.*server/);
    expect(apiRequests).toEqual([]);
    await page.close();
  });

  it('lets a svc_rt_ token call no REST route: PermissionDeniedError without a request', async () => {
    const minted = await server.harness.request({
      method: 'POST',
      url: '/api/v1/realtime/tokens',
      key: server.harness.project.testKey,
    });
    await freshPage();
    const refusal = await page.evaluate(
      async ({ token }): Promise<Refusal | undefined> => {
        const { Chartwright, PermissionDeniedError } = (window as unknown as { chartwright: ChartwrightModule })
          .chartwright;
        try {
          await new Chartwright({ apiKey: token, baseUrl: location.origin }).templates.list();
          return undefined;
        } catch (error) {
          const { name, code, message } = error as { name: string; code: string; message: string };
          return { permissionDenied: error instanceof PermissionDeniedError, name, code, message };
        }
      },
      { token: minted.json<{ token: string }>().token },
    );

    expect(refusal).toMatchObject({ permissionDenied: true, code: 'temporary_token_not_allowed' });
    expect(apiRequests).toEqual([]);
    await page.close();
  });

  it('refuses to open a realtime session with a permanent key in a browser, before any socket', async () => {
    await freshPage();
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    const refusal = await page.evaluate(
      async ({ key }): Promise<Refusal | undefined> => {
        const { Chartwright, PermissionDeniedError } = (window as unknown as { chartwright: ChartwrightModule })
          .chartwright;
        try {
          const session = await new Chartwright({ apiKey: key, baseUrl: location.origin }).realtime.connect({
            encoding: 'pcm_s16le',
            sampleRate: 16_000,
          });
          session.close();
          return undefined;
        } catch (error) {
          const { name, code, message } = error as { name: string; code: string; message: string };
          return { permissionDenied: error instanceof PermissionDeniedError, name, code, message };
        }
      },
      { key: server.harness.project.testKey },
    );

    expect(refusal).toMatchObject({ permissionDenied: true, code: 'permanent_key_in_browser' });
    expect(refusal?.message).toContain('svc_rt_');
    expect(sockets).toEqual([]);
    await page.close();
  });
});
