import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { WidgetNote, WidgetToEmrMessage } from '@chartwright/protocol';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { testConfig } from '@chartwright/server/internal/config/config.js';
import { launchChromium, missingBrowser } from '@chartwright/testing/browser.js';
import { FakeChatCompletionsServer, json } from '@chartwright/testing/fake-chat-completions-server.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { openWidget, setPatientContext, storeRealtimeSession, VISIT } from '@chartwright/testing/widget-encounters.js';
import { startHostServer, type HostServer } from './test-support/host-page.js';

/**
 * What the clinician reads, in Debian's Chromium inside an EMR page on another origin, against the
 * real service: the note's warnings, review flags and omission report as the service's verifier
 * wrote them, the note without scrolling inside it (at 1024 px and on a phone), refused patient
 * details, consent in view, the name on letters and one draft per kind. The visit's transcript is
 * stored as the realtime socket stores it (no microphone here); the note is written by the
 * OpenAI-compatible engine against a fake provider — the only double, for a third-party service —
 * whose note leaves the plan out and adds a sentence that cites nothing.
 */
const missing = missingBrowser();
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

const LLM_NOTE = {
  sections: {
    subjective: [{ text: 'Reports a cough and a fever for 3 days.', facts: [], turns: [1], context: [] }],
    objective: [{ text: 'Appears comfortable.', facts: [], turns: [], context: [] }],
    assessment: [{ text: 'Viral upper respiratory infection.', facts: [], turns: [5], context: [] }],
    plan: [],
  },
};
const SPANISH_VISIT = [
  ['clinician', 'Buenos días, ¿qué le trae por aquí hoy?'],
  ['patient', 'Tengo tos y fiebre desde hace tres días, y me duele el pecho cuando toso por la noche.'],
  ['clinician', '¿Tiene dificultad para respirar o dolor de cabeza?'],
  ['patient', 'No, pero estoy muy cansada y no puedo dormir bien por la noche desde el lunes.'],
  ['clinician', 'Vamos a hacer una radiografía y le daré un jarabe para la tos.'],
] as const;
const PATIENT = { id: 'MRN-8812', name: 'Bea Example', dob: '1979-11-02', gender: 'female' } as const;
// The curated SOAP template under the EMR's own keys: flags come back under these.
const NOTE_CONFIG = {
  sections: [
    { key: 'subj', label: 'Subjective' },
    { key: 'obj', label: 'Objective' },
    { key: 'assess', label: 'Assessment' },
    { key: 'planItems', label: 'Plan' },
  ],
};

declare global {
  interface Window {
    received: WidgetToEmrMessage[];
    sendToWidget(message: unknown): void;
  }
}

describe.skipIf(missing.length > 0)('what the clinician reads in the widget, in Chromium', () => {
  let browser: Browser;
  const llm = new FakeChatCompletionsServer();
  let h: Harness;
  let widgetOrigin: string;
  let host: HostServer;
  let partner: { id: string; partnerKey: string };

  beforeAll(async () => {
    execFileSync(process.execPath, [join(packageDir, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
    browser = await launchChromium();
    await llm.start();
    h = await createHarness({
      config: {
        notes: {
          ...testConfig().notes,
          engine: 'openai',
          openai: { baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model', timeoutMs: 10_000 },
          retentionDays: 30,
        },
      },
    });
    widgetOrigin = await h.app.listen({ port: 0, host: '127.0.0.1' });
    host = await startHostServer();
    partner = await h.createPartner({ origins: [host.origin] });
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await host.close();
    await h.close();
    await llm.close();
  }, 60_000);

  /** The encounter of `emrSessionId` with its patient and a stored transcript, then the widget on it. */
  async function openVisit(
    emrSessionId: string,
    segments: Parameters<typeof storeRealtimeSession>[3],
    width = 1024,
  ): Promise<{ page: Page; widget: FrameLocator }> {
    const opened = await openWidget(h, partner.partnerKey, { emrSessionId });
    await setPatientContext(h, opened, { patient: PATIENT, noteConfig: NOTE_CONFIG });
    await storeRealtimeSession(h, partner.id, opened.sessionId, segments, { id: `rts_${emrSessionId}` });
    return openWidgetPage(emrSessionId, width);
  }

  /** The EMR page with the widget for `emrSessionId`, once it shows the patient. */
  async function openWidgetPage(emrSessionId: string, width = 1024): Promise<{ page: Page; widget: FrameLocator }> {
    const { token } = await openWidget(h, partner.partnerKey, { emrSessionId });
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(host.pageUrl(`${widgetOrigin}/widget?token=${encodeURIComponent(token)}`));
    const widget = page.frameLocator('iframe[title="Chartwright scribe"]');
    await widget.getByRole('region', { name: PATIENT.name }).waitFor();
    return { page, widget };
  }

  /** Asks the widget for a note, and resolves with the note the service answered it. */
  async function generateNote(page: Page, widget: FrameLocator): Promise<WidgetNote> {
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && /\/api\/widget\/encounters\/[^/]+\/notes$/.test(response.url()),
    );
    llm.script(json(LLM_NOTE));
    await widget.getByRole('button', { name: 'Generate note' }).click();
    const response = await answered;
    expect(response.status()).toBe(201);
    await widget.getByRole('form', { name: 'Note sections' }).waitFor();
    return (await response.json()) as WidgetNote;
  }

  it('shows the omission report and the flags beside a note that reads without scrolling inside it', async () => {
    const { page, widget } = await openVisit('visit-review', VISIT);
    const note = await generateNote(page, widget);
    expect(note.engine.name).toBe('openai');
    expect(note.omissions.length).toBeGreaterThan(0);
    const review = widget.getByRole('complementary', { name: 'Check before sending' });
    const missingList = review.getByRole('region', { name: 'Possibly missing from the note' });
    for (const omission of note.omissions) {
      await expect.poll(() => missingList.textContent()).toContain(omission.text);
    }
    // The sentence that cites nothing is flagged under its own section.
    expect(note.flags.map((flag) => [flag.code, flag.section])).toContainEqual(['uncited_sentence', 'obj']);
    const flagged = widget.getByRole('list', { name: 'To check in Objective' });
    expect(await flagged.textContent()).toContain('Appears comfortable.');

    // Beside the note at 1024 px, and every section as tall as its text.
    const form = await widget.getByRole('form', { name: 'Note sections' }).boundingBox();
    const aside = await review.boundingBox();
    expect(aside?.x ?? 0).toBeGreaterThan((form?.x ?? 0) + (form?.width ?? 0) - 1);
    const scrolled = await widget
      .locator('textarea.grow')
      .evaluateAll((boxes) => boxes.filter((box) => box.scrollHeight > box.clientHeight + 2).length);
    expect(scrolled).toBe(0);

    // On a phone: under the note, and nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 800 });
    await expect
      .poll(
        async () =>
          ((await review.boundingBox())?.y ?? 0) >
          ((await widget.getByRole('form', { name: 'Note sections' }).boundingBox())?.y ?? 0),
      )
      .toBe(true);
    const overflow = await widget
      .locator('body')
      .evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await page.close();

    // Relaunched for the same visit: the note comes back with what to check.
    const again = await openWidgetPage('visit-review');
    const restored = again.widget.getByRole('complementary', { name: 'Check before sending' });
    for (const omission of note.omissions) await expect.poll(() => restored.textContent()).toContain(omission.text);
    await again.page.close();
  }, 60_000);

  it('shows the warnings of a note written from a visit that is not in English', async () => {
    const { page, widget } = await openVisit('visit-spanish', SPANISH_VISIT);
    const note = await generateNote(page, widget);
    expect(note.warnings.map((warning) => warning.code)).toContain('not_english');
    const warnings = widget.getByRole('region', { name: 'Warnings' });
    expect(await warnings.getByRole('listitem').allTextContents()).toEqual(
      note.warnings.map((warning) => warning.message),
    );
    await page.close();
  }, 60_000);

  it('tells the clinician what is wrong with refused patient details, keeps consent in view, and signs letters with their name', async () => {
    const { page, widget } = await openVisit('visit-letters', VISIT);
    await page.evaluate(() =>
      window.sendToWidget({ type: 'PATIENT_CONTEXT', patient: { id: 'MRN-8812', name: ' ', gender: 'robot' } }),
    );
    const problems = widget
      .getByRole('alert')
      .filter({ hasText: 'The EMR sent patient details the scribe cannot use' });
    await problems.waitFor();
    expect(await problems.getByRole('listitem').allTextContents()).toEqual([
      'Patient › name: must not be empty',
      'Patient › gender: must be one of male, female, other, unknown',
    ]);
    await widget.getByRole('region', { name: PATIENT.name }).waitFor();

    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    const recorder = widget.getByRole('region', { name: 'Recorder' });
    await recorder.getByText(/Patient consented to recording \(verbal/).waitFor();

    await generateNote(page, widget);
    await widget.getByRole('textbox', { name: 'Your name on letters' }).fill('Dr. Ana Rivera');
    await widget.getByRole('button', { name: 'Save name' }).click();
    await widget.getByText('Letters are signed').waitFor();

    // A referral is addressed to someone the clinician names.
    await widget.getByRole('button', { name: 'Referral letter' }).click();
    await widget.getByText('Type whom the referral is addressed to.').waitFor();
    await widget.getByRole('textbox', { name: 'Referral to' }).fill('Dr. Lee, Respirology');
    await widget.getByRole('button', { name: 'Referral letter' }).click();
    const letter = widget.getByRole('form', { name: 'Referral letter' });
    const text = letter.getByRole('textbox', { name: 'Text', exact: true });
    await expect.poll(() => text.inputValue()).toMatch(/\nTo: Dr\. Lee, Respirology\nFrom: Dr\. Ana Rivera\n/);
    await text.fill('Dear Dr. Lee,\n\nPlease see Bea about her cough.');
    await letter.getByRole('button', { name: 'Send to chart' }).click();
    await page.waitForFunction(() => window.received.some((message) => message.type === 'PUSH_DOCUMENT'));
    const [pushed] = (await page.evaluate(() => window.received)).filter((message) => message.type === 'PUSH_DOCUMENT');
    expect(pushed).toMatchObject({
      content: 'Dear Dr. Lee,\n\nPlease see Bea about her cough.',
      patientId: PATIENT.id,
    });

    // Written again: still one referral, rewritten, and the clinician's version one click away.
    await widget.getByRole('button', { name: 'Referral letter' }).click();
    await widget.getByRole('button', { name: 'Restore my edited version' }).click();
    await expect
      .poll(() =>
        widget
          .getByRole('form', { name: 'Referral letter' })
          .getByRole('textbox', { name: 'Text', exact: true })
          .inputValue(),
      )
      .toBe('Dear Dr. Lee,\n\nPlease see Bea about her cough.');
    expect(await widget.getByRole('form', { name: 'Referral letter' }).count()).toBe(1);
    await page.close();
  }, 60_000);
});
