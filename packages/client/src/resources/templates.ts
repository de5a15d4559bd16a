import type { Template } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';

export class Templates {
  constructor(private readonly http: HttpClient) {}

  /** Every template the key may use (`GET /api/v1/templates`); pass a template's `id` to `notes.create`. */
  list(options?: RequestOptions): Promise<Template[]> {
    return this.http.request<Template[]>({ method: 'GET', path: '/api/v1/templates', options });
  }
}
