import type { MemberList } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';

/**
 * The organisation's console members and open invitations (`/api/v1/members`). Inviting, changing
 * roles and removing are the owner's, in the console: no admin token carries the owner role.
 */
export class Members {
  constructor(private readonly http: HttpClient) {}

  /** Members, and invitations not yet accepted. */
  async list(options?: RequestOptions): Promise<MemberList> {
    return this.http.request<MemberList>({ method: 'GET', path: '/api/v1/members', options });
  }
}
