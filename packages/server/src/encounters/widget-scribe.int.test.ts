import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { RealtimeToken, WidgetEncounterState, WidgetNote, WidgetTranscript } from '@chartwright/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PocketSphinxRecognizer } from '../asr/index.js';
import { parseWav } from '../asr/wav.js';
import { wordErrorRate } from '../text/wer.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { open, realtimeUrl, type RealtimeClient } from '@chartwright/testing/realtime-client.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';
import {
  CHART,
  expectWidgetError,
  openWidget,
  setPatientContext,
  widgetCall,
} from '@chartwright/testing/widget-encounters.js';

/**
 * The widget's scribe flow end to end over a real server: consent, a realtime token for the
 * encounter, a WebSocket session fed with flite speech and transcribed by PocketSphinx, the
 * transcript read back through the widget API, and a note written from it under the host's keys.
 * Needs the recognizer's Debian packages and flite: skipped locally without them, a failure in CI.
 */
const missing = await missingSpeechTools();

const SENTENCE = 'i have had a cough and a fever for three days';

/** `SENTENCE` spoken by flite, as 16-bit little-endian PCM at the voice's own rate. */
function speech(): { pcm: Buffer; sampleRate: number } {
  const directory = mkdtempSync(join(tmpdir(), 'chartwright-scribe-'));
  try {
    const file = join(directory, 'visit.wav');
    execFileSync('flite', ['-voice', 'slt', '-t', SENTENCE, '-o', file]);
    const wav = parseWav(readFileSync(file));
    return {
      pcm: Buffer.from(wav.samples.buffer, wav.samples.byteOffset, wav.samples.byteLength),
      sampleRate: wav.sampleRate,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Sends audio in 100 ms frames at four times real time, as a browser would, only faster. */
async function stream(client: RealtimeClient, pcm: Buffer, sampleRate: number): Promise<void> {
  const frame = (sampleRate / 10) * 2;
  for (let offset = 0; offset < pcm.length; offset += frame) {
    client.socket.send(pcm.subarray(offset, offset + frame));
    await sleep(25);
  }
}

describe.skipIf(missing.length > 0)('the widget scribe flow with PocketSphinx', () => {
  let recognizer: PocketSphinxRecognizer;
  let h: Harness;
  beforeAll(async () => {
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    await recognizer.warmUp();
    h = await createHarness({ recognizer });
  });
  afterAll(async () => {
    await h.close();
    await recognizer.close();
  });

  it('records with consent, reads the transcript back and writes the note from it', async () => {
    const url = await realtimeUrl(h.app);
    const partner = await h.createPartner();
    const widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-e2e' });
    const noteConfig = {
      sections: [
        { key: 'story', label: 'History of present illness' },
        { key: 'findings', label: 'Examination' },
        { key: 'billing', label: 'Billing codes' },
      ],
    };
    // No chart context: whatever the note says comes from the recording.
    await setPatientContext(h, widget, { patient: CHART.patient, noteConfig });
    const encounter = `/api/widget/encounters/${widget.sessionId}`;
    const realtimeToken = () =>
      widgetCall(h, widget.token, 'POST', '/api/widget/realtime-tokens', { sessionId: widget.sessionId });

    expectWidgetError(await realtimeToken(), 409, 'consent_required');
    expect((await widgetCall(h, widget.token, 'POST', `${encounter}/consent`, { method: 'verbal' })).statusCode).toBe(
      200,
    );
    const minted = await realtimeToken();
    expect(minted.statusCode, minted.body).toBe(201);

    const { pcm, sampleRate } = speech();
    const client = await open(url, { subprotocolCredential: minted.json<RealtimeToken>().token });
    client.send({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate }, interimResults: false });
    const started = await client.next('started');
    await stream(client, pcm, sampleRate);
    client.send({ type: 'stop' });
    await client.closed;
    const finals = client.of('final').map((final) => final.segment);
    expect(finals.length).toBeGreaterThan(0);

    const transcript = (await widgetCall(h, widget.token, 'GET', `${encounter}/transcript`)).json<WidgetTranscript>();
    expect(transcript.realtimeSessions.map((session) => session.id)).toEqual([started.sessionId]);
    expect(transcript.realtimeSessions[0]?.segments).toEqual(finals);
    expect(wordErrorRate(SENTENCE, transcript.text)).toBeLessThan(0.3);

    const generated = await widgetCall(h, widget.token, 'POST', `${encounter}/notes`, {});
    expect(generated.statusCode, generated.body).toBe(201);
    const note = generated.json<WidgetNote>();
    expect(note).toMatchObject({ source: 'transcript', transcript: transcript.text });
    expect(Object.keys(note.sections)).toEqual(['story', 'findings', 'billing']);
    expect(note.sections['billing']).toBe('');
    expect(note.sections['story']).toMatch(/cough/i);
    expect(note.sections['story']).toMatch(/fever/i);

    const state = (await widgetCall(h, widget.token, 'GET', encounter)).json<WidgetEncounterState>();
    expect(state.transcript).toStrictEqual(transcript);
    expect(state.notes).toStrictEqual([note]);
    // The session ended with stop: nothing is left to resume.
    expect(state.resumableRealtimeSessionId).toBeNull();
  }, 60_000);
});
