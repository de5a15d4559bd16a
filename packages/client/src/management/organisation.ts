import type { Organisation as OrganisationResource } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';

/**
 * The organisation and how its members sign in (`/api/v1/organisation`). Switching single sign-on
 * on or off is the owner's, in the console.
 */
export class Organisation {
  constructor(private readonly http: HttpClient) {}

  async retrieve(options?: RequestOptions): Promise<OrganisationResource> {
    return this.http.request<OrganisationResource>({ method: 'GET', path: '/api/v1/organisation', options });
  }
}
