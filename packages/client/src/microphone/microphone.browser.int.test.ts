import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPage, startAppBackend, type AppBackend, type ChartwrightModule } from '../test-support/browser.js';
import { launchChromium, missingBrowser } from '@chartwright/testing/browser.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import {
  missingSpeechTools,
  paddedSpeechWav,
  PocketSphinxRecognizer,
  wordErrorRate,
} from '@chartwright/testing/speech.js';

/**
 * The microphone helper in Debian's Chromium, whose fake capture device plays a flite recording
 * (in a loop) as the microphone: getUserMedia, the AudioWorklet's conversion to 16 kHz, the
 * session, and the real recognizer.
 */
const missing = [...missingBrowser(), ...(await missingSpeechTools())];
const SENTENCE = 'please call me back in the morning';

interface MicrophoneRun {
  finals: string[];
  levels: number;
  loudest: number;
  errors: string[];
  deviceSampleRate: number;
  trackState: string;
  stopped: boolean;
  ended: { reason: string; segments: number };
}

/**
 * Runs in the page: records until the second final (the loop may start mid-sentence, the second
 * repetition is whole), stops the microphone, then the session.
 */
async function recordUntilFinal({ baseUrl }: { baseUrl: string }): Promise<MicrophoneRun> {
  const { Chartwright, startMicrophone } = (window as unknown as { chartwright: ChartwrightModule }).chartwright;
  const { token } = (await (await fetch('/token', { method: 'POST' })).json()) as { token: string };
  const session = await new Chartwright({ apiKey: token, baseUrl }).realtime.connect({
    encoding: 'pcm_s16le',
    sampleRate: 16_000,
  });
  const finals: string[] = [];
  const secondFinal = new Promise<void>((resolve) => {
    session.on('final', ({ segment }) => {
      if (finals.push(segment.text) === 2) resolve();
    });
  });
  const levels: number[] = [];
  const errors: string[] = [];
  const microphone = await startMicrophone(session, {
    onLevel: (level) => levels.push(level),
    onError: (error) => errors.push(error.code),
  });
  await secondFinal;
  const [track] = microphone.stream.getAudioTracks();
  await microphone.stop();
  const ended = await session.stop();
  return {
    finals,
    levels: levels.length,
    loudest: Math.max(...levels),
    errors,
    deviceSampleRate: microphone.deviceSampleRate,
    trackState: track?.readyState ?? 'missing',
    stopped: microphone.stopped,
    ended: { reason: ended.reason, segments: ended.segments },
  };
}

/** Runs in the page: tries to start the microphone and reports how it failed. */
async function startRefused({ baseUrl, sampleRate }: { baseUrl: string; sampleRate: number }) {
  const { Chartwright, startMicrophone } = (window as unknown as { chartwright: ChartwrightModule }).chartwright;
  const { token } = (await (await fetch('/token', { method: 'POST' })).json()) as { token: string };
  const session = await new Chartwright({ apiKey: token, baseUrl }).realtime.connect({
    encoding: 'pcm_s16le',
    sampleRate,
  });
  try {
    await startMicrophone(session);
    return { name: 'none', code: 'none', message: '' };
  } catch (error) {
    const { name, code, message } = error as { name: string; code: string; message: string };
    return { name, code, message };
  } finally {
    session.close();
  }
}

describe.skipIf(missing.length > 0)('startMicrophone in Chromium with a fake capture device', () => {
  let scratch: string;
  let browser: Browser;
  let recognizer: PocketSphinxRecognizer;
  let server: TestServer;
  let backend: AppBackend;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'chartwright-microphone-'));
    const wav = paddedSpeechWav(SENTENCE, scratch, 1000);
    browser = await launchChromium([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
      '--autoplay-policy=no-user-gesture-required',
    ]);
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    server = await startTestServer({ recognizer });
    backend = await startAppBackend({ chartwrightUrl: server.baseUrl, apiKey: server.harness.project.testKey });
  }, 120_000);
  afterAll(async () => {
    await backend.close();
    await server.close();
    await recognizer.close();
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('streams the microphone as 16 kHz PCM: finals arrive, and stop() releases the device', async () => {
    const page = await openPage(browser, backend.url);
    const run = await page.evaluate(recordUntilFinal, { baseUrl: server.baseUrl });

    expect(run.finals.length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...run.finals.map((final) => wordErrorRate(SENTENCE, final)))).toBeLessThan(0.35);
    expect(run.errors).toEqual([]);
    expect(run.levels).toBeGreaterThan(10);
    expect(run.loudest).toBeGreaterThan(0.01);
    expect(run.deviceSampleRate).toBeGreaterThanOrEqual(16_000);
    expect(run.trackState).toBe('ended');
    expect(run.stopped).toBe(true);
    expect(run.ended).toEqual({ reason: 'stopped', segments: run.finals.length });
    await page.close();
  }, 60_000);

  it('rejects with MicrophonePermissionError when the page may not use the microphone', async () => {
    const page = await openPage(browser, `${backend.url}/no-microphone`);
    const failure = await page.evaluate(startRefused, { baseUrl: server.baseUrl, sampleRate: 16_000 });
    expect(failure).toMatchObject({ name: 'MicrophonePermissionError', code: 'microphone_permission_denied' });
    await page.close();
  });

  it('refuses a session whose format is not 16 kHz 16-bit mono, before touching the device', async () => {
    const page = await openPage(browser, backend.url);
    const failure = await page.evaluate(startRefused, { baseUrl: server.baseUrl, sampleRate: 48_000 });
    expect(failure).toMatchObject({ name: 'MicrophoneError', code: 'unsupported_session_format' });
    await page.close();
  });
});
