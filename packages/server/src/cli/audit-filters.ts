import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, type AuditAction, type AuditActorKind } from '@chartwright/protocol';

import { UsageError } from './usage.js';

/** The options `audit list` reads, on the server and with --url. */
export interface AuditListValues {
  'resource-type'?: string | undefined;
  resource?: string | undefined;
  actor?: string | undefined;
  'actor-kind'?: string | undefined;
  encounter?: string | undefined;
  patient?: string | undefined;
  partner?: string | undefined;
  action?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  limit?: string | undefined;
}

/** The filters the server's database and the management API both take; times in epoch ms. */
export interface AuditListFilters {
  resourceType?: string;
  resourceId?: string;
  actorId?: string;
  actorKind?: AuditActorKind;
  action?: AuditAction;
  since?: number;
  until?: number;
  limit?: number;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}`);
  return found;
}

function instant(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at))
    throw new UsageError(`${flag} must be an ISO 8601 date or time (2026-11-27, 2026-11-27T10:00:00Z)`);
  return at;
}

function limitOf(value: string | undefined): number | undefined {
  if (value !== undefined && !/^[1-9]\d{0,6}$/.test(value))
    throw new UsageError('--limit must be a whole number from 1');
  return value === undefined ? undefined : Number(value);
}

/** The filters of `audit list` both ends read alike, each bad value a usage error naming its option. */
export function auditListFilters(values: AuditListValues): AuditListFilters {
  const limit = limitOf(values.limit);
  const actorKind = oneOf(values['actor-kind'], AUDIT_ACTOR_KINDS, '--actor-kind');
  const action = oneOf(values.action, AUDIT_ACTIONS, '--action');
  const since = instant(values.since, '--since');
  const until = instant(values.until, '--until');
  return {
    ...(values['resource-type'] === undefined ? {} : { resourceType: values['resource-type'] }),
    ...(values.resource === undefined ? {} : { resourceId: values.resource }),
    ...(values.actor === undefined ? {} : { actorId: values.actor }),
    ...(actorKind === undefined ? {} : { actorKind }),
    ...(action === undefined ? {} : { action }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
    ...(limit === undefined ? {} : { limit }),
  };
}
