import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { openPage, startAppBackend, type AppBackend, type ChartwrightModule } from '../test-support/browser.js';
import { launchChromium, missingBrowser, recordConsole } from '@chartwright/testing/browser.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import { goforward, missingSpeechTools, msOf, PocketSphinxRecognizer, silence } from '@chartwright/testing/speech.js';

/**
 * The browser bundle in Debian's Chromium, against the real service and recognizer: a page gets
 * svc_rt_ tokens from its application's backend (which holds the sk_ key) and streams speech over
 * the realtime WebSocket, authenticating with the subprotocol as browsers must.
 */
const missing = [...missingBrowser(), ...(await missingSpeechTools())];

interface PageRun {
  finals: { id: string; text: string }[];
  reconnected: { reason: string; attempts: number }[];
  ended: { reason: string; segments: number; audioMs: number };
}

/**
 * Runs in the page: gets a token from the backend, connects, streams /speech.raw in 100 ms frames
 * at 4× real time (twice, around the token refresh, with `refresh`), then stops.
 */
async function streamSpeech({ baseUrl, refresh }: { baseUrl: string; refresh: boolean }): Promise<PageRun> {
  const { Chartwright } = (window as unknown as { chartwright: ChartwrightModule }).chartwright;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const fetchToken = async () =>
    (await (await fetch('/token', { method: 'POST' })).json()) as { token: string; expiresAt: string };
  const first = await fetchToken();
  const chartwright = new Chartwright({ apiKey: first.token, baseUrl });
  const session = await chartwright.realtime.connect({
    encoding: 'pcm_s16le',
    sampleRate: 16_000,
    // With a callback and a 57 s margin, the 60 s tokens are replaced as soon as allowed (5 s).
    ...(refresh ? { token: fetchToken, tokenRefreshMarginMs: 57_000 } : {}),
  });
  const run: Omit<PageRun, 'ended'> = { finals: [], reconnected: [] };
  session.on('final', ({ segment }) => run.finals.push({ id: segment.id, text: segment.text }));
  const reconnected = new Promise<void>((resolve) => {
    session.on('reconnected', ({ reason, attempts }) => {
      run.reconnected.push({ reason, attempts });
      resolve();
    });
  });
  const audio = new Uint8Array(await (await fetch('/speech.raw')).arrayBuffer());
  const stream = async () => {
    for (let offset = 0; offset < audio.length; offset += 3200) {
      session.send(audio.subarray(offset, offset + 3200));
      await sleep(25);
    }
  };
  await stream();
  if (refresh) {
    await reconnected;
    await stream();
  }
  const { reason, segments, audioMs } = await session.stop();
  return { ...run, ended: { reason, segments, audioMs } };
}

interface PageSession {
  session: import('./session.js').RealtimeSession;
  finals: string[];
  reconnected: Promise<{ reason: string; attempts: number }>;
}

/** Runs in the page: opens a session whose token callback asks the backend, and keeps it on `window`. */
async function openSession({ baseUrl }: { baseUrl: string }): Promise<void> {
  const { Chartwright } = (window as unknown as { chartwright: ChartwrightModule }).chartwright;
  const fetchToken = async () =>
    (await (await fetch('/token', { method: 'POST' })).json()) as { token: string; expiresAt: string };
  const chartwright = new Chartwright({ apiKey: (await fetchToken()).token, baseUrl });
  const session = await chartwright.realtime.connect({ encoding: 'pcm_s16le', sampleRate: 16_000, token: fetchToken });
  const state: PageSession = {
    session,
    finals: [],
    reconnected: new Promise((resolve) => session.once('reconnected', resolve)),
  };
  session.on('final', ({ segment }) => state.finals.push(segment.text));
  (window as unknown as { test: PageSession }).test = state;
}

describe.skipIf(missing.length > 0)('realtime in a browser', () => {
  let browser: Browser;
  let recognizer: PocketSphinxRecognizer;
  let server: TestServer;
  let backend: AppBackend;
  /** "go forward ten meters" and a second of silence, 16 kHz s16le. */
  const utterance = Buffer.concat([goforward(), silence(1000)]);

  beforeAll(async () => {
    browser = await launchChromium();
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await recognizer.close();
  });
  beforeEach(async () => {
    server = await startTestServer({ recognizer });
    // Token expiries are compared with the browser's clock.
    server.harness.clock.advance(Date.now() - server.harness.clock.now());
    backend = await startAppBackend({
      chartwrightUrl: server.baseUrl,
      apiKey: server.harness.project.testKey,
      tokenSeconds: 60,
      files: { '/speech.raw': { body: utterance, type: 'application/octet-stream' } },
    });
  });
  afterEach(async () => {
    await backend.close();
    await server.close();
  });

  it('streams speech from a page with a svc_rt_ token minted by the app backend; finals arrive', async () => {
    const page = await openPage(browser, backend.url);
    const console = recordConsole(page);
    const run = await page.evaluate(streamSpeech, { baseUrl: server.baseUrl, refresh: false });

    expect(run.finals).toEqual([{ id: 'seg_000001', text: 'go forward ten meters' }]);
    expect(run.ended).toEqual({ reason: 'stopped', segments: 1, audioMs: msOf(utterance.length) });
    expect(backend.minted).toBe(1);
    expect(backend.sent.join('\n')).not.toContain(server.harness.project.testKey);
    expect(console.filter((line) => line.type === 'warning' || line.type === 'error')).toEqual([]);
    await page.close();
  }, 60_000);

  it('refreshes a 60 s token through the token callback before it expires, losing no segment', async () => {
    const page = await openPage(browser, backend.url);
    const run = await page.evaluate(streamSpeech, { baseUrl: server.baseUrl, refresh: true });

    expect(run.reconnected).toEqual([{ reason: 'token_refresh', attempts: 1 }]);
    expect(run.finals).toEqual([
      { id: 'seg_000001', text: 'go forward ten meters' },
      { id: 'seg_000002', text: 'go forward ten meters' },
    ]);
    expect(run.ended).toEqual({ reason: 'stopped', segments: 2, audioMs: msOf(2 * utterance.length) });
    // One token for the page's client, one for the session's first socket, one for the refresh.
    expect(backend.minted).toBe(3);
    await page.close();
  }, 60_000);

  it('fetches a fresh token after the service refuses the old one at a reconnect (hidden 401 in a browser)', async () => {
    const { harness } = server;
    const doomedKey = await harness.keys.create({ projectId: harness.project.id, environment: 'test' });
    let backendKey = doomedKey.secret;
    await backend.close();
    backend = await startAppBackend({ chartwrightUrl: server.baseUrl, apiKey: () => backendKey });
    const page = await openPage(browser, backend.url);
    await page.evaluate(openSession, { baseUrl: server.baseUrl });
    // The backend moves to another key; the one behind the page's tokens is revoked and the socket lost.
    backendKey = harness.project.testKey;
    await harness.keys.revoke(doomedKey.key.id);
    for (const socket of harness.app.websocketServer.clients) socket.terminate();
    const run = await page.evaluate(
      async ({ audio }) => {
        const { session, finals, reconnected } = (window as unknown as { test: PageSession }).test;
        const event = await reconnected;
        session.send(new Uint8Array(audio));
        const ended = await session.stop();
        return { event, finals, ended: { reason: ended.reason, segments: ended.segments } };
      },
      { audio: [...utterance] },
    );

    // The first attempt offered the revoked token; the browser hides the 401, so the next fetched a fresh one.
    expect(run.event).toMatchObject({ reason: 'connection_lost', attempts: 2 });
    expect(run.finals).toEqual(['go forward ten meters']);
    expect(run.ended).toEqual({ reason: 'stopped', segments: 1 });
    expect(backend.minted).toBe(3);
    await page.close();
  }, 60_000);
});
