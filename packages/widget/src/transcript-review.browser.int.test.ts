import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import type { RealtimeToken, WidgetNote, WidgetTranscript } from '@chartwright/protocol';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium, missingBrowser, widgetFrame } from '@chartwright/testing/browser.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { open, realtimeUrl } from '@chartwright/testing/realtime-client.js';
import { missingSpeechTools, PocketSphinxRecognizer, silence, synthesizeSpeech } from '@chartwright/testing/speech.js';
import { openWidget, setPatientContext, widgetCall } from '@chartwright/testing/widget-encounters.js';
import { startHostServer, type HostServer } from './test-support/host-page.js';

/**
 * The transcript a clinician reviews, in Debian's Chromium inside an EMR page on another origin,
 * against the real service, SQLite and PocketSphinx: a visit recorded on two channels (clinician
 * left, patient right, spoken by flite) shows each line's speaker and its display text, the
 * clinician swaps roles with one click and back, corrects a misheard medicine, and the note is
 * written from the correction.
 */
const missing = [...missingBrowser(), ...(await missingSpeechTools())];
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

const PATIENT = { id: 'MRN-5150', name: 'Cy Example', dob: '1961-07-30', gender: 'male' } as const;
/** [speaker, what flite says]: the clinician on the left channel, the patient on the right. */
const VISIT = [
  ['clinician', 'what medicines do you take'],
  ['patient', 'i take lisinopril ten milligrams every morning'],
  ['clinician', 'do you have any chest pain'],
  ['patient', 'no chest pain'],
] as const;
const CORRECTED = 'i take losartan fifty milligrams every morning';

/** The visit as 16 kHz 16-bit stereo: each turn on its speaker's channel, quiet room noise on the other. */
function stereoVisit(): Buffer {
  const frames: Buffer[] = [];
  for (const [speaker, sentence] of VISIT) {
    const speech = synthesizeSpeech(sentence, speaker === 'clinician' ? 'rms' : 'slt');
    const spoken = Buffer.concat([Buffer.from(speech.buffer, speech.byteOffset, speech.byteLength), silence(900)]);
    const quiet = silence(spoken.length / 32);
    const left = speaker === 'clinician' ? spoken : quiet;
    const right = speaker === 'clinician' ? quiet : spoken;
    const samples = Math.min(left.length, right.length) / 2;
    const stereo = Buffer.alloc(samples * 4);
    for (let index = 0; index < samples; index++) {
      stereo.writeInt16LE(left.readInt16LE(index * 2), index * 4);
      stereo.writeInt16LE(right.readInt16LE(index * 2), index * 4 + 2);
    }
    frames.push(stereo);
  }
  return Buffer.concat(frames);
}

describe.skipIf(missing.length > 0)('reviewing the transcript in the widget, in Chromium', () => {
  let browser: Browser;
  let recognizer: PocketSphinxRecognizer;
  let h: Harness;
  let widgetOrigin: string;
  let host: HostServer;
  let partner: { id: string; partnerKey: string };

  beforeAll(async () => {
    execFileSync(process.execPath, [join(packageDir, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
    browser = await launchChromium();
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    await recognizer.warmUp();
    h = await createHarness({ recognizer });
    widgetOrigin = await h.app.listen({ port: 0, host: '127.0.0.1' });
    host = await startHostServer();
    partner = await h.createPartner({ origins: [host.origin] });
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await host.close();
    await h.close();
    await recognizer.close();
  }, 60_000);

  /** Records the visit for the encounter of `emrSessionId` over the realtime socket, as the widget's audio would be. */
  async function recordVisit(emrSessionId: string): Promise<{ sessionId: string; token: string }> {
    const opened = await openWidget(h, partner.partnerKey, { emrSessionId });
    await setPatientContext(h, opened, { patient: PATIENT });
    const encounter = `/api/widget/encounters/${opened.sessionId}`;
    expect((await widgetCall(h, opened.token, 'POST', `${encounter}/consent`, { method: 'verbal' })).statusCode).toBe(
      200,
    );
    const minted = await widgetCall(h, opened.token, 'POST', '/api/widget/realtime-tokens', {
      sessionId: opened.sessionId,
    });
    const client = await open(await realtimeUrl(h.app), {
      subprotocolCredential: minted.json<RealtimeToken>().token,
    });
    client.send({
      type: 'start',
      audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 },
      interimResults: false,
    });
    await client.next('started');
    const audio = stereoVisit();
    // 100 ms frames at four times real time, as the scribe test streams.
    for (let offset = 0; offset < audio.length; offset += 6400) {
      client.socket.send(audio.subarray(offset, offset + 6400));
      await sleep(25);
    }
    client.send({ type: 'stop' });
    await client.closed;
    return { sessionId: opened.sessionId, token: opened.token };
  }

  it('shows speakers and display text, swaps roles in one click, and writes the note from a corrected line', async () => {
    const visit = await recordVisit('visit-review-transcript');
    const recorded = (
      await widgetCall(h, visit.token, 'GET', `/api/widget/encounters/${visit.sessionId}/transcript`)
    ).json<WidgetTranscript>();
    const segments = recorded.realtimeSessions[0]?.segments ?? [];
    expect(segments.map((segment) => segment.speakerLabel)).toEqual(expect.arrayContaining(['S1', 'S2']));
    const question = segments.find((segment) => segment.speaker === 'clinician' && segment.display.endsWith('?'));
    expect(question, JSON.stringify(segments.map((segment) => segment.display))).toBeDefined();
    const medication = segments.find((segment) => segment.speaker === 'patient' && segment.text.includes('milligrams'));
    expect(medication, JSON.stringify(segments.map((segment) => segment.text))).toBeDefined();

    const { token } = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-review-transcript' });
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(host.pageUrl(`${widgetOrigin}/widget?token=${encodeURIComponent(token)}`));
    const widget = widgetFrame(page);
    await widget.getByRole('region', { name: PATIENT.name }).waitFor();
    const log = widget.getByRole('log', { name: 'Transcript' });

    // Each line: its speaker (role and voice) and its display text, punctuated and cased.
    await expect.poll(() => log.getByRole('listitem').count()).toBe(segments.length);
    const clinicianChips = log.getByRole('button', { name: /^Clinician · S1: swap roles/ });
    expect(await clinicianChips.count()).toBe(segments.filter((segment) => segment.speakerLabel === 'S1').length);
    // A doubtful word carries its mark for screen readers ("lisinopril (unsure, 49%)"); the words read on.
    const readText = async (): Promise<string> => ((await log.textContent()) ?? '').replace(/ \(unsure, \d+%\)/g, '');
    expect(await readText()).toContain(question?.display ?? '');
    expect(await readText()).toContain(medication?.display ?? '');
    // Chart form: the recognised "ten milligrams" reads as 10 mg.
    expect(medication?.display).toMatch(/^[A-Z].* 10 mg.*\.$/);

    // One click makes S1 the patient (and S2 the clinician) on every line; another click swaps back.
    await clinicianChips.first().click();
    await expect.poll(() => log.getByRole('button', { name: /^Patient · S1: swap roles/ }).count()).toBeGreaterThan(0);
    expect(await log.getByRole('button', { name: /^Clinician · S1/ }).count()).toBe(0);
    await log
      .getByRole('button', { name: /^Clinician · S2: swap roles/ })
      .first()
      .click();
    await expect.poll(() => clinicianChips.count()).toBeGreaterThan(0);

    // The misheard medicine, corrected from the keyboard.
    const line = log.getByRole('listitem').nth(segments.findIndex((segment) => segment === medication));
    await line.getByRole('button', { name: 'Correct' }).focus();
    await page.keyboard.press('Enter');
    const field = line.getByRole('textbox', { name: 'What was said' });
    await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
    await field.fill(CORRECTED);
    await page.keyboard.press('Enter');
    await expect.poll(() => log.textContent()).toContain('I take losartan 50 mg every morning.');
    expect(await log.textContent()).toContain(`Corrected; heard “${medication?.text ?? ''}”`);

    // One line's speaker, corrected alone: the question becomes the patient's; S1's other lines stay the clinician's.
    const questionLine = log.getByRole('listitem').nth(segments.findIndex((segment) => segment === question));
    await questionLine.getByRole('button', { name: 'Correct' }).click();
    await questionLine.getByRole('combobox', { name: 'Who said it' }).selectOption({ label: 'Patient' });
    await questionLine.getByRole('button', { name: 'Save correction' }).click();
    await expect.poll(() => questionLine.textContent()).toContain('Speaker corrected; heard as Clinician');
    expect(await questionLine.getByRole('button', { name: /^Patient · S1: swap roles/ }).count()).toBe(1);
    expect(await clinicianChips.count()).toBe(segments.filter((segment) => segment.speakerLabel === 'S1').length - 1);
    // And back: the note below is written from the clinician's question and the patient's answer.
    await questionLine.getByRole('button', { name: 'Correct' }).click();
    await questionLine.getByRole('combobox', { name: 'Who said it' }).selectOption({ label: 'Clinician' });
    await questionLine.getByRole('button', { name: 'Save correction' }).click();
    await expect
      .poll(() => clinicianChips.count())
      .toBe(segments.filter((segment) => segment.speakerLabel === 'S1').length);

    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && /\/api\/widget\/encounters\/[^/]+\/notes$/.test(response.url()),
    );
    await widget.getByRole('button', { name: 'Generate note' }).click();
    const note = (await (await answered).json()) as WidgetNote;
    // The transcript sent with the note reads as the widget showed it: the corrected words in chart form.
    expect(note.transcript).toContain('I take losartan 50 mg every morning.');
    expect(note.note).toMatch(/losartan/i);
    expect(note.note).not.toMatch(/lisinopril/i);
    expect(note.note).not.toMatch(/\b10 mg\b/);
    await widget.getByRole('form', { name: 'Note sections' }).waitFor();
    await page.close();
  }, 120_000);
});
