import type { EmrToWidgetMessageInput, WidgetNoteConfig, WidgetToEmrMessage } from '@chartwright/protocol';

import { WidgetEmbedError } from '../errors.js';
import type { ContextMode, GetToken, WidgetCallbacks, WidgetPatientContext } from '../types.js';

/** The iframe as the host protocol sees it, so the protocol runs (and is tested) without a DOM. */
export interface WidgetFrame {
  /** Posts to the widget's window, to its exact origin. */
  post(message: EmrToWidgetMessageInput): void;
  /** Loads the widget page with this token. */
  load(token: string): void;
}

/**
 * A widget that answers every reload with TOKEN_EXPIRED would otherwise be reloaded forever (a
 * backend handing out stale tokens, a clock far off): after this many reloads within the window,
 * the helper stops and reports RELOAD_LIMIT.
 */
export const RELOAD_LIMIT = Object.freeze({ reloads: 3, windowMs: 60_000 });

/** The PATIENT_CONTEXT message: `noteConfig` given on its own wins over one inside the patient context. */
export function patientContextMessage(
  patientContext: WidgetPatientContext,
  noteConfig: WidgetNoteConfig | undefined,
): EmrToWidgetMessageInput {
  return { ...patientContext, type: 'PATIENT_CONTEXT', ...(noteConfig === undefined ? {} : { noteConfig }) };
}

/** Host errors must not stop the protocol: a callback that throws is reported, then the helper goes on. */
function call<T>(callback: ((value: T) => void) | undefined, value: T): void {
  if (callback === undefined) return;
  try {
    callback(value);
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

export interface WidgetHostOptions {
  frame: WidgetFrame;
  getToken: GetToken;
  callbacks: WidgetCallbacks;
  patientContext: WidgetPatientContext;
  noteConfig?: WidgetNoteConfig | undefined;
  now?: () => number;
}

/**
 * The host's half of the postMessage protocol: what to send on WIDGET_READY and
 * REQUEST_PATIENT_CONTEXT, how to answer the token flows, what to keep so a reloaded widget gets
 * the same patient and free-text context again.
 */
export class WidgetHost {
  readonly #frame: WidgetFrame;
  readonly #getToken: GetToken;
  readonly #callbacks: WidgetCallbacks;
  readonly #now: () => number;
  #patientContext: WidgetPatientContext;
  #noteConfig: WidgetNoteConfig | undefined;
  /** SET_CONTEXT calls since the last overwrite, replayed in order to a reloaded widget. */
  #contextLog: { context: string; mode: ContextMode }[] = [];
  #ready = false;
  #disposed = false;
  #tokenRequest: Promise<string | null> | null = null;
  #refreshing = false;
  #reloading = false;
  #reloadTimes: number[] = [];

  constructor(options: WidgetHostOptions) {
    this.#frame = options.frame;
    this.#getToken = options.getToken;
    this.#callbacks = options.callbacks;
    this.#patientContext = options.patientContext;
    this.#noteConfig = options.noteConfig;
    this.#now = options.now ?? Date.now;
  }

  /** True between WIDGET_READY and the next (re)load. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Loads the widget with a first token. */
  async start(): Promise<void> {
    const token = await this.#token();
    if (token !== null && !this.#disposed) this.#frame.load(token);
  }

  receive(message: WidgetToEmrMessage): void {
    if (this.#disposed) return;
    call(this.#callbacks.onMessage, message);
    switch (message.type) {
      case 'WIDGET_READY':
        this.#ready = true;
        this.#sendPatientContext();
        for (const entry of this.#contextLog) this.#frame.post({ type: 'SET_CONTEXT', ...entry });
        call(this.#callbacks.onReady, message);
        return;
      case 'REQUEST_PATIENT_CONTEXT':
        this.#sendPatientContext();
        return;
      case 'TOKEN_EXPIRING':
      case 'REQUEST_TOKEN_REFRESH':
        void this.#refresh();
        return;
      case 'TOKEN_EXPIRED':
        void this.#reload();
        return;
      case 'SESSION_STARTED':
        call(this.#callbacks.onSessionStarted, message);
        return;
      case 'PUSH_NOTE':
        call(this.#callbacks.onNote, message);
        return;
      case 'PUSH_DOCUMENT':
        call(this.#callbacks.onDocument, message);
        return;
      case 'WIDGET_ERROR':
        this.report(new WidgetEmbedError('widget', message.code, message.message));
        return;
    }
  }

  report(error: WidgetEmbedError): void {
    call(this.#callbacks.onError, error);
  }

  update(changes: { patientContext?: WidgetPatientContext; noteConfig?: WidgetNoteConfig | null }): void {
    if (changes.patientContext !== undefined) this.#patientContext = changes.patientContext;
    if (changes.noteConfig !== undefined) this.#noteConfig = changes.noteConfig ?? undefined;
    if (this.#ready) this.#sendPatientContext();
  }

  setContext(context: string, mode: ContextMode = 'append'): void {
    const entry = { context, mode };
    this.#contextLog = mode === 'overwrite' ? [entry] : [...this.#contextLog, entry];
    if (this.#ready) this.#frame.post({ type: 'SET_CONTEXT', ...entry });
  }

  close(): void {
    if (!this.#disposed) this.#frame.post({ type: 'CLOSE_WIDGET' });
  }

  /** Stops everything: later messages, token answers and reloads are dropped. */
  dispose(): void {
    this.#disposed = true;
    this.#ready = false;
  }

  #sendPatientContext(): void {
    this.#frame.post(patientContextMessage(this.#patientContext, this.#noteConfig));
  }

  /** One getToken() call at a time: TOKEN_EXPIRING and REQUEST_TOKEN_REFRESH arriving together share it. */
  #token(): Promise<string | null> {
    this.#tokenRequest ??= (async () => {
      try {
        const token: unknown = await this.#getToken();
        if (typeof token === 'string' && token.trim() !== '') return token.trim();
        this.report(WidgetEmbedError.embed('TOKEN_UNAVAILABLE', 'getToken() returned no token (a non-empty string).'));
      } catch (error) {
        this.report(WidgetEmbedError.embed('TOKEN_UNAVAILABLE', 'getToken() failed.', error));
      } finally {
        this.#tokenRequest = null;
      }
      return null;
    })();
    return this.#tokenRequest;
  }

  /** One TOKEN_REFRESH answers every request made while it was being fetched: the widget takes any. */
  async #refresh(): Promise<void> {
    if (this.#refreshing) return;
    this.#refreshing = true;
    try {
      const token = await this.#token();
      if (token !== null && !this.#disposed) this.#frame.post({ type: 'TOKEN_REFRESH', token });
    } finally {
      this.#refreshing = false;
    }
  }

  async #reload(): Promise<void> {
    if (this.#reloading) return;
    const now = this.#now();
    this.#reloadTimes = this.#reloadTimes.filter((time) => now - time < RELOAD_LIMIT.windowMs);
    if (this.#reloadTimes.length >= RELOAD_LIMIT.reloads) {
      this.report(
        WidgetEmbedError.embed(
          'RELOAD_LIMIT',
          `The widget reported TOKEN_EXPIRED after ${RELOAD_LIMIT.reloads} reloads within ${RELOAD_LIMIT.windowMs / 1000} s; check that getToken() returns fresh tokens.`,
        ),
      );
      return;
    }
    this.#reloading = true;
    try {
      const token = await this.#token();
      if (token === null || this.#disposed) return;
      this.#reloadTimes.push(this.#now());
      this.#ready = false;
      this.#frame.load(token);
    } finally {
      this.#reloading = false;
    }
  }
}
