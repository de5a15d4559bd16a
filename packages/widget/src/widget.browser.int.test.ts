import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Chartwright, type RealtimeSession } from '@chartwright/client';
import type { WidgetToEmrMessage } from '@chartwright/protocol';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium, missingBrowser } from '@chartwright/testing/browser.js';
import { paddedSpeechWav } from '@chartwright/testing/speech.js';
import { PocketSphinxRecognizer } from '@chartwright/testing/speech.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';
import { startHostServer, type HostServer } from './test-support/host-page.js';
import { WIDGET_VERSION } from './version.js';

/**
 * The widget app in Debian's Chromium, inside an EMR page on another origin, against the real
 * service with the offline recognizer; the fake microphone plays a flite recording.
 */
const missing = [...missingBrowser(), ...(await missingSpeechTools())];
const SENTENCE = 'i have had a cough and a fever for three days';
/**
 * The instance's realtime sessions at once: low, so one test can fill it (the others record one at a
 * time). It alone says when the instance is full: the recognizer's own room is not tested here.
 */
const MAX_SESSIONS = 3;
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

const NOTE_CONFIG = {
  sections: [
    { key: 'story', label: 'History of present illness' },
    { key: 'exam', label: 'Examination' },
    { key: 'impression', label: 'Assessment' },
    { key: 'nextSteps', label: 'Plan' },
  ],
};
const PATIENT_CONTEXT = {
  type: 'PATIENT_CONTEXT',
  patient: { id: 'MRN-7731', name: 'Ana Q. Example', dob: '1984-05-17', gender: 'female' },
  context: {
    allergies: [{ name: 'Penicillin', severity: 'severe', reaction: 'hives' }],
    medications: [
      { name: 'Metformin', dosage: '500 mg', frequency: 'twice daily', status: 'active' },
      { name: 'Ibuprofen', status: 'discontinued' },
    ],
  },
  noteConfig: NOTE_CONFIG,
};

declare global {
  interface Window {
    received: WidgetToEmrMessage[];
    sendToWidget(message: unknown): void;
    reloadWidget(src: string): void;
    postForeign(): void;
    /** Every stream getUserMedia handed the page (recorded by an init script in each frame). */
    capturedStreams?: MediaStream[];
  }
}

/** Wraps getUserMedia in every frame, so the test can see whether the widget released its tracks. */
function recordCapturedStreams(): void {
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

describe.skipIf(missing.length > 0)('the widget in Chromium, embedded by an EMR on another origin', () => {
  let scratch: string;
  let browser: Browser;
  let recognizer: PocketSphinxRecognizer;
  let h: Harness;
  let widgetOrigin: string;
  let host: HostServer;
  let partnerKey: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(packageDir, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
    scratch = mkdtempSync(join(tmpdir(), 'chartwright-widget-'));
    browser = await launchChromium([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${paddedSpeechWav(SENTENCE, scratch, 1000)}`,
      '--autoplay-policy=no-user-gesture-required',
    ]);
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    await recognizer.warmUp();
    const { testConfig } = await import('@chartwright/server/internal/config/config.js');
    h = await createHarness({
      recognizer,
      config: { realtime: { ...testConfig().realtime, maxSessions: MAX_SESSIONS, recognizerMaxLoadPercent: 0 } },
    });
    widgetOrigin = await h.app.listen({ port: 0, host: '127.0.0.1' });
    host = await startHostServer();
    ({ partnerKey } = await h.createPartner({ origins: [host.origin] }));
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await host.close();
    await h.close();
    await recognizer.close();
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  const widgetUrl = async (emrSessionId?: string) => {
    const { token } = await h.mintWidgetToken(partnerKey, {
      userEmail: 'dr.rivera@clinic.example',
      emrUserId: 'emr-user-1',
      ...(emrSessionId === undefined ? {} : { emrSessionId }),
    });
    return `${widgetOrigin}/widget?token=${encodeURIComponent(token)}`;
  };

  const received = (page: Page) => page.evaluate(() => window.received);

  /** Resolves with the `count`-th message of `type` the host received. */
  async function nextMessage<T extends WidgetToEmrMessage['type']>(
    page: Page,
    type: T,
    count = 1,
  ): Promise<Extract<WidgetToEmrMessage, { type: T }>> {
    await page.waitForFunction(
      ([wanted, times]) => window.received.filter((message) => message.type === wanted).length >= times,
      [type, count] as const,
    );
    const all = (await received(page)).filter((message) => message.type === type);
    return all[count - 1] as Extract<WidgetToEmrMessage, { type: T }>;
  }

  async function openHost(
    emrSessionId: string | undefined,
    options: { allowMicrophone?: boolean; foreign?: boolean; width?: number } = {},
  ): Promise<{ page: Page; widget: FrameLocator }> {
    const page = await browser.newPage({ viewport: { width: options.width ?? 1100, height: 900 } });
    await page.addInitScript(recordCapturedStreams);
    await page.goto(host.pageUrl(await widgetUrl(emrSessionId), options));
    await nextMessage(page, 'WIDGET_READY');
    return { page, widget: page.frameLocator('iframe[title="Chartwright scribe"]') };
  }

  it('announces itself, refuses bad patient data field by field, then shows the patient', async () => {
    const { page, widget } = await openHost('visit-header');
    expect(await nextMessage(page, 'WIDGET_READY')).toEqual({ type: 'WIDGET_READY', version: WIDGET_VERSION });
    expect(await nextMessage(page, 'SESSION_STARTED')).toEqual({
      type: 'SESSION_STARTED',
      sessionId: expect.stringMatching(/^ses_/) as unknown,
    });

    await page.evaluate(() =>
      window.sendToWidget({ type: 'PATIENT_CONTEXT', patient: { id: ' ', name: 'X', gender: 'robot' } }),
    );
    expect(await nextMessage(page, 'WIDGET_ERROR')).toEqual({
      type: 'WIDGET_ERROR',
      code: 'INVALID_PATIENT_DATA',
      message: 'patient.id: must not be empty; patient.gender: must be one of male, female, other, unknown',
    });

    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    const header = widget.getByRole('region', { name: 'Ana Q. Example' });
    await header.waitFor();
    expect(await header.textContent()).toMatch(/\d+ years · female · born 1984-05-17/);
    expect(await header.getByRole('listitem').allTextContents()).toEqual([
      'Penicillin · severe · hives',
      'Metformin 500 mg twice daily',
    ]);
    await page.close();
  });

  it('records after consent, shows the transcript, and sends the note under the EMR’s keys — again after edits', async () => {
    const { page, widget } = await openHost('visit-scribe');
    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    const { sessionId } = await nextMessage(page, 'SESSION_STARTED');

    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    // The service transcribes with the embedded PocketSphinx: the clinician is told, and told to review.
    expect(await widget.getByRole('region', { name: 'Recorder' }).textContent()).toMatch(
      /built-in recognizer \(PocketSphinx\).*Review the transcript before you rely on it/,
    );
    await widget.getByRole('button', { name: 'Record' }).click();
    await widget.getByRole('button', { name: 'Pause' }).waitFor();
    // The consent the recording rests on stays in view while it runs.
    expect(await widget.getByRole('region', { name: 'Recorder' }).textContent()).toMatch(
      /Patient consented to recording \(verbal/,
    );
    const transcript = widget.getByRole('log', { name: 'Transcript' });
    await expect.poll(() => transcript.textContent(), { timeout: 30_000 }).toMatch(/cough|fever|three days/);
    await widget.getByRole('button', { name: 'Stop' }).click();
    await widget.getByRole('button', { name: 'Record' }).waitFor();
    const streams = await widget
      .locator('body')
      .evaluate(() =>
        (window.capturedStreams ?? []).flatMap((stream) => stream.getTracks().map((track) => track.readyState)),
      );
    expect(streams.length).toBeGreaterThan(0);
    expect(streams.every((state) => state === 'ended')).toBe(true);

    await widget.getByRole('button', { name: 'Generate note' }).click();
    await widget.getByRole('button', { name: 'Send to chart' }).first().click();
    const first = await nextMessage(page, 'PUSH_NOTE');
    expect(first).toMatchObject({ type: 'PUSH_NOTE', sessionId, patientId: 'MRN-7731' });
    expect(Object.keys(first.sections ?? {})).toEqual(['story', 'exam', 'impression', 'nextSteps']);
    expect(first.transcript).toMatch(/cough|fever|three days/);
    expect(first.note).not.toBe('');

    await widget.getByRole('textbox', { name: 'Plan' }).fill('Fluids and rest. Review in one week.');
    await widget.getByRole('button', { name: 'Send to chart' }).first().click();
    const second = await nextMessage(page, 'PUSH_NOTE', 2);
    expect(second.sections?.['nextSteps']).toBe('Fluids and rest. Review in one week.');
    expect(second.note).toContain('Fluids and rest. Review in one week.');
    expect(second.sessionId).toBe(sessionId);

    await widget.getByRole('checkbox', { name: 'Send as PDF' }).check();
    await widget.getByRole('textbox', { name: 'Referral to' }).fill('Dr. Lee, Respirology');
    await widget.getByRole('button', { name: 'Referral letter' }).click();
    await widget.getByRole('form', { name: 'Referral letter' }).getByRole('button', { name: 'Send to chart' }).click();
    const document = await nextMessage(page, 'PUSH_DOCUMENT');
    expect(document).toMatchObject({
      type: 'PUSH_DOCUMENT',
      title: 'Referral letter',
      documentType: 'pdf',
      sessionId,
      patientId: 'MRN-7731',
    });
    // The link names the harness's widget host (a name, not a listener): fetch it from where the service listens.
    const link = new URL(document.pdfUrl ?? '');
    const pdf = await fetch(`${widgetOrigin}${link.pathname}${link.search}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    // Relaunched for the same EMR session: the same encounter, with what it held.
    const again = await openHost('visit-scribe');
    expect(await nextMessage(again.page, 'SESSION_STARTED')).toEqual({ type: 'SESSION_STARTED', sessionId });
    await again.widget.getByRole('region', { name: 'Ana Q. Example' }).waitFor();
    expect(await again.widget.getByRole('log', { name: 'Transcript' }).textContent()).toMatch(/cough|fever|three days/);
    expect(await again.widget.getByRole('textbox', { name: 'Plan' }).inputValue()).toBe(
      'Fluids and rest. Review in one week.',
    );
    await again.widget.getByRole('form', { name: 'Referral letter' }).waitFor();
    await again.page.close();
    await page.close();
  }, 90_000);

  it('ignores messages from another origin and from windows other than its host', async () => {
    const { page, widget } = await openHost('visit-foreign', { foreign: true });
    const foreign = page.frames().find((frame) => frame.url().startsWith(host.foreignOrigin));
    await foreign?.evaluate(() => window.postForeign());
    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    await widget.getByRole('region', { name: 'Ana Q. Example' }).waitFor();
    expect((await received(page)).map((message) => message.type)).not.toContain('WIDGET_ERROR');
    expect(await widget.getByText('Mallory Intruder').count()).toBe(0);
    expect(await widget.getByRole('heading', { name: 'Scribe closed' }).count()).toBe(0);
    await page.close();
  });

  it('reports an iframe embedded without allow="microphone" to its host, and explains it', async () => {
    const { page, widget } = await openHost('visit-no-microphone', { allowMicrophone: false });
    expect(await nextMessage(page, 'WIDGET_ERROR')).toEqual({
      type: 'WIDGET_ERROR',
      code: 'MICROPHONE_NOT_ALLOWED',
      message: expect.stringContaining('allow="microphone"') as unknown,
    });
    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    await widget.getByText('This page does not let the scribe use the microphone').waitFor();
    await page.close();
  });

  it('says a recording waits for transcription capacity, and records once a place is free', async () => {
    const client = new Chartwright({ apiKey: h.project.testKey, baseUrl: widgetOrigin });
    const others: RealtimeSession[] = [];
    for (let index = 0; index < MAX_SESSIONS; index++) {
      others.push(await client.realtime.connect({ encoding: 'pcm_s16le', sampleRate: 16_000 }));
    }
    const { page, widget } = await openHost('visit-capacity');
    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await widget.getByRole('button', { name: 'Record' }).click();
    const recorder = widget.getByRole('region', { name: 'Recorder' });
    await expect
      .poll(() => recorder.getByRole('status').allTextContents(), { timeout: 20_000 })
      .toContainEqual(
        expect.stringMatching(/^Transcription is at capacity: waiting for a free place \(attempt \d+ of 17\)…$/),
      );

    others.pop()?.close();
    await widget.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 30_000 });
    expect(await recorder.textContent()).not.toMatch(/waiting for a free place/);
    await widget.getByRole('button', { name: 'Stop' }).click();
    await widget.getByRole('button', { name: 'Record' }).waitFor();
    for (const session of others) session.close();
    await page.close();
  }, 60_000);

  it('stops recording and releases the microphone on CLOSE_WIDGET', async () => {
    const { page, widget } = await openHost('visit-close');
    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await widget.getByRole('button', { name: 'Record' }).click();
    await widget.getByRole('button', { name: 'Pause' }).waitFor();
    await page.evaluate(() => window.sendToWidget({ type: 'CLOSE_WIDGET' }));
    await widget.getByRole('heading', { name: 'Scribe closed' }).waitFor();
    const tracks = await widget
      .locator('body')
      .evaluate(() =>
        (window.capturedStreams ?? []).flatMap((stream) => stream.getTracks().map((track) => track.readyState)),
      );
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks.every((state) => state === 'ended')).toBe(true);
    await page.close();
  });

  it('swaps a token without reloading, and reports an expired one so the host reloads it', async () => {
    const { page, widget } = await openHost('visit-token');
    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    await widget.getByRole('region', { name: 'Ana Q. Example' }).waitFor();

    // The token runs out under the widget: its next call asks the host, which answers with a new one.
    h.clock.advance(25 * 3_600_000);
    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await nextMessage(page, 'REQUEST_TOKEN_REFRESH');
    const fresh = new URL(await widgetUrl('visit-token')).searchParams.get('token');
    await page.evaluate((token) => window.sendToWidget({ type: 'TOKEN_REFRESH', token }), fresh);
    await widget.getByRole('button', { name: 'Record' }).waitFor();
    expect((await received(page)).map((message) => message.type)).not.toContain('TOKEN_EXPIRED');

    // A page opened with a token that is over tells its host at once.
    h.clock.advance(25 * 3_600_000);
    const stale = await widgetUrl('visit-token');
    h.clock.advance(25 * 3_600_000);
    await page.evaluate((src) => {
      window.received.length = 0;
      window.reloadWidget(src);
    }, stale);
    expect(await nextMessage(page, 'TOKEN_EXPIRED')).toEqual({ type: 'TOKEN_EXPIRED' });
    await widget.getByRole('heading', { name: 'Your session has expired' }).waitFor();
    await page.close();
  });

  it('is operable from the keyboard alone', async () => {
    const { page, widget } = await openHost('visit-keyboard');
    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    const consent = widget.getByRole('button', { name: 'Patient consents to recording' });
    await consent.waitFor();
    const focused = () => widget.locator(':focus').first().textContent();
    // Tab through the page into the widget, to the consent button, then confirm with Enter.
    for (let presses = 0; presses < 20 && (await widget.locator(':focus').count()) === 0; presses++) {
      await page.keyboard.press('Tab');
    }
    for (let presses = 0; presses < 10 && (await focused()) !== 'Patient consents to recording'; presses++) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await widget.getByRole('button', { name: 'Record' }).waitFor();
    await page.close();
  });

  it('reads at 320 px wide without scrolling sideways', async () => {
    const { page, widget } = await openHost('visit-narrow', { width: 320 });
    await page.evaluate((message) => window.sendToWidget(message), PATIENT_CONTEXT);
    await widget.getByRole('region', { name: 'Ana Q. Example' }).waitFor();
    const overflow = await widget
      .locator('body')
      .evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await page.close();
  });
});
