import type {
  PushDocumentMessage,
  PushNoteMessage,
  SessionStartedMessage,
  SetContextMessage,
  SetPatientContextRequest,
  WidgetNoteConfig,
  WidgetReadyMessage,
  WidgetToEmrMessage,
} from '@chartwright/protocol';

import type { WidgetEmbedError } from './errors.js';

/** PATIENT_CONTEXT without its `type`: `patient` (required), `context`, `appointment`, `noteConfig`. */
export type WidgetPatientContext = SetPatientContextRequest;

/** How SET_CONTEXT combines its text with the free-text context the widget has. */
export type ContextMode = SetContextMessage['mode'];

/** A new widget token from the partner's backend (POST /api/widget/token's `data.token`). */
export type GetToken = () => string | Promise<string>;

/** What the host hears from the widget, after the origin and window checks. */
export interface WidgetCallbacks {
  /** PUSH_NOTE: the clinician sent the note (again after every edit they send). */
  onNote?: (note: PushNoteMessage) => void;
  /** PUSH_DOCUMENT: the clinician sent a document; `pdfUrl` is an expiring link when present. */
  onDocument?: (document: PushDocumentMessage) => void;
  /** SESSION_STARTED: store `sessionId` against your emrSessionId. */
  onSessionStarted?: (session: SessionStartedMessage) => void;
  /** A WIDGET_ERROR from the widget, or a problem of the helper itself (see WidgetEmbedError.source). */
  onError?: (error: WidgetEmbedError) => void;
  /** WIDGET_READY, after the helper has sent PATIENT_CONTEXT. Fires again after every reload. */
  onReady?: (ready: WidgetReadyMessage) => void;
  /** Every message from the widget, before the callbacks above: for logging and debugging. */
  onMessage?: (message: WidgetToEmrMessage) => void;
}

export interface MountWidgetOptions extends WidgetCallbacks {
  /** The element the iframe is appended to; the iframe fills it. */
  container: Element;
  /** The widget page, e.g. `https://scribe.example.org/widget`; its origin is the only one trusted. */
  widgetUrl: string;
  /**
   * Mints a widget token on your server (never with the partner key in the page). Called for the
   * first load, for TOKEN_EXPIRING / REQUEST_TOKEN_REFRESH, and before a reload after TOKEN_EXPIRED.
   */
  getToken: GetToken;
  patientContext: WidgetPatientContext;
  /** The note's sections and their keys in PUSH_NOTE.sections; overrides `patientContext.noteConfig`. */
  noteConfig?: WidgetNoteConfig;
  /** The iframe's accessible name. Default "Chartwright scribe". */
  title?: string;
}

export interface WidgetHandle {
  readonly iframe: HTMLIFrameElement;
  /** Sends PATIENT_CONTEXT with the changes (`noteConfig: null` removes the override); kept for reloads. */
  update(changes: { patientContext?: WidgetPatientContext; noteConfig?: WidgetNoteConfig | null }): void;
  /** SET_CONTEXT: free-text context for the note, appended (default) or replacing what was sent; kept for reloads. */
  setContext(text: string, mode?: ContextMode): void;
  /** CLOSE_WIDGET, keeping the iframe: the widget stops recording, flushes the transcript and frees the microphone. */
  close(): void;
  /**
   * CLOSE_WIDGET, then stops listening at once and removes the iframe once the widget had `graceMs`
   * (default 1000) to stop recording and flush; the iframe is hidden meanwhile. Resolves when removed.
   */
  destroy(options?: { graceMs?: number }): Promise<void>;
}
