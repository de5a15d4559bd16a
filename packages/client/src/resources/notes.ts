import type {
  CreateNoteRequest,
  NoteInclude,
  NoteStatus,
  NoteOrProgress as WireNoteOrProgress,
  NoteProgress as WireNoteProgress,
  Note as WireNote,
} from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';
import { sleep } from '../core/sleep.js';
import { fromWireKeys, toWireKeys, type CamelCaseKeys } from '../core/wire-case.js';
import { ChartwrightError } from '../errors.js';

/**
 * `notes.create` parameters: the body of `POST /api/v1/notes` with camelCase names (`templateId`,
 * `conversationText`, …). The visit is `conversationText` or `segments` (the realtime `final`
 * events' segments, as they arrived: their fields keep their names); `style` is `detailed` (default)
 * or `concise`; `include: ['facts']` returns the visit's facts beside the note.
 */
export type NoteCreateParams = CamelCaseKeys<CreateNoteRequest>;
/**
 * A generated note: the service's note with camelCase names (`templateId`, `createdAt`,
 * `expiresAt`, …), its `style`, what the clinician should check (`flags`, `omissions`, `warnings`),
 * what the verifier did (`verification`), and its `facts` when asked.
 */
export type Note = CamelCaseKeys<WireNote>;
/**
 * An asynchronous note that is not written: `queued`, `generating`, or `failed` with its `error`
 * (`{ code, message }`).
 */
export type NoteProgress = CamelCaseKeys<WireNoteProgress>;

/** `notes.create` with `async: true`: answered at once with the note `queued`. */
export type AsyncNoteCreateParams = NoteCreateParams & { async: true };

/** `notes.waitUntilReady` options. */
export interface WaitUntilReadyOptions {
  /** Milliseconds between reads; default 1000. */
  interval?: number;
  /** Give up after this many milliseconds with a `ChartwrightError` (`note_wait_timeout`); default 5 minutes. */
  timeout?: number;
  /** Stops waiting with `UserAbortError`. */
  signal?: AbortSignal;
  /** `['facts']`: the visit's facts beside the note. */
  include?: readonly NoteInclude[];
}

/** The note `waitUntilReady` waited for failed; `note` says why (`note.error`). */
export class NoteFailedError extends ChartwrightError {
  readonly note: NoteProgress;

  constructor(note: NoteProgress) {
    super(`Note ${note.id} failed: ${note.error?.message ?? 'no reason given'}`, note.error?.code ?? 'note_failed');
    this.note = note;
  }
}

const WAIT_INTERVAL_MS = 1_000;
const WAIT_TIMEOUT_MS = 5 * 60_000;

/** One section of a written note, as `notes.stream` gives each when the note is written. */
export type NoteSection = Note['sections'][number];

/**
 * What `notes.stream` yields: the note's `status` on each change (the first says where it stands),
 * then for a written note each `section` in template order, and last the `note` (a `Note`, or a
 * `NoteProgress` whose `error` says why it failed).
 */
export type NoteStreamEvent =
  | { type: 'status'; status: NoteStatus }
  | { type: 'section'; section: NoteSection }
  | { type: 'note'; note: Note | NoteProgress };

/** `notes.retrieve` parameters. */
export interface NoteRetrieveParams {
  /** `['facts']`: the visit's facts beside the note. */
  include?: readonly NoteInclude[];
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** `?include=facts`, or '' when nothing is asked. */
function retrieveQuery(params: NoteRetrieveParams): string {
  const { include } = params;
  if (include === undefined) return '';
  if (!Array.isArray(include) || include.some((entry) => typeof entry !== 'string')) {
    throw new ChartwrightError('notes.retrieve: include must be an array of strings.', 'invalid_argument');
  }
  return include.length === 0 ? '' : `?${new URLSearchParams({ include: include.join(',') }).toString()}`;
}

export class Notes {
  constructor(private readonly http: HttpClient) {}

  /**
   * Generates a note from a conversation for a template (`POST /api/v1/notes`). The service
   * validates the parameters and names every bad field in an `InvalidRequestError`.
   */
  async create(params: AsyncNoteCreateParams, options?: RequestOptions): Promise<NoteProgress>;
  async create(params: NoteCreateParams & { async?: false }, options?: RequestOptions): Promise<Note>;
  async create(params: NoteCreateParams, options?: RequestOptions): Promise<Note | NoteProgress>;
  async create(params: NoteCreateParams, options?: RequestOptions): Promise<Note | NoteProgress> {
    if (!isObject(params)) {
      throw new ChartwrightError('notes.create: params must be an object.', 'invalid_argument');
    }
    const note = await this.http.request<WireNote | WireNoteProgress>({
      method: 'POST',
      path: '/api/v1/notes',
      body: toWireKeys(params),
      options,
      create: true,
    });
    return fromWireKeys(note);
  }

  /**
   * A note this project environment made, until its `expiresAt` (`GET /api/v1/notes/{id}`);
   * `{ include: ['facts'] }` adds its facts. `retrieve(id, options)` works as before.
   */
  async retrieve(id: string, options?: RequestOptions): Promise<Note | NoteProgress>;
  async retrieve(id: string, params: NoteRetrieveParams, options?: RequestOptions): Promise<Note | NoteProgress>;
  async retrieve(
    id: string,
    paramsOrOptions?: NoteRetrieveParams | RequestOptions,
    maybeOptions?: RequestOptions,
  ): Promise<Note | NoteProgress> {
    if (typeof id !== 'string' || id === '') {
      throw new ChartwrightError('notes.retrieve: id must be a non-empty string.', 'invalid_argument');
    }
    // Request options never have `include`: a second argument with it (or a third argument) is params.
    const isParams = maybeOptions !== undefined || (isObject(paramsOrOptions) && 'include' in paramsOrOptions);
    const params = isParams ? (paramsOrOptions as NoteRetrieveParams | undefined) : undefined;
    const options = isParams ? maybeOptions : (paramsOrOptions as RequestOptions | undefined);
    const note = await this.http.request<WireNoteOrProgress>({
      method: 'GET',
      path: `/api/v1/notes/${encodeURIComponent(id)}${retrieveQuery(params ?? {})}`,
      options,
    });
    return fromWireKeys(note);
  }

  /**
   * A note as it progresses, streamed by the service as Server-Sent Events (`GET /api/v1/notes/{id}`
   * with `Accept: text/event-stream`) rather than polled: its status on each change, then each
   * section and the note once written, or the note with its error once it failed. Ends after the
   * `note` event; `options.signal` stops it earlier.
   */
  async *stream(
    id: string,
    params: NoteRetrieveParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<NoteStreamEvent> {
    if (typeof id !== 'string' || id === '') {
      throw new ChartwrightError('notes.stream: id must be a non-empty string.', 'invalid_argument');
    }
    const path = `/api/v1/notes/${encodeURIComponent(id)}${retrieveQuery(params)}`;
    for await (const { event, data } of this.http.events({ path, options })) {
      const value = JSON.parse(data) as Record<string, unknown>;
      if (event === 'status') yield { type: 'status', status: value['status'] as NoteStatus };
      else if (event === 'section') yield { type: 'section', section: fromWireKeys(value) as unknown as NoteSection };
      else if (event === 'note') {
        yield { type: 'note', note: fromWireKeys(value as unknown as WireNoteOrProgress) };
        return;
      }
    }
  }

  /**
   * Reads an asynchronous note until it is written, and returns it; a note that failed throws a
   * `NoteFailedError` (its `note.error` says why), and one still not written after `timeout` a
   * `ChartwrightError` (`note_wait_timeout`). A webhook saves the polling.
   */
  async waitUntilReady(id: string, options: WaitUntilReadyOptions = {}): Promise<Note> {
    const deadline = Date.now() + (options.timeout ?? WAIT_TIMEOUT_MS);
    const params = options.include === undefined ? {} : { include: options.include };
    for (;;) {
      const note = await this.retrieve(id, params, options.signal === undefined ? {} : { signal: options.signal });
      if (note.status === 'ready') return note;
      if (note.status === 'failed') throw new NoteFailedError(note);
      if (Date.now() >= deadline) {
        throw new ChartwrightError(`Note ${id} is still ${note.status}; stopped waiting.`, 'note_wait_timeout');
      }
      await sleep(options.interval ?? WAIT_INTERVAL_MS, options.signal);
    }
  }

  /**
   * Deletes a note now, before its retention ends, with every copy the service keeps
   * (`DELETE /api/v1/notes/{id}`): for a note made for the wrong patient, or one the patient asked to
   * have removed. An unknown or already deleted note is a `NotFoundError` (`note_not_found`), so a
   * retried call whose first attempt went through reports that too.
   */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    if (typeof id !== 'string' || id === '') {
      throw new ChartwrightError('notes.delete: id must be a non-empty string.', 'invalid_argument');
    }
    await this.http.request<undefined>({ method: 'DELETE', path: `/api/v1/notes/${encodeURIComponent(id)}`, options });
  }
}
