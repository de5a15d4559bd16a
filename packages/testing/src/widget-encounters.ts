import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { expect } from 'vitest';

import type { SetPatientContextRequest, WidgetEncounter, WidgetErrorEnvelope } from '@chartwright/protocol';

import type { TranscriptSegmentRow } from '@chartwright/server/internal/store/realtime-sessions.js';
import type { Harness } from './harness.js';

/** A widget of a partner, as the iframe holds it: its token and the encounter it opened. */
export interface OpenWidget {
  token: string;
  sessionId: string;
  clinicianId: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A call to the widget API with the widget's token. */
export const widgetCall = (h: Harness, token: string, method: Method, url: string, payload?: unknown) =>
  h.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

/** Mints a widget token for the clinician and opens (or resumes) the encounter of `emrSessionId`. */
export async function openWidget(
  h: Harness,
  partnerKey: string,
  options: { emrSessionId?: string; emrUserId?: string } = {},
): Promise<OpenWidget> {
  const { token } = await h.mintWidgetToken(partnerKey, {
    userEmail: 'dr.rivera@clinic.example',
    emrUserId: options.emrUserId ?? 'emr-user-1',
    ...(options.emrSessionId === undefined ? {} : { emrSessionId: options.emrSessionId }),
  });
  const response = await widgetCall(h, token, 'POST', '/api/widget/encounters');
  expect(response.statusCode, response.body).toBe(200);
  return { token, sessionId: response.json<WidgetEncounter>().sessionId, clinicianId: decodeJwt(token).sub ?? '' };
}

export async function setPatientContext(h: Harness, widget: OpenWidget, context: SetPatientContextRequest) {
  const response = await widgetCall(
    h,
    widget.token,
    'PUT',
    `/api/widget/encounters/${widget.sessionId}/patient-context`,
    context,
  );
  expect(response.statusCode, response.body).toBe(200);
}

/** A synthetic patient with a full chart, as an EMR sends it. */
export const CHART: SetPatientContextRequest = {
  patient: {
    id: 'MRN-0042',
    name: 'Jane Q. Doe',
    dob: '1980-02-03',
    gender: 'female',
    healthCardNumber: '1234-567-890',
  },
  context: {
    chiefComplaint: 'Cough and fever for three days',
    medicalHistory: 'Type 2 diabetes',
    allergies: [{ name: 'Penicillin', severity: 'severe', reaction: 'hives' }],
    medications: [
      { name: 'Metformin', dosage: '500 mg', frequency: 'twice daily', status: 'active' },
      { name: 'Ibuprofen', dosage: '200 mg', status: 'discontinued' },
    ],
    diagnoses: [{ name: 'Type 2 diabetes mellitus', code: 'E11.9', status: 'active' }],
    labResults: [{ name: 'HbA1c', value: '6.9', unit: '%', normalRange: '4.0-5.6', date: '2026-01-10' }],
  },
  appointment: { dateTime: '2026-03-04T09:30:00Z', reason: 'Cough' },
};

/** A visit as a recognizer would have stored it: [speaker, text] per final segment. */
export const VISIT: readonly [TranscriptSegmentRow['speaker'], string][] = [
  ['clinician', 'Good morning, what brings you in today?'],
  ['patient', 'I have had a cough and a fever for three days.'],
  ['clinician', 'Any shortness of breath?'],
  ['patient', 'No, but my chest feels tight when I cough.'],
  ['clinician', 'Your temperature is 38.2 degrees and your lungs sound clear.'],
  ['clinician', 'I think this is a viral upper respiratory infection.'],
  ['clinician', 'Drink plenty of fluids, take paracetamol for the fever and come back if you get worse in a week.'],
];

/**
 * Stores a realtime session of the encounter with its final segments, as the realtime socket does
 * for a widget's token (realtime.int.test.ts and the scribe test stream real audio instead).
 */
export async function storeRealtimeSession(
  h: Harness,
  /** The partner whose widget token opened it; null for one opened with the project's sandbox key. */
  partnerId: string | null,
  encounterId: string | null,
  segments: readonly (readonly [TranscriptSegmentRow['speaker'], string])[],
  options: { id: string; createdAt?: number; endReason?: string; stereo?: boolean } = { id: 'rts_stored' },
): Promise<void> {
  // Two channels, as a two-microphone recording: the clinician on the first (S1), everyone else on the second (S2).
  const stereo = options.stereo ?? false;
  const at = options.createdAt ?? h.clock.now();
  await h.repositories.realtimeSessions.insert({
    id: options.id,
    project_id: h.project.id,
    environment: 'test',
    credential_kind: partnerId === null ? 'api_key' : 'realtime_token',
    api_key_id: partnerId === null ? h.project.testKeyId : null,
    partner_id: partnerId,
    encounter_id: encounterId,
    resume_token_hash: `hash-${options.id}`,
    audio_format: JSON.stringify({ encoding: 'pcm_s16le', sampleRate: 16000, channels: stereo ? 2 : 1 }),
    language: 'en-US',
    created_at: at,
    last_seen_at: at,
    ended_at: options.endReason === undefined ? null : at,
    end_reason: options.endReason ?? null,
    audio_ms: segments.length * 2000,
    committed_ms: null,
    cepstral_means: null,
  });
  for (const [index, [speaker, text]] of segments.entries()) {
    await h.repositories.transcriptSegments.insert({
      session_id: options.id,
      seq: index + 1,
      id: `seg_${String(index + 1).padStart(6, '0')}`,
      text,
      start_ms: index * 2000,
      end_ms: index * 2000 + 1800,
      channel: stereo && speaker !== 'clinician' ? 1 : 0,
      speaker,
      speaker_label: stereo ? (speaker === 'clinician' ? 'S1' : 'S2') : null,
      words: null,
      provisional: 0,
      created_at: at,
    });
  }
}

/** The exact widget error envelope, naming `fields` in its details when given. */
export function expectWidgetError(
  response: LightMyRequestResponse,
  status: number,
  code: string,
  fields?: readonly string[],
): void {
  expect(response.statusCode, response.body).toBe(status);
  const envelope = response.json<WidgetErrorEnvelope>();
  expect(envelope).toMatchObject({
    success: false,
    error: { code, message: expect.any(String) as unknown, requestId: response.headers['x-request-id'] },
  });
  if (fields !== undefined) {
    expect(envelope.error.details?.map((detail) => detail.path)).toEqual(fields);
    for (const field of fields) if (field !== '') expect(envelope.error.message).toContain(field);
  }
}
