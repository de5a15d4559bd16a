import type { PatientContextMessage, WidgetEncounterState } from '@chartwright/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { PocketSphinxRecognizer } from '@chartwright/testing/speech.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { missingSpeechTools, synthesizeSpeech } from '@chartwright/testing/speech.js';
import { storeRealtimeSession, VISIT } from '@chartwright/testing/widget-encounters.js';
import { silence } from '@chartwright/testing/speech.js';
import { nodeWidget, recordedAudio, type NodeWidget } from '../test-support/node-widget.js';
import { WIDGET_VERSION } from '../version.js';
import { activeEncounterOf, currentEncounterOf, workspaceOf } from './widget-state.js';

/**
 * The widget's behaviour without its UI: the controller in Node against the real service, with
 * what it posts to the EMR kept. The browser test covers the page, the origins and the microphone.
 */
const ORIGINS = ['https://emr.example.com'];
const HOUR = 3_600_000;

const patient = (id: string, name: string): PatientContextMessage =>
  ({ type: 'PATIENT_CONTEXT', patient: { id, name } }) as PatientContextMessage;

describe('the widget controller against the service', () => {
  let h: Harness;
  let baseUrl: string;
  let partnerKey: string;
  let partnerId: string;
  const widgets: NodeWidget[] = [];

  beforeAll(async () => {
    h = await createHarness();
    baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    ({ partnerKey, id: partnerId } = await h.createPartner({ origins: ORIGINS, tokenLifetimeSeconds: 300 }));
  });
  afterEach(async () => {
    for (const widget of widgets.splice(0)) await widget.controller.dispose();
  });
  afterAll(async () => {
    await h.close();
  });

  const mint = async (emrSessionId?: string, emrUserId = 'emr-user-1') =>
    (
      await h.mintWidgetToken(partnerKey, {
        userEmail: `${emrUserId}@clinic.example`,
        emrUserId,
        ...(emrSessionId === undefined ? {} : { emrSessionId }),
      })
    ).token;

  async function open(emrSessionId?: string, options: { clockSkewMs?: number } = {}): Promise<NodeWidget> {
    const widget = nodeWidget(h, await mint(emrSessionId), { baseUrl, frameOrigins: ORIGINS, ...options });
    widgets.push(widget);
    await widget.controller.start();
    return widget;
  }

  it('announces itself to the partner’s origins, opens the emrSessionId’s encounter and restores it on relaunch', async () => {
    const first = await open('visit-restore');
    expect(first.hostLinks).toEqual([ORIGINS]);
    const [started] = first.postedOf('SESSION_STARTED');
    expect(first.posted.slice(0, 2)).toEqual([
      { type: 'WIDGET_READY', version: WIDGET_VERSION },
      { type: 'SESSION_STARTED', sessionId: expect.stringMatching(/^ses_/) as unknown },
    ]);
    const sessionId = started?.sessionId ?? '';
    await first.controller.receive(patient('MRN-1', 'Ana Example'));
    await storeRealtimeSession(h, partnerId, sessionId, VISIT, { id: 'rts_restore', endReason: 'stopped' });

    const again = await open('visit-restore');
    expect(again.postedOf('SESSION_STARTED')).toEqual([{ type: 'SESSION_STARTED', sessionId }]);
    const state = again.controller.store.state;
    expect(activeEncounterOf(state)?.patient?.name).toBe('Ana Example');
    expect(workspaceOf(state)?.awaitingPatient).toBe(false);
    expect(activeEncounterOf(state)?.transcript.map((line) => line.segment.text)).toEqual(
      VISIT.map(([, text]) => text),
    );
  });

  it('opens no encounter and says nothing of one until the patient comes without an emrSessionId', async () => {
    const widget = await open();
    expect(widget.posted).toEqual([{ type: 'WIDGET_READY', version: WIDGET_VERSION }]);
    expect(currentEncounterOf(widget.controller.store.state)).toBeNull();
    await widget.controller.receive(patient('MRN-2', 'Ben Example'));
    expect(currentEncounterOf(widget.controller.store.state)?.encounterId).toMatch(/^ses_/);
    expect(widget.postedOf('SESSION_STARTED')).toEqual([]);
  });

  it('answers a bad message with WIDGET_ERROR naming each field, and keeps working', async () => {
    const widget = await open('visit-invalid');
    await widget.controller.receive({ type: 'PATIENT_CONTEXT', patient: { name: '' }, noteConfig: { sections: [] } });
    await widget.controller.receive({ type: 'SET_CONTEXT', mode: 'replace' });
    await widget.controller.receive('PATIENT_CONTEXT');
    expect(widget.postedOf('WIDGET_ERROR')).toEqual([
      {
        type: 'WIDGET_ERROR',
        code: 'INVALID_PATIENT_DATA',
        message:
          'patient.id: is required; patient.name: must not be empty; noteConfig.sections: must have at least 1 item',
      },
      {
        type: 'WIDGET_ERROR',
        code: 'INVALID_MESSAGE',
        message: 'context: is required; mode: must be one of append, overwrite',
      },
      { type: 'WIDGET_ERROR', code: 'INVALID_MESSAGE', message: 'message: must be an object, not a string' },
    ]);
    expect(activeEncounterOf(widget.controller.store.state)?.patient).toBeNull();
    // The clinician is told what is wrong with the patient's details too, until a good PATIENT_CONTEXT comes.
    expect(widget.controller.store.state.patientProblems).toEqual([
      'patient.id: is required',
      'patient.name: must not be empty',
      'noteConfig.sections: must have at least 1 item',
    ]);
    await widget.controller.receive(patient('MRN-3', 'Cy Example'));
    expect(widget.controller.store.state.patientProblems).toEqual([]);
    expect(activeEncounterOf(widget.controller.store.state)?.patient?.id).toBe('MRN-3');
  });

  it('keeps the SET_CONTEXT text for the note, appending or overwriting, and refuses one too long', async () => {
    const widget = await open('visit-context');
    await widget.controller.receive({ type: 'SET_CONTEXT', context: 'Works nights.' });
    await widget.controller.receive({ type: 'SET_CONTEXT', context: 'Lives alone.', mode: 'append' });
    expect(widget.controller.store.state.extraContext).toBe('Works nights.\nLives alone.');
    await widget.controller.receive({ type: 'SET_CONTEXT', context: 'x'.repeat(20_000) });
    expect(widget.postedOf('WIDGET_ERROR')).toEqual([
      { type: 'WIDGET_ERROR', code: 'INVALID_MESSAGE', message: expect.stringMatching(/^context: /) as unknown },
    ]);
    await widget.controller.receive({ type: 'SET_CONTEXT', context: 'Retired.', mode: 'overwrite' });
    expect(widget.controller.store.state.extraContext).toBe('Retired.');
  });

  it('refuses a second patient for the emrSessionId’s encounter: nothing shown, PATIENT_MISMATCH to the EMR', async () => {
    const widget = await open('visit-mismatch');
    await widget.controller.receive(patient('MRN-4', 'Dee Example'));
    await widget.controller.receive(patient('MRN-5', 'Eve Example'));
    // Mismatched, the encounter holds nothing but its id: no patient to show.
    expect(currentEncounterOf(widget.controller.store.state)).toEqual({
      status: 'mismatched',
      encounterId: expect.stringMatching(/^ses_/) as unknown,
    });
    expect(widget.postedOf('WIDGET_ERROR')).toEqual([
      { type: 'WIDGET_ERROR', code: 'PATIENT_MISMATCH', message: expect.stringMatching(/^patient\.id: /) as unknown },
    ]);
    // The encounter's own patient again: back to it, with what it holds.
    await widget.controller.receive(patient('MRN-4', 'Dee Example'));
    expect(currentEncounterOf(widget.controller.store.state)).toMatchObject({
      status: 'active',
      patient: { id: 'MRN-4' },
    });
  });

  it('swaps in a refreshed token without a reload, and refuses one for another clinician or EMR session', async () => {
    const widget = await open('visit-refresh');
    await widget.controller.receive(patient('MRN-6', 'Fay Example'));
    await widget.controller.receive({ type: 'TOKEN_REFRESH', token: await mint('visit-refresh', 'emr-user-2') });
    await widget.controller.receive({ type: 'TOKEN_REFRESH', token: await mint('visit-other') });
    const refusal = {
      type: 'WIDGET_ERROR',
      code: 'INVALID_MESSAGE',
      message: 'token: must be for the same partner, clinician and emrSessionId as the current one',
    };
    expect(widget.postedOf('WIDGET_ERROR')).toEqual([refusal, refusal]);
    await widget.controller.receive({ type: 'TOKEN_REFRESH', token: 'not-a-jwt' });
    expect(widget.postedOf('WIDGET_ERROR')[2]).toEqual({
      type: 'WIDGET_ERROR',
      code: 'INVALID_MESSAGE',
      message: 'token: the service refused it (invalid_widget_token)',
    });

    // The first token runs out on the service: the next call asks the EMR, and goes on with its answer.
    h.clock.advance(HOUR);
    const consenting = widget.controller.recordConsent('verbal', '');
    await expect.poll(() => widget.postedOf('REQUEST_TOKEN_REFRESH').length).toBe(1);
    const fresh = await mint('visit-refresh');
    await widget.controller.receive({ type: 'TOKEN_REFRESH', token: fresh });
    await consenting;
    expect(activeEncounterOf(widget.controller.store.state)?.consent?.method).toBe('verbal');
    expect(widget.postedOf('TOKEN_EXPIRED')).toEqual([]);
    const sessionId = currentEncounterOf(widget.controller.store.state)?.encounterId ?? '';
    expect((await encounterOf(h, fresh, sessionId)).consent?.method).toBe('verbal');
  });

  it('tells the EMR ahead of expiry, and when the token is over', async () => {
    // A 5-minute token warns a minute ahead: served 4 minutes into its life, it warns at once.
    const expiring = await open('visit-expiring', { clockSkewMs: 4 * 60_000 + 100 });
    await expect.poll(() => expiring.postedOf('TOKEN_EXPIRING').length).toBe(1);
    const [warning] = expiring.postedOf('TOKEN_EXPIRING');
    expect(warning?.expiresInMs).toBeGreaterThan(0);
    expect(warning?.expiresInMs).toBeLessThanOrEqual(60_000);
    expect(expiring.postedOf('TOKEN_EXPIRED')).toEqual([]);

    const over = await open('visit-over', { clockSkewMs: 5 * 60_000 });
    await expect.poll(() => over.postedOf('TOKEN_EXPIRED').length).toBe(1);
    expect(over.controller.store.state.phase.kind).toBe('expired');
  });

  it('reports a token that is over at start to the origins allowed to frame the page', async () => {
    const token = await mint('visit-stale');
    h.clock.advance(HOUR);
    const widget = nodeWidget(h, token, { baseUrl, frameOrigins: ORIGINS });
    widgets.push(widget);
    await widget.controller.start();
    expect(widget.hostLinks).toEqual([ORIGINS]);
    expect(widget.posted).toEqual([{ type: 'TOKEN_EXPIRED' }]);
    expect(widget.controller.store.state.phase.kind).toBe('expired');
  });

  it('says a page without a usable token is not valid, and tells no one', async () => {
    for (const token of [null, 'forged.token.value']) {
      const widget = nodeWidget(h, token, { baseUrl, frameOrigins: ORIGINS });
      widgets.push(widget);
      await widget.controller.start();
      expect(widget.controller.store.state.phase.kind).toBe('unauthorized');
      expect(widget.posted).toEqual([]);
    }
  });

  it('reports a frame without the microphone to the EMR once, with its own code', async () => {
    const widget = nodeWidget(h, await mint('visit-no-microphone'), { baseUrl, microphone: 'blocked' });
    widgets.push(widget);
    await widget.controller.start();
    expect(widget.postedOf('WIDGET_ERROR')).toEqual([
      {
        type: 'WIDGET_ERROR',
        code: 'MICROPHONE_NOT_ALLOWED',
        message: expect.stringContaining('allow="microphone"') as unknown,
      },
    ]);
    expect(workspaceOf(widget.controller.store.state)?.microphone).toBe('blocked_by_embedder');
  });
});

const missing = await missingSpeechTools();

describe.skipIf(missing.length > 0)('the widget controller recording with PocketSphinx', () => {
  let recognizer: PocketSphinxRecognizer;
  let h: Harness;
  let baseUrl: string;
  let partnerKey: string;

  beforeAll(async () => {
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    await recognizer.warmUp();
    h = await createHarness({ recognizer });
    baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    ({ partnerKey } = await h.createPartner({ origins: ORIGINS }));
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await recognizer.close();
  });

  it('finishes a recording under its own patient before switching to another', async () => {
    const { token } = await h.mintWidgetToken(partnerKey, { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' });
    const speech = synthesizeSpeech('i have had a cough and a fever for three days');
    const audio = recordedAudio(new Uint8Array(speech.buffer, speech.byteOffset, speech.byteLength), silence(200));
    const widget = nodeWidget(h, token, { baseUrl, audio });
    await widget.controller.start();
    await widget.controller.receive(patient('MRN-A', 'Ann Example'));
    const first = currentEncounterOf(widget.controller.store.state)?.encounterId ?? '';
    await widget.controller.recordConsent('verbal', '');
    await widget.controller.startRecording();
    expect(workspaceOf(widget.controller.store.state)?.recorder.status).toBe('recording');
    await expect
      .poll(() => activeEncounterOf(widget.controller.store.state)?.transcript.length, { timeout: 20_000 })
      .toBeGreaterThan(0);

    // Another patient while recording: the recording ends (flushed) under the first, a new encounter opens.
    await widget.controller.receive(patient('MRN-B', 'Bea Example'));
    const state = widget.controller.store.state;
    expect(workspaceOf(state)?.recorder.status).toBe('idle');
    expect(currentEncounterOf(state)?.encounterId).not.toBe(first);
    expect(activeEncounterOf(state)).toMatchObject({
      patient: { id: 'MRN-B' },
      consent: null,
      transcript: [],
      note: null,
    });
    const before = await encounterOf(h, token, first);
    const after = await encounterOf(h, token, currentEncounterOf(state)?.encounterId ?? '');
    expect(before.patientId).toBe('MRN-A');
    expect(before.transcript.text).toMatch(/cough|fever|three days/);
    expect(after.patientId).toBe('MRN-B');
    expect(after.transcript.realtimeSessions).toEqual([]);
    await widget.controller.dispose();
  }, 60_000);

  it('shows a start waiting for transcription capacity, then records once a place is free', async () => {
    const { testConfig } = await import('@chartwright/server/internal/config/config.js');
    const full = await createHarness({
      recognizer,
      config: { realtime: { ...testConfig().realtime, maxSessions: 1 } },
    });
    const started: NodeWidget[] = [];
    try {
      const url = await full.app.listen({ port: 0, host: '127.0.0.1' });
      const { partnerKey: key } = await full.createPartner({ origins: ORIGINS });
      const ready = async (mrn: string, emrUserId: string) => {
        const { token } = await full.mintWidgetToken(key, { userEmail: `${emrUserId}@clinic.example`, emrUserId });
        const widget = nodeWidget(full, token, { baseUrl: url, audio: recordedAudio(new Uint8Array(0), silence(200)) });
        started.push(widget);
        await widget.controller.start();
        await widget.controller.receive(patient(mrn, 'Dee Example'));
        await widget.controller.recordConsent('verbal', '');
        return widget;
      };
      const first = await ready('MRN-D', 'emr-2');
      await first.controller.startRecording();
      const second = await ready('MRN-E', 'emr-3');
      const recorder = () => workspaceOf(second.controller.store.state)?.recorder;
      const starting = second.controller.startRecording();

      await expect.poll(() => recorder()?.startRetry, { timeout: 20_000 }).toMatchObject({ cause: 'capacity', of: 17 });
      expect(recorder()?.status).toBe('starting');
      await first.controller.stopRecording();
      await starting;
      expect(recorder()).toMatchObject({ status: 'recording', startRetry: null });
      await second.controller.stopRecording();
    } finally {
      for (const widget of started) await widget.controller.dispose();
      await full.close();
    }
  }, 60_000);

  it('says when the connection drops while recording, keeps recording, and loses nothing once it is back, and loses nothing once the connection is back', async () => {
    const { token } = await h.mintWidgetToken(partnerKey, { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' });
    const speech = synthesizeSpeech('i have had a cough and a fever for three days');
    const audio = recordedAudio(new Uint8Array(speech.buffer, speech.byteOffset, speech.byteLength), silence(200));
    const widget = nodeWidget(h, token, { baseUrl, audio });
    const connection: string[] = [];
    widget.controller.store.subscribe((state) => {
      const recorder = workspaceOf(state)?.recorder;
      if (recorder !== undefined && connection.at(-1) !== recorder.connection) connection.push(recorder.connection);
    });
    await widget.controller.start();
    await widget.controller.receive(patient('MRN-C', 'Cal Example'));
    await widget.controller.recordConsent('verbal', '');
    await widget.controller.startRecording();
    // The network drops every socket of the service, as a failure between the widget and it would.
    for (const socket of h.app.websocketServer.clients) socket.terminate();
    await expect.poll(() => connection, { timeout: 20_000 }).toEqual(['online', 'reconnecting', 'online']);
    expect(workspaceOf(widget.controller.store.state)?.recorder.status).toBe('recording');
    const text = () =>
      activeEncounterOf(widget.controller.store.state)
        ?.transcript.map((line) => line.segment.text)
        .join(' ');
    await expect.poll(text, { timeout: 20_000 }).toMatch(/cough|fever|three days/);
    await widget.controller.stopRecording();

    const { transcript } = activeEncounterOf(widget.controller.store.state)!;
    expect(new Set(transcript.map((line) => line.id)).size).toBe(transcript.length);
    const stored = await encounterOf(h, token, currentEncounterOf(widget.controller.store.state)?.encounterId ?? '');
    expect(stored.transcript.realtimeSessions).toHaveLength(1);
    expect(stored.transcript.realtimeSessions[0]?.segments.map((segment) => segment.text)).toEqual(
      transcript.map((line) => line.segment.text),
    );
    await widget.controller.dispose();
  }, 60_000);
});

async function encounterOf(h: Harness, token: string, sessionId: string): Promise<WidgetEncounterState> {
  const response = await h.app.inject({
    method: 'GET',
    url: `/api/widget/encounters/${sessionId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return response.json<WidgetEncounterState>();
}
