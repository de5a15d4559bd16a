import type { AuditEvent, AuditEventPage, ExportAuditEventsQuery, ListAuditEventsQuery } from '@chartwright/protocol';

import type { AuditLog } from '../audit/audit-log.js';
import type { ProjectService } from '../projects/project-service.js';
import type { AuditEventFilter, AuditEventRow } from '../store/audit-events.js';
import { toCsv } from './csv.js';
import type { ConsolePrincipal } from './principal.js';

const DEFAULT_PAGE = 100;
/** An export holds at most this many records; narrower filters give the rest. */
export const EXPORT_LIMIT = 100_000;

const view = (row: AuditEventRow): AuditEvent => ({
  id: row.id,
  occurredAt: new Date(row.occurred_at).toISOString(),
  actor: {
    kind: row.actor_kind,
    id: row.actor_id,
    projectId: row.project_id,
    environment: row.environment,
    partnerId: row.partner_id,
  },
  action: row.action,
  resourceType: row.resource_type,
  resourceId: row.resource_id,
  encounterId: row.encounter_id,
  outcome: row.outcome,
  status: row.status,
  errorCode: row.error_code,
  ip: row.ip,
  requestId: row.request_id,
});

const CSV_HEADER = [
  'occurred_at',
  'id',
  'actor_kind',
  'actor_id',
  'project_id',
  'environment',
  'partner_id',
  'action',
  'resource_type',
  'resource_id',
  'encounter_id',
  'outcome',
  'status',
  'error_code',
  'ip',
  'request_id',
];

/** The audit log as an organisation sees it: its own records and its projects', nobody else's. */
export class AuditRecords {
  constructor(
    private readonly audit: AuditLog,
    private readonly projects: ProjectService,
  ) {}

  async page(principal: ConsolePrincipal, query: ListAuditEventsQuery): Promise<AuditEventPage> {
    const limit = query.limit ?? DEFAULT_PAGE;
    const rows = await this.audit.list({
      ...(await this.filter(principal, query)),
      newestFirst: query.cursor === undefined ? {} : { beforeSeq: Number(query.cursor) },
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { data: page.map(view), nextCursor: rows.length > limit && last !== undefined ? String(last.seq) : null };
  }

  async csv(principal: ConsolePrincipal, query: ExportAuditEventsQuery): Promise<string> {
    const rows = await this.audit.list({ ...(await this.filter(principal, query)), limit: EXPORT_LIMIT });
    return toCsv(
      CSV_HEADER,
      rows.map((row) => [
        new Date(row.occurred_at).toISOString(),
        row.id,
        row.actor_kind,
        row.actor_id,
        row.project_id,
        row.environment,
        row.partner_id,
        row.action,
        row.resource_type,
        row.resource_id,
        row.encounter_id,
        row.outcome,
        row.status,
        row.error_code,
        row.ip,
        row.request_id,
      ]),
    );
  }

  private async filter(principal: ConsolePrincipal, query: ExportAuditEventsQuery): Promise<AuditEventFilter> {
    const projectIds = (await this.projects.list(principal.organisationId)).map((project) => project.id);
    return {
      organisation: { id: principal.organisationId, projectIds },
      ...(query.actorKind === undefined ? {} : { actorKind: query.actorKind }),
      ...(query.actorId === undefined ? {} : { actorId: query.actorId }),
      ...(query.resourceType === undefined ? {} : { resourceType: query.resourceType }),
      ...(query.resourceId === undefined ? {} : { resourceId: query.resourceId }),
      ...(query.action === undefined ? {} : { action: query.action }),
      ...(query.since === undefined ? {} : { since: Date.parse(query.since) }),
      ...(query.until === undefined ? {} : { until: Date.parse(query.until) }),
    };
  }
}
