import { existsSync } from 'node:fs';

import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type FrameLocator,
  type Page,
} from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`): Playwright's own browser downloads cannot run here. */
export const CHROMIUM = '/usr/bin/chromium';

/** What the browser tests lack on this machine; in CI a missing browser fails the run instead. */
export function missingBrowser(): string[] {
  if (existsSync(CHROMIUM)) return [];
  if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error(
      `browser tests may not be skipped in CI; missing ${CHROMIUM}. Install: apt-get install -y chromium`,
    );
  }
  return [CHROMIUM];
}

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extraArgs],
  });
}

/** The page's console, line by line. */
export function recordConsole(page: Page): { type: string; text: string }[] {
  const lines: { type: string; text: string }[] = [];
  page.on('console', (message: ConsoleMessage) => lines.push({ type: message.type(), text: message.text() }));
  return lines;
}

declare global {
  interface Window {
    /** Every stream getUserMedia handed the frame (recorded by an init script in each frame). */
    capturedStreams?: MediaStream[];
  }
}

/** Chromium whose fake microphone plays `wav` in a loop, and which grants the microphone without asking. */
export function launchWithMicrophone(wav: string): Promise<Browser> {
  return launchChromium([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}`,
    '--autoplay-policy=no-user-gesture-required',
  ]);
}

/**
 * Wraps getUserMedia in every frame (the widget's included), so a test can see whether the widget
 * released what it captured. It records; the streams are the browser's own.
 */
export function recordCapturedStreams(): void {
  const media = navigator.mediaDevices as MediaDevices | undefined;
  if (media === undefined) return;
  const original = media.getUserMedia.bind(media);
  window.capturedStreams = [];
  media.getUserMedia = async (constraints) => {
    const stream = await original(constraints);
    window.capturedStreams?.push(stream);
    return stream;
  };
}

/** The ready states of every audio track the widget captured. */
export function capturedTrackStates(widget: FrameLocator): Promise<string[]> {
  return widget
    .locator('body')
    .evaluate(() =>
      (window.capturedStreams ?? []).flatMap((stream) => stream.getTracks().map((track) => track.readyState)),
    );
}

/** The widget iframe, as the embed helper titles it. */
export const widgetFrame = (page: Page): FrameLocator => page.frameLocator('iframe[title="Chartwright scribe"]');

/** A made-up origin no server answers: its pages are served by Playwright's router (serveForeignSite). */
export const FOREIGN_ORIGIN = 'http://foreign.example';

/**
 * Serves an empty page at every FOREIGN_ORIGIN address for the pages of `context`, so a test can
 * open a window of a third site whose messages carry a genuinely foreign origin.
 */
export async function serveForeignSite(context: BrowserContext): Promise<void> {
  await context.route(`${FOREIGN_ORIGIN}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html><title>foreign</title>',
    }),
  );
}
