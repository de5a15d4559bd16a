import type { PushDocumentMessage, PushNoteMessage, SessionStartedMessage } from '@chartwright/embed';
import type { SetPatientContextRequest } from '@chartwright/protocol';

import type { FiledDocument, FiledNote, PatientChart, Visit } from '../server/chart-store.js';

/** The demo server's API, as the page calls it. */
export type ChartData = SetPatientContextRequest & { chart: PatientChart };

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(
    path,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const json = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  if (!response.ok) {
    throw new ApiError(
      response.status,
      json.error?.code ?? 'error',
      json.error?.message ?? `${path}: ${response.status}`,
    );
  }
  return json as T;
}

const patientPath = (patientId: string) => `/api/patients/${encodeURIComponent(patientId)}`;

export const api = {
  session: () => call<{ clinician: { name: string }; widgetUrl: string }>('/api/session'),
  patients: () => call<{ patients: SetPatientContextRequest[] }>('/api/patients'),
  chart: (patientId: string) => call<ChartData>(patientPath(patientId)),
  /** The partner backend mints the token; the page never holds the partner key. */
  widgetToken: async (patientId: string) =>
    (await call<{ token: string; expiresAt: string }>('/api/widget-token', { patientId })).token,
  startVisit: (patientId: string) => call<Visit>(`${patientPath(patientId)}/visits`, {}),
  sessionStarted: (patientId: string, message: SessionStartedMessage) =>
    call<Visit>(`${patientPath(patientId)}/sessions`, message),
  fileNote: (patientId: string, message: PushNoteMessage) =>
    call<FiledNote>(`${patientPath(patientId)}/notes`, message),
  fileDocument: (patientId: string, message: PushDocumentMessage) =>
    call<FiledDocument>(`${patientPath(patientId)}/documents`, message),
};
