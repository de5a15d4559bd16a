import type { CreateNoteRequest, Note as WireNote } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';
import { fromWireKeys, toWireKeys, type CamelCaseKeys } from '../core/wire-case.js';
import { ChartwrightError } from '../errors.js';

/** `notes.create` parameters: the body of `POST /api/v1/notes` with camelCase names (`templateId`, `conversationText`, …). */
export type NoteCreateParams = CamelCaseKeys<CreateNoteRequest>;
/** A generated note: the service's note with camelCase names (`templateId`, `createdAt`, `expiresAt`, …). */
export type Note = CamelCaseKeys<WireNote>;

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
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

  /** A note this project environment made, until its `expiresAt` (`GET /api/v1/notes/{id}`). */
  async retrieve(id: string, options?: RequestOptions): Promise<Note> {
    if (typeof id !== 'string' || id === '') {
      throw new ChartwrightError('notes.retrieve: id must be a non-empty string.', 'invalid_argument');
    }
    const note = await this.http.request<WireNote>({
      method: 'GET',
      path: `/api/v1/notes/${encodeURIComponent(id)}`,
      options,
    });
    return fromWireKeys(note);
  }
}
