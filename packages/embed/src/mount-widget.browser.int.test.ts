import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { SetPatientContextRequest, WidgetToEmrMessage } from '@chartwright/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { paddedSpeechWav } from '@chartwright/testing/speech.js';
import { PocketSphinxRecognizer } from '@chartwright/testing/speech.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';
import {
  capturedTrackStates,
  launchWithMicrophone,
  missingBrowser,
  recordCapturedStreams,
  widgetFrame,
} from '@chartwright/testing/browser.js';
import { SCRIPT_BUNDLE, startHostPage, type HostPage } from './test-support/host-page.js';
import {
  buildForBrowserTests,
  freePort,
  startWidgetService,
  type WidgetService,
} from '@chartwright/testing/widget-service.js';

/**
 * The script-tag build in Debian's Chromium, on an EMR page (localhost) embedding the real widget
 * (127.0.0.1): what the page's code sees through `Chartwright.mountWidget`.
 */
const missing = [...missingBrowser(), ...(await missingSpeechTools())];
/** How long to wait for what the browser and the service do after an action: a bound, not a speed requirement. */
const EVENTUALLY = { timeout: 20_000 };
/** destroy()'s grace in the test: the microphone must be released within it, while the iframe is still there. */
const GRACE_MS = 10_000;

type Heard =
  | { kind: 'message'; value: WidgetToEmrMessage }
  | { kind: 'note' | 'session'; value: unknown }
  | { kind: 'error'; value: { source: string; code: string; message: string } };

declare global {
  interface Window {
    heard: Heard[];
    mountScribe(options: { widgetUrl: string; visit: string; patientContext: SetPatientContextRequest }): void;
    scribe: import('./types.js').WidgetHandle;
    Chartwright: typeof import('./index.js');
    destroyed?: Promise<void>;
  }
}

const ANN: SetPatientContextRequest = {
  patient: { id: 'MRN-31', name: 'Ann Example', dob: '1971-04-02', gender: 'female' },
  context: { allergies: [{ name: 'Penicillin', severity: 'severe' }] },
};

describe.skipIf(missing.length > 0)('the script-tag helper in Chromium with the real widget', () => {
  let scratch: string;
  let browser: Browser;
  let recognizer: PocketSphinxRecognizer;
  let service: WidgetService;
  let host: HostPage;
  let visits = 0;

  beforeAll(async () => {
    buildForBrowserTests();
    scratch = mkdtempSync(join(tmpdir(), 'chartwright-embed-'));
    browser = await launchWithMicrophone(paddedSpeechWav('please call me back in the morning', scratch, 1000));
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    service = await startWidgetService({ recognizer });
    const port = await freePort();
    const { partnerKey } = await service.harness.createPartner({ origins: [`http://localhost:${port}`] });
    host = await startHostPage(service, port, partnerKey);
  }, 180_000);
  afterAll(async () => {
    // First, so no page keeps a realtime session open while the service shuts down.
    await browser.close();
    await host.close();
    await service.close();
    await recognizer.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function mounted(patientContext: SetPatientContextRequest): Promise<Page> {
    const page = await browser.newPage();
    await page.addInitScript(recordCapturedStreams);
    await page.goto(host.origin);
    visits++;
    await page.evaluate((options) => window.mountScribe(options), {
      widgetUrl: service.widgetUrl,
      visit: `visit-${visits}`,
      patientContext,
    });
    return page;
  }

  const heard = (page: Page) => page.evaluate(() => window.heard);

  it('defines Chartwright.mountWidget with no validation library, and mounts an iframe that may use the microphone', async () => {
    expect(readFileSync(SCRIPT_BUNDLE, 'utf8')).not.toMatch(/zod|ZodError/);
    const page = await mounted(ANN);
    expect(await page.evaluate(() => typeof window.Chartwright.mountWidget)).toBe('function');
    const iframe = page.locator('#scribe iframe');
    expect(await iframe.getAttribute('allow')).toBe('microphone');
    expect(await iframe.getAttribute('title')).toBe('Chartwright scribe');
    expect(await iframe.getAttribute('referrerpolicy')).toBe('origin');
    const src = new URL((await iframe.getAttribute('src')) ?? '');
    expect(`${src.origin}${src.pathname}`).toBe(service.widgetUrl);
    expect(src.searchParams.get('token')).toMatch(/^eyJ/);

    // WIDGET_READY is answered with the patient; the widget shows them.
    const widget = widgetFrame(page);
    await widget.getByRole('region', { name: 'Ann Example' }).waitFor();
    await expect.poll(async () => (await heard(page)).map(({ kind }) => kind), EVENTUALLY).toContain('session');
    const first = (await heard(page)).find(({ kind }) => kind === 'message');
    expect(first?.value).toEqual({ type: 'WIDGET_READY', version: expect.any(String) as unknown });

    // update() sends the changed chart at once.
    await page.evaluate((patientContext) => window.scribe.update({ patientContext }), {
      ...ANN,
      context: { allergies: [{ name: 'Penicillin' }, { name: 'Latex', reaction: 'rash' }] },
    });
    await widget.getByRole('region', { name: 'Ann Example' }).getByText('Latex · rash').waitFor();
    expect((await heard(page)).filter(({ kind }) => kind === 'error')).toEqual([]);
    await page.close();
  });

  it('hands the widget’s WIDGET_ERROR to onError, every field named', async () => {
    const page = await mounted({ patient: { id: 'MRN-32', name: 'Bo', gender: 'robot', email: 'bo@' } });
    await expect
      .poll(async () => (await heard(page)).filter(({ kind }) => kind === 'error'))
      .toEqual([
        {
          kind: 'error',
          value: {
            source: 'widget',
            code: 'INVALID_PATIENT_DATA',
            message:
              'patient.gender: must be one of male, female, other, unknown; patient.email: must be a valid e-mail address',
          },
        },
      ]);
    await page.close();
  });

  it('refuses unusable options at once, naming each, before anything is mounted', async () => {
    const page = await browser.newPage();
    await page.goto(host.origin);
    const thrown = await page.evaluate(() => {
      try {
        window.Chartwright.mountWidget({ widgetUrl: '/widget' } as never);
        return null;
      } catch (error) {
        const { name, code, source, message } = error as InstanceType<typeof window.Chartwright.WidgetEmbedError>;
        return { name, code, source, message, isEmbedError: error instanceof window.Chartwright.WidgetEmbedError };
      }
    });
    expect(thrown).toEqual({
      name: 'WidgetEmbedError',
      code: 'INVALID_OPTIONS',
      source: 'embed',
      isEmbedError: true,
      message: expect.stringContaining('container: must be a DOM element; widgetUrl: ') as unknown,
    });
    expect(await page.locator('iframe').count()).toBe(0);
    await page.close();
  });

  it('destroy() sends CLOSE_WIDGET, lets the widget release the microphone, then removes the iframe', async () => {
    const page = await mounted(ANN);
    const widget = widgetFrame(page);
    await widget.getByRole('region', { name: 'Ann Example' }).waitFor();
    await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
    await widget.getByRole('button', { name: 'Record' }).click();
    await widget.getByRole('button', { name: 'Pause' }).waitFor();
    const live = await capturedTrackStates(widget);
    expect(live.length).toBeGreaterThan(0);

    await page.evaluate((graceMs) => {
      window.destroyed = window.scribe.destroy({ graceMs });
    }, GRACE_MS);
    expect(await page.locator('#scribe iframe').isHidden()).toBe(true);
    await expect.poll(() => capturedTrackStates(widget), { timeout: GRACE_MS - 2000 }).toEqual(live.map(() => 'ended'));
    const heardBefore = (await heard(page)).length;
    await page.evaluate(() => window.destroyed);
    expect(await page.locator('#scribe iframe').count()).toBe(0);
    expect((await heard(page)).length).toBe(heardBefore);
    await page.close();
  }, 60_000);
});
