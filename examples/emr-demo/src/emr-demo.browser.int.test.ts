import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { paddedSpeechWav } from '@chartwright/testing/speech.js';
import {
  capturedTrackStates,
  FOREIGN_ORIGIN,
  launchWithMicrophone,
  missingBrowser,
  recordCapturedStreams,
  serveForeignSite,
  widgetFrame,
} from '@chartwright/testing/browser.js';
import {
  buildForBrowserTests,
  freePort,
  requestsTo,
  startWidgetService,
  type WidgetService,
} from '@chartwright/testing/widget-service.js';
import { PocketSphinxRecognizer } from '@chartwright/testing/speech.js';
import { pdfText, pdftotextInstalled } from '@chartwright/testing/pdf-text.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';
import { startEmrDemo, type EmrDemo } from './server/emr-server.js';

/**
 * The acceptance tests of the widget, end to end: the demo EMR (on localhost) embeds the real
 * widget (served by the real service on 127.0.0.1, another origin and another site) with
 * @chartwright/embed, in Debian's Chromium; the fake microphone plays a flite recording and the
 * offline recognizer transcribes it. What the EMR receives is read from its own chart store.
 */
const missing = [
  ...missingBrowser(),
  ...(await missingSpeechTools()),
  ...(pdftotextInstalled() ? [] : ['pdftotext (poppler-utils)']),
];
const SENTENCE = 'i have had a cough and a fever for three days';
const SPOKEN = /cough|fever|three days/;
const DAY_MS = 86_400_000;
/** How long to wait for what the browser and the service do after an action: a bound, not a speed requirement. */
const EVENTUALLY = { timeout: 20_000 };
const demoDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe.skipIf(missing.length > 0)('the demo EMR and the widget on two origins, in Chromium', () => {
  let scratch: string;
  let browser: Browser;
  let recognizer: PocketSphinxRecognizer;
  let service: WidgetService;
  let demo: EmrDemo;

  beforeAll(async () => {
    buildForBrowserTests();
    scratch = mkdtempSync(join(tmpdir(), 'chartwright-emr-demo-'));
    browser = await launchWithMicrophone(paddedSpeechWav(SENTENCE, scratch, 1000));
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    await recognizer.warmUp();
    service = await startWidgetService({ recognizer });
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const { partnerKey } = await service.harness.createPartner({ name: 'Demo EMR', origins: [origin] });
    demo = await startEmrDemo({
      chartwrightUrl: service.url,
      widgetUrl: service.widgetUrl,
      partnerKey,
      host: '127.0.0.1',
      port,
      publicUrl: origin,
      publicDir: join(demoDir, 'dist', 'public'),
    });
  }, 180_000);
  afterAll(async () => {
    // First, so no page keeps a realtime session open while the service shuts down.
    await browser.close();
    await demo.close();
    await service.close();
    await recognizer.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Opens the chart of `patientId` for a new visit (a new emrSessionId, so a new encounter). */
  async function openChart(patientId: string, options: { width?: number } = {}) {
    demo.store.startVisit(patientId);
    const page = await browser.newPage({ viewport: { width: options.width ?? 1400, height: 1000 } });
    await page.addInitScript(recordCapturedStreams);
    await serveForeignSite(page.context());
    const widgetUrls: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame.url().startsWith(service.widgetUrl)) widgetUrls.push(frame.url());
    });
    await page.goto(`${demo.url}/patients/${patientId}`);
    return { page, widget: widgetFrame(page), widgetUrls };
  }

  /** The types of the messages the EMR page heard from the widget, oldest first (its "Widget messages" log). */
  async function heard(page: Page): Promise<string[]> {
    const lines = await page.getByRole('log', { name: 'Widget messages' }).getByRole('listitem').allTextContents();
    return lines.map((line) => line.split(' ').at(-1) ?? '').reverse();
  }
  const heardCount = async (page: Page, type: string) =>
    (await heard(page)).filter((heardType) => heardType === type).length;

  /** Opens a window of `url` from the EMR page and posts `messages` from it: to the EMR page, or to the widget. */
  async function postFromWindow(page: Page, url: string, messages: { toEmr?: unknown[]; toWidget?: unknown[] }) {
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.evaluate((address) => void open(address), url),
    ]);
    await popup.waitForLoadState();
    await popup.evaluate(({ toEmr = [], toWidget = [] }) => {
      const emr = window.opener as Window;
      for (const message of toEmr) emr.postMessage(message, '*');
      const widget = emr.frames[0];
      for (const message of toWidget) widget?.postMessage(message, '*');
    }, messages);
    await popup.close();
  }

  it('records the visit, shows the words, and files the note under the chart’s own keys — again after an edit', async () => {
    const { page, widget } = await openChart('MRN-1002');
    await widget.getByRole('region', { name: "James O'Connor" }).waitFor();
    await expect.poll(() => demo.store.chart('MRN-1002').visit.sessionIds, EVENTUALLY).toHaveLength(1);
    const sessionId = demo.store.chart('MRN-1002').visit.sessionIds[0];
    expect(sessionId).toMatch(/^ses_/);

    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await widget.getByRole('button', { name: 'Record' }).click();
    await widget.getByRole('button', { name: 'Pause' }).waitFor();
    const transcript = widget.getByRole('log', { name: 'Transcript' });
    await expect.poll(() => transcript.textContent(), { timeout: 60_000 }).toMatch(SPOKEN);
    await widget.getByRole('button', { name: 'Stop' }).click();
    await widget.getByRole('button', { name: 'Record' }).waitFor();
    await widget.getByRole('button', { name: 'Generate note' }).click();
    await widget.getByRole('textbox', { name: 'Plan' }).waitFor();

    // Forged notes for this chart, from a foreign site and from a window of the widget's own origin
    // that is not the widget: the embed helper files neither.
    const forged = { type: 'PUSH_NOTE', note: 'FORGED', sections: { hpi: 'FORGED' }, sessionId, patientId: 'MRN-1002' };
    await postFromWindow(page, `${FOREIGN_ORIGIN}/forge.html`, { toEmr: [forged] });
    await postFromWindow(page, `${service.url}/healthz`, { toEmr: [forged] });

    await widget.getByRole('button', { name: 'Send to chart' }).first().click();
    const genuine = () => demo.store.chart('MRN-1002').notes.filter((note) => note.note !== 'FORGED');
    await expect.poll(genuine, EVENTUALLY).toHaveLength(1);
    // Heard in order: a forged note let through would have been heard, and filed, before this one.
    expect(await heardCount(page, 'PUSH_NOTE')).toBe(1);
    expect(demo.store.chart('MRN-1002').notes).toHaveLength(1);
    const [first] = demo.store.chart('MRN-1002').notes;
    expect(first?.sessionId).toBe(sessionId);
    expect(Object.keys(first?.sections ?? {})).toEqual(['hpi', 'exam', 'impression', 'plan']);
    expect(first?.transcript).toMatch(SPOKEN);
    const filed = page.getByRole('region', { name: 'Notes in chart' });
    await filed.getByText('History of present illness', { exact: true }).waitFor();

    const plan = 'Salbutamol four times a day for a week. Review in seven days.';
    await widget.getByRole('textbox', { name: 'Plan' }).fill(plan);
    await widget.getByRole('button', { name: 'Send to chart' }).first().click();
    await expect.poll(() => demo.store.chart('MRN-1002').notes, EVENTUALLY).toHaveLength(2);
    const [second] = demo.store.chart('MRN-1002').notes;
    expect(second?.sections?.['plan']).toBe(plan);
    expect(second?.note).toContain(plan);
    expect(second?.sessionId).toBe(sessionId);
    await expect.poll(() => filed.getByRole('article').count(), EVENTUALLY).toBe(2);
    await page.close();
  }, 120_000);

  it('files a PDF document whose link downloads the real PDF, and keeps a copy in the chart', async () => {
    const { page, widget } = await openChart('MRN-1001');
    await widget.getByRole('region', { name: 'Maria Alvarez' }).waitFor();
    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await widget.getByRole('button', { name: 'Record' }).click();
    const transcript = widget.getByRole('log', { name: 'Transcript' });
    await expect.poll(() => transcript.textContent(), { timeout: 60_000 }).toMatch(SPOKEN);
    await widget.getByRole('button', { name: 'Generate note' }).click();
    await widget.getByRole('textbox', { name: 'Plan' }).waitFor();

    await widget.getByRole('checkbox', { name: 'Send as PDF' }).check();
    await widget.getByRole('textbox', { name: 'Referral to' }).fill('Dr. Lee, Respirology');
    await widget.getByRole('button', { name: 'Referral letter' }).click();
    await widget.getByRole('form', { name: 'Referral letter' }).getByRole('button', { name: 'Send to chart' }).click();
    await expect.poll(() => demo.store.chart('MRN-1001').documents, EVENTUALLY).toHaveLength(1);
    const [document] = demo.store.chart('MRN-1001').documents;
    expect(document).toMatchObject({ title: 'Referral letter', documentType: 'pdf', pdfProblem: null });
    expect(document?.pdfUrl?.startsWith(`${service.url}/api/widget/documents/`)).toBe(true);

    // The link the widget sent downloads the PDF itself, with nothing else (no token, no cookie).
    const fromLink = await fetch(document?.pdfUrl ?? '');
    expect(fromLink.status).toBe(200);
    expect(fromLink.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(Buffer.from(await fromLink.arrayBuffer()));
    expect(text).toContain('Maria Alvarez');
    expect(text).toMatch(/REASON FOR REFERRAL/i);

    // The chart shows both links; its own copy outlives the expiring one.
    const documents = page.getByRole('region', { name: 'Documents in chart' });
    const copy = documents.getByRole('link', { name: 'Open PDF (chart copy)' });
    await copy.waitFor();
    expect(await documents.getByRole('link', { name: 'Original PDF link' }).getAttribute('href')).toBe(
      document?.pdfUrl,
    );
    const saved = await page.request.get(new URL((await copy.getAttribute('href')) ?? '', demo.url).href);
    expect(saved.headers()['content-type']).toBe('application/pdf');
    expect(pdfText(await saved.body())).toBe(text);
    await page.close();
  }, 120_000);

  it('relaunched for the same visit, the widget reopens the encounter: same sessionId, transcript and note', async () => {
    const { page, widget } = await openChart('MRN-1003');
    await widget.getByRole('region', { name: 'Priya Natarajan' }).waitFor();
    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await widget.getByRole('button', { name: 'Record' }).click();
    const transcript = widget.getByRole('log', { name: 'Transcript' });
    await expect.poll(() => transcript.textContent(), { timeout: 60_000 }).toMatch(SPOKEN);
    await widget.getByRole('button', { name: 'Generate note' }).click();
    const plan = 'Sumatriptan at onset. Headache diary.';
    await widget.getByRole('textbox', { name: 'Plan' }).fill(plan);
    await widget.getByRole('button', { name: 'Send to chart' }).first().click();
    await expect.poll(() => demo.store.chart('MRN-1003').notes, EVENTUALLY).toHaveLength(1);

    await page.reload();
    await widget.getByRole('region', { name: 'Priya Natarajan' }).waitFor();
    await expect.poll(() => demo.store.chart('MRN-1003').visit.sessionIds, EVENTUALLY).toHaveLength(2);
    const [opened, reopened] = demo.store.chart('MRN-1003').visit.sessionIds;
    expect(reopened).toBe(opened);
    expect(await widget.getByRole('log', { name: 'Transcript' }).textContent()).toMatch(SPOKEN);
    expect(await widget.getByRole('textbox', { name: 'Plan' }).inputValue()).toBe(plan);
    await page.close();
  }, 120_000);

  it('shows the WIDGET_ERROR for a record the widget refuses, naming every field', async () => {
    const { page } = await openChart('MRN-1099');
    const alert = page.getByRole('alert').filter({ hasText: 'INVALID_PATIENT_DATA' });
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('patient.gender: must be one of male, female, other, unknown');
    expect(text).toContain('patient.email: must be a valid e-mail address');
    expect(text).toMatch(/context\.allergies\[0\]\.severity: /);
    expect(text).toMatch(/noteConfig\.sections\[0\]\.key: must start with a letter/);
    expect(await heard(page)).toContain('WIDGET_ERROR');
    await page.close();
  });

  it('the widget ignores messages from a foreign site and from windows other than the EMR page', async () => {
    const { page, widget } = await openChart('MRN-1004');
    await widget.getByRole('region', { name: 'Samuel Lee' }).waitFor();
    const patientContextPuts = () => requestsTo(service, 'PUT', /\/patient-context$/);
    const before = patientContextPuts();

    const intruder = { type: 'PATIENT_CONTEXT', patient: { id: 'MRN-6666', name: 'Mallory Intruder' } };
    const broken = { type: 'PATIENT_CONTEXT', patient: { name: '' } };
    await postFromWindow(page, `${FOREIGN_ORIGIN}/intrude.html`, { toWidget: [intruder, broken] });
    // The EMR's own origin, but not the window that embeds the widget.
    await postFromWindow(page, `${demo.url}/`, { toWidget: [intruder, broken] });

    // The EMR page's CLOSE_WIDGET comes after those, through the same channel: once it shows, they were handled.
    await page.getByRole('button', { name: 'Close scribe' }).click();
    await widget.getByRole('heading', { name: 'Scribe closed' }).waitFor();
    expect(patientContextPuts()).toBe(before);
    expect(await widget.getByText('Mallory Intruder').count()).toBe(0);
    expect(await heard(page)).not.toContain('WIDGET_ERROR');
    await page.close();
  });

  it('CLOSE_WIDGET from the EMR stops the recording and releases the microphone', async () => {
    const { page, widget } = await openChart('MRN-1004');
    await widget.getByRole('region', { name: 'Samuel Lee' }).waitFor();
    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await widget.getByRole('button', { name: 'Record' }).click();
    await widget.getByRole('button', { name: 'Pause' }).waitFor();
    const live = await capturedTrackStates(widget);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((state) => state === 'live')).toBe(true);

    await page.getByRole('button', { name: 'Close scribe' }).click();
    await widget.getByRole('heading', { name: 'Scribe closed' }).waitFor();
    await expect.poll(() => capturedTrackStates(widget), EVENTUALLY).toEqual(live.map(() => 'ended'));
    await page.close();
  });

  it('answers TOKEN_EXPIRING with a new token the widget takes without reloading', async () => {
    // The first token is minted, then the service's clock moves to two minutes before it expires.
    service.afterNextMints(DAY_MS - 120_000);
    const minted = demo.tokensMinted;
    const sessionChecks = () => requestsTo(service, 'GET', /^\/api\/widget\/session$/);
    const checksBefore = sessionChecks();
    const { page, widget, widgetUrls } = await openChart('MRN-1003');
    await widget.getByRole('region', { name: 'Priya Natarajan' }).waitFor();
    await expect.poll(() => heardCount(page, 'TOKEN_EXPIRING'), EVENTUALLY).toBe(1);
    // The widget checks the new token with the service before it uses it.
    await expect.poll(sessionChecks, EVENTUALLY).toBe(checksBefore + 2);
    expect(demo.tokensMinted).toBe(minted + 2);

    // Past the first token's expiry, the widget still works: it calls with the new one.
    service.harness.clock.advance(180_000);
    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await widget.getByRole('button', { name: 'Record' }).waitFor();
    const types = await heard(page);
    expect(types.filter((type) => type === 'WIDGET_READY')).toHaveLength(1);
    expect(types).not.toContain('REQUEST_TOKEN_REFRESH');
    expect(types).not.toContain('TOKEN_EXPIRED');
    expect(widgetUrls).toHaveLength(1);
    await page.close();
  });

  it('reloads the widget with a new token when it reports TOKEN_EXPIRED', async () => {
    // The first token is over by the time the widget page loads.
    service.afterNextMints(DAY_MS + 60_000);
    const minted = demo.tokensMinted;
    const { page, widget, widgetUrls } = await openChart('MRN-1001');
    await widget.getByRole('region', { name: 'Maria Alvarez' }).waitFor();
    await expect.poll(() => heardCount(page, 'SESSION_STARTED'), EVENTUALLY).toBe(1);
    const types = await heard(page);
    expect(types.indexOf('TOKEN_EXPIRED')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('TOKEN_EXPIRED')).toBeLessThan(types.indexOf('WIDGET_READY'));
    expect(demo.tokensMinted).toBe(minted + 2);
    const tokens = widgetUrls.map((url) => new URL(url).searchParams.get('token'));
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).not.toBe(tokens[0]);
    await page.close();
  });
});
