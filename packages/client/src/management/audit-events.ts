import type { AuditEvent, AuditEventPage, ExportAuditEventsQuery, ListAuditEventsQuery } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';
import { withQuery } from './paths.js';

/**
 * Filters (`actorKind`, `actorId`, `resourceType`, `resourceId`, `action`, `since` inclusive and
 * `until` exclusive, ISO 8601), the page size `limit` (1–500, default 100) and the `cursor` of a
 * previous page's `nextCursor`.
 */
export type AuditEventListParams = ListAuditEventsQuery;
export type AuditEventExportParams = ExportAuditEventsQuery;

/** The organisation's audit log (`/api/v1/audit-events`). */
export class AuditEvents {
  constructor(private readonly http: HttpClient) {}

  /** One page of records, newest first; pass its `nextCursor` as `cursor` for the next (older) one. */
  async list(params?: AuditEventListParams, options?: RequestOptions): Promise<AuditEventPage> {
    return this.http.request<AuditEventPage>({
      method: 'GET',
      path: withQuery('/api/v1/audit-events', params, 'auditEvents.list'),
      options,
    });
  }

  /**
   * Every matching record, newest first, fetching the next page only when the loop gets there:
   * `for await (const event of management.auditEvents.iterate({ action: 'revoke' })) …`.
   */
  async *iterate(params: AuditEventListParams = {}, options?: RequestOptions): AsyncGenerator<AuditEvent, void> {
    let cursor = params.cursor;
    do {
      const page = await this.list({ ...params, ...(cursor === undefined ? {} : { cursor }) }, options);
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Every matching record as CSV text, oldest first (the export is itself recorded in the log). */
  async exportCsv(params?: AuditEventExportParams, options?: RequestOptions): Promise<string> {
    return this.http.request<string>({
      method: 'GET',
      path: withQuery('/api/v1/audit-events/export', params, 'auditEvents.exportCsv'),
      options,
      response: 'csv',
    });
  }
}
