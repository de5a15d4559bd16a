import type { AdminToken } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';

/**
 * The organisation's admin tokens for automation (`/api/v1/admin-tokens`). Owners make and revoke
 * them in the console; a token cannot make another.
 */
export class AdminTokens {
  constructor(private readonly http: HttpClient) {}

  /** Every token, oldest first (hints only). */
  async list(options?: RequestOptions): Promise<AdminToken[]> {
    return this.http.request<AdminToken[]>({ method: 'GET', path: '/api/v1/admin-tokens', options });
  }
}
