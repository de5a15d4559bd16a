import type { CreateNoteRequest, NoteInclude, Note as WireNote } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';
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
  async create(params: NoteCreateParams, options?: RequestOptions): Promise<Note> {
    if (!isObject(params)) {
      throw new ChartwrightError('notes.create: params must be an object.', 'invalid_argument');
    }
    const note = await this.http.request<WireNote>({
      method: 'POST',
      path: '/api/v1/notes',
      body: toWireKeys(params),
      options,
    });
    return fromWireKeys(note);
  }

  /**
   * A note this project environment made, until its `expiresAt` (`GET /api/v1/notes/{id}`);
   * `{ include: ['facts'] }` adds its facts. `retrieve(id, options)` works as before.
   */
  async retrieve(id: string, options?: RequestOptions): Promise<Note>;
  async retrieve(id: string, params: NoteRetrieveParams, options?: RequestOptions): Promise<Note>;
  async retrieve(
    id: string,
    paramsOrOptions?: NoteRetrieveParams | RequestOptions,
    maybeOptions?: RequestOptions,
  ): Promise<Note> {
    if (typeof id !== 'string' || id === '') {
      throw new ChartwrightError('notes.retrieve: id must be a non-empty string.', 'invalid_argument');
    }
    // Request options never have `include`: a second argument with it (or a third argument) is params.
    const isParams = maybeOptions !== undefined || (isObject(paramsOrOptions) && 'include' in paramsOrOptions);
    const params = isParams ? (paramsOrOptions as NoteRetrieveParams | undefined) : undefined;
    const options = isParams ? maybeOptions : (paramsOrOptions as RequestOptions | undefined);
    const note = await this.http.request<WireNote>({
      method: 'GET',
      path: `/api/v1/notes/${encodeURIComponent(id)}${retrieveQuery(params ?? {})}`,
      options,
    });
    return fromWireKeys(note);
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
