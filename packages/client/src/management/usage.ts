import type { UsageDay, UsageQuery } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';
import { withQuery } from './paths.js';

/** `projectId`, `environment`, and the UTC days `from`/`to` (`YYYY-MM-DD`, inclusive; default the last 30 days). */
export type UsageListParams = UsageQuery;

/** Use per project, environment and UTC day (`/api/v1/usage`). */
export class Usage {
  constructor(private readonly http: HttpClient) {}

  /** One row per project environment and day with any use. */
  async list(params?: UsageListParams, options?: RequestOptions): Promise<UsageDay[]> {
    return this.http.request<UsageDay[]>({
      method: 'GET',
      path: withQuery('/api/v1/usage', params, 'usage.list'),
      options,
    });
  }

  /** The same rows as CSV text, with a header row. */
  async exportCsv(params?: UsageListParams, options?: RequestOptions): Promise<string> {
    return this.http.request<string>({
      method: 'GET',
      path: withQuery('/api/v1/usage/export', params, 'usage.exportCsv'),
      options,
      response: 'csv',
    });
  }
}
