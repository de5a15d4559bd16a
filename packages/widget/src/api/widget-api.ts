import type {
  CorrectTranscriptSegmentRequest,
  CreateWidgetDocumentRequest,
  GenerateWidgetNoteRequest,
  PatientContextResult,
  RealtimeSessionResource,
  RealtimeToken,
  RecordConsentRequest,
  RecordWidgetPushRequest,
  SetPatientContextRequest,
  SwapSpeakerRolesRequest,
  TranscriptSegment,
  UpdateWidgetDocumentRequest,
  UpdateWidgetNoteRequest,
  UpdateWidgetProfileRequest,
  WidgetClinician,
  WidgetConsent,
  WidgetDocument,
  WidgetDocumentPdf,
  WidgetEncounter,
  WidgetEncounterState,
  WidgetNote,
  WidgetSessionInfo,
} from '@chartwright/protocol';
import { errorOfAnswer } from '@chartwright/protocol';

import { WidgetApiError } from './widget-api-error.js';

/** The widget token the calls carry, and what to do when the service says it has expired. */
export interface WidgetCredentials {
  /** The token to send now (it changes on TOKEN_REFRESH). */
  current(): string;
  /**
   * The service refused the token as expired: get a new one (REQUEST_TOKEN_REFRESH → TOKEN_REFRESH).
   * Resolves true once `current()` returns a new token, false when none will come.
   */
  refresh(): Promise<boolean>;
}

export interface WidgetApiOptions {
  /** The widget host's origin: the page's own (`location.origin`). */
  baseUrl: string;
  credentials: WidgetCredentials;
  fetch?: typeof globalThis.fetch;
}

type Method = 'GET' | 'POST' | 'PUT';

const encounterPath = (encounterId: string) => `/api/widget/encounters/${encodeURIComponent(encounterId)}`;
const realtimeSessionPath = (encounterId: string, realtimeSessionId: string) =>
  `${encounterPath(encounterId)}/realtime-sessions/${encodeURIComponent(realtimeSessionId)}`;

/**
 * The session API the iframe calls (docs/widget-protocol.md § 7) with its widget token. A call
 * refused because the token expired asks for a new token once and is sent again with it.
 */
export class WidgetApi {
  private readonly fetch: typeof globalThis.fetch;

  constructor(private readonly options: WidgetApiOptions) {
    // Bound: browsers throw "Illegal invocation" when fetch is called with another `this`.
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /**
   * The widget session `token` opens (who it works for), without the refresh flow: the token the
   * page opened with, or TOKEN_REFRESH's before the widget switches to it.
   */
  widgetSession(token: string): Promise<WidgetSessionInfo> {
    return this.send('GET', '/api/widget/session', token, undefined, undefined);
  }

  /** Saves the clinician's profile (their display name, which signs documents). */
  updateProfile(profile: UpdateWidgetProfileRequest): Promise<WidgetClinician> {
    return this.call('PUT', '/api/widget/profile', profile);
  }

  openEncounter(): Promise<WidgetEncounter> {
    return this.call('POST', '/api/widget/encounters');
  }

  encounterState(encounterId: string): Promise<WidgetEncounterState> {
    return this.call('GET', encounterPath(encounterId));
  }

  setPatientContext(encounterId: string, context: SetPatientContextRequest): Promise<PatientContextResult> {
    return this.call('PUT', `${encounterPath(encounterId)}/patient-context`, context);
  }

  correctTranscriptSegment(
    encounterId: string,
    segment: { realtimeSessionId: string; segmentId: string },
    correction: CorrectTranscriptSegmentRequest,
  ): Promise<TranscriptSegment> {
    const path = `${realtimeSessionPath(encounterId, segment.realtimeSessionId)}/segments/${encodeURIComponent(segment.segmentId)}`;
    return this.call('PUT', path, correction);
  }

  swapSpeakerRoles(
    encounterId: string,
    realtimeSessionId: string,
    swap: SwapSpeakerRolesRequest,
  ): Promise<RealtimeSessionResource> {
    return this.call('POST', `${realtimeSessionPath(encounterId, realtimeSessionId)}/speaker-swaps`, swap);
  }

  recordConsent(encounterId: string, consent: RecordConsentRequest): Promise<WidgetConsent> {
    return this.call('POST', `${encounterPath(encounterId)}/consent`, consent);
  }

  realtimeToken(encounterId: string): Promise<RealtimeToken> {
    return this.call('POST', '/api/widget/realtime-tokens', { sessionId: encounterId });
  }

  generateNote(encounterId: string, request: GenerateWidgetNoteRequest, signal?: AbortSignal): Promise<WidgetNote> {
    return this.call('POST', `${encounterPath(encounterId)}/notes`, request, signal);
  }

  updateNote(encounterId: string, noteId: string, update: UpdateWidgetNoteRequest): Promise<WidgetNote> {
    return this.call('PUT', `${encounterPath(encounterId)}/notes/${encodeURIComponent(noteId)}`, update);
  }

  /** Records, for the audit log, that this revision of the note is going to the chart (before PUSH_NOTE). */
  recordNotePush(encounterId: string, noteId: string, push: RecordWidgetPushRequest): Promise<void> {
    return this.call('POST', `${encounterPath(encounterId)}/notes/${encodeURIComponent(noteId)}/pushes`, push);
  }

  createDocument(encounterId: string, request: CreateWidgetDocumentRequest): Promise<WidgetDocument> {
    return this.call('POST', `${encounterPath(encounterId)}/documents`, request);
  }

  updateDocument(
    encounterId: string,
    documentId: string,
    update: UpdateWidgetDocumentRequest,
  ): Promise<WidgetDocument> {
    return this.call('PUT', `${encounterPath(encounterId)}/documents/${encodeURIComponent(documentId)}`, update);
  }

  documentPdf(encounterId: string, documentId: string): Promise<WidgetDocumentPdf> {
    return this.call('POST', `${encounterPath(encounterId)}/documents/${encodeURIComponent(documentId)}/pdf`);
  }

  /** Records, for the audit log, that this revision of the document is going to the chart (before PUSH_DOCUMENT). */
  recordDocumentPush(encounterId: string, documentId: string, push: RecordWidgetPushRequest): Promise<void> {
    return this.call('POST', `${encounterPath(encounterId)}/documents/${encodeURIComponent(documentId)}/pushes`, push);
  }

  private async call<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const { credentials } = this.options;
    try {
      return await this.send<T>(method, path, credentials.current(), body, signal);
    } catch (error) {
      if (!(error instanceof WidgetApiError && error.code === 'widget_token_expired')) throw error;
      if (!(await credentials.refresh())) throw error;
      return this.send<T>(method, path, credentials.current(), body, signal);
    }
  }

  private async send<T>(
    method: Method,
    path: string,
    token: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    let response: Response;
    try {
      response = await this.fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(signal === undefined ? {} : { signal }),
        // The token rides in a header; nothing else about the page needs to reach the service.
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
      });
    } catch (error) {
      const aborted = signal?.aborted === true;
      throw new WidgetApiError(
        aborted ? 'The request was cancelled.' : 'The Chartwright service could not be reached.',
        aborted ? 'aborted' : 'connection_error',
        0,
        [],
        { cause: error },
      );
    }
    if (!response.ok) throw await errorOfAnswer(response, WidgetApiError);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}
