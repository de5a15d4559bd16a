import { expect } from 'vitest';

import type { Harness } from './harness.js';
import { openWidget, storeRealtimeSession, widgetCall, type OpenWidget } from './widget-encounters.js';

/**
 * A made-up patient whose every detail is a string found nowhere else, so a test can search a
 * database's files for each and know that a hit is this patient's data and nothing else.
 */
export const PHI = {
  name: 'Philippa Xanthe Okonkwo-Harrow',
  dob: '1977-04-19',
  healthCard: '9876-543-210-XK',
  email: 'philippa.okonkwo-harrow@mail.example',
  mrn: 'MRN-PXO-55321',
  complaint: 'Recurrent quinsy behind the left tonsil',
  consentNote: 'Consent given with her daughter Ysolde present',
  /** Said in the visit: it reaches the transcript, the note and its copy of the transcript. */
  spoken: 'my neighbour Barnabus Wexley-Thorn drove me here',
  corrected: 'I started clindamycin from Doctor Ignatius Pemberton-Vale',
  letterRecipient: 'Doctor Cordelia Fairweather-Nkemelu',
  restNote: 'Patient Tobias Grindelwald-Achebe reports a swollen ankle',
} as const;

export interface PhiVisit {
  partner: { id: string; partnerKey: string };
  widget: OpenWidget;
  realtimeSessionId: string;
  encounterNoteId: string;
  documentId: string;
  restNoteId: string;
}

/**
 * A widget encounter holding the patient's data in every kind of record the service keeps: patient
 * context, consent, a realtime session with its transcript, a corrected segment, a note (with its copy
 * of the transcript), a letter with an edited revision and a PDF link; and a REST note of the same
 * project. Everything goes through the API but the transcript, stored as the realtime socket stores it.
 */
export async function recordPhiVisit(h: Harness): Promise<PhiVisit> {
  const partner = await h.createPartner();
  const widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-phi' });
  const url = (suffix: string) => `/api/widget/encounters/${widget.sessionId}${suffix}`;
  const ok = async (method: 'POST' | 'PUT', path: string, payload: unknown, status = 200) => {
    const response = await widgetCall(h, widget.token, method, path, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.json<Record<string, unknown>>();
  };

  await ok('PUT', url('/patient-context'), {
    patient: { id: PHI.mrn, name: PHI.name, dob: PHI.dob, email: PHI.email, healthCardNumber: PHI.healthCard },
    context: { chiefComplaint: PHI.complaint },
  });
  await ok('POST', url('/consent'), { method: 'verbal', note: PHI.consentNote });
  const realtimeSessionId = 'rts_phi_visit';
  await storeRealtimeSession(
    h,
    partner.id,
    widget.sessionId,
    [
      ['clinician', 'What brings you in today?'],
      ['patient', `My throat hurts on the left and ${PHI.spoken}.`],
      ['patient', 'I started an antibiotic last week.'],
      ['clinician', 'We will drain the abscess and continue the antibiotic.'],
    ],
    { id: realtimeSessionId, endReason: 'stopped', stereo: true },
  );
  await ok('PUT', url(`/realtime-sessions/${realtimeSessionId}/segments/seg_000003`), { text: PHI.corrected });
  await ok('POST', url(`/realtime-sessions/${realtimeSessionId}/speaker-swaps`), { speakerLabel: 'S1' });
  const note = await ok('POST', url('/notes'), {}, 201);
  const letter = await ok('POST', url('/documents'), { documentType: 'letter' }, 201);
  await ok('PUT', url(`/documents/${String(letter['id'])}`), {
    revision: 1,
    title: `Letter for ${PHI.name}`,
    content: `To ${PHI.letterRecipient}: ${PHI.complaint}.`,
  });
  await ok('POST', url(`/documents/${String(letter['id'])}/pdf`), undefined);

  const rest = await h.request({
    method: 'POST',
    url: '/api/v1/notes',
    key: h.project.testKey,
    payload: { template_id: 'soap', conversation_text: `Clinician: How are you?\nPatient: ${PHI.restNote}.` },
  });
  expect(rest.statusCode, rest.body).toBe(201);

  return {
    partner,
    widget,
    realtimeSessionId,
    encounterNoteId: String(note['id']),
    documentId: String(letter['id']),
    restNoteId: rest.json<{ id: string }>().id,
  };
}

/** Every PHI string of the visit found in `bytes` (a database file read whole). */
export function phiFoundIn(bytes: Buffer): string[] {
  return Object.values(PHI).filter((value) => bytes.includes(Buffer.from(value, 'utf8')));
}
