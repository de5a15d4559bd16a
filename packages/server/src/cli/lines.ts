import type { ApiKey, Partner, Project } from '@chartwright/protocol';

import type { AuditEventRow } from '../store/audit-events.js';

/** One line of human output per record, local and remote alike. */

export function partnerLine(partner: Partner): string {
  return `${partner.id}  ${partner.environment}  ${partner.secretHint}  ${partner.status}  ${partner.name}  ${partner.allowedOrigins.join(',')}  ${partner.projectId}`;
}

export function keyLine(key: ApiKey): string {
  const until = key.status === 'grace' ? ` until ${key.expiresAt ?? ''}` : '';
  return `${key.id}  ${key.environment}  ${key.hint}  ${key.status}${until}  ${key.name}  ${key.projectId}`;
}

export function projectLine(project: Project): string {
  return `${project.id}  ${project.name}  created ${project.createdAt}`;
}

/** What a line of `audit list` shows of a record, read from the database or from the management API. */
export type AuditLineFields = Pick<
  AuditEventRow,
  | 'occurred_at'
  | 'action'
  | 'resource_type'
  | 'resource_id'
  | 'actor_kind'
  | 'actor_id'
  | 'outcome'
  | 'status'
  | 'error_code'
  | 'encounter_id'
  | 'ip'
  | 'request_id'
>;

export function auditLine(row: AuditLineFields): string {
  const actor = `${row.actor_kind}${row.actor_id === null ? '' : `:${row.actor_id}`}`;
  const resource = `${row.resource_type}${row.resource_id === null ? '' : `:${row.resource_id}`}`;
  const status = row.status === null ? '' : ` ${row.status}`;
  return [
    new Date(row.occurred_at).toISOString(),
    row.action,
    resource,
    actor,
    `${row.outcome}${status}${row.error_code === null ? '' : ` ${row.error_code}`}`,
    row.encounter_id ?? '-',
    row.ip ?? '-',
    row.request_id ?? '-',
  ].join('  ');
}
