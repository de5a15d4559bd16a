import { userInfo } from 'node:os';

import type { AuditLog } from '../audit/audit-log.js';
import type { AuditSubjects } from '../audit/audit-subjects.js';
import type { AuditEventFilter, AuditEventRow } from '../store/audit-events.js';
import type { AuditAction, AuditActorKind } from '../store/schema.js';
import type { Deletion } from '../retention/deletion.js';
import type { Retention } from '../retention/retention.js';
import { widgetPatientKey } from '../encounters/encounter-service.js';
import { UsageError } from './usage.js';

/** What the privacy commands work with, beside the options and the printer every command gets. */
export interface PrivacyContext {
  values: {
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
  };
  rest: readonly string[];
  print: (json: unknown, human: string) => void;
  audit: AuditLog;
  subjects: AuditSubjects;
  deletion: Deletion;
  retention: Retention;
}

type PrivacyCommand = (context: PrivacyContext) => Promise<void>;

const ACTIONS: readonly AuditAction[] = ['read', 'create', 'update', 'delete', 'export', 'push'];
const ACTOR_KINDS: readonly AuditActorKind[] = ['api_key', 'realtime_token', 'clinician', 'pdf_link', 'cli', 'system'];

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}`);
  return found;
}

export function instant(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at))
    throw new UsageError(`${flag} must be an ISO 8601 date or time (2026-11-27, 2026-11-27T10:00:00Z)`);
  return at;
}

export function limitOf(value: string | undefined): number | undefined {
  if (value !== undefined && !/^[1-9]\d{0,6}$/.test(value))
    throw new UsageError('--limit must be a whole number from 1');
  return value === undefined ? undefined : Number(value);
}

function filterOf(values: PrivacyContext['values'], audit: AuditLog): AuditEventFilter {
  const { patient, partner } = values;
  if ((patient === undefined) !== (partner === undefined)) {
    throw new UsageError(
      '--patient needs --partner (a patient id is the EMR’s, unique within its partner), and --partner needs --patient',
    );
  }
  const limit = limitOf(values.limit);
  const actorKind = oneOf(values['actor-kind'], ACTOR_KINDS, '--actor-kind');
  const action = oneOf(values.action, ACTIONS, '--action');
  const since = instant(values.since, '--since');
  const until = instant(values.until, '--until');
  return {
    ...(values['resource-type'] === undefined ? {} : { resourceType: values['resource-type'] }),
    ...(values.resource === undefined ? {} : { resourceId: values.resource }),
    ...(values.actor === undefined ? {} : { actorId: values.actor }),
    ...(actorKind === undefined ? {} : { actorKind }),
    ...(values.encounter === undefined ? {} : { encounterId: values.encounter }),
    ...(patient === undefined || partner === undefined
      ? {}
      : { patientRef: audit.patientRef(widgetPatientKey(partner, patient)) }),
    ...(action === undefined ? {} : { action }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
    ...(limit === undefined ? {} : { limit }),
  };
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

const DELETABLE = ['note', 'document', 'realtime-session', 'encounter'] as const;
type Deletable = (typeof DELETABLE)[number];

/** Who runs the CLI, as the audit log names them: the operating system's user. */
const cliUser = () => userInfo().username;

async function deleteOne(context: PrivacyContext, kind: Deletable): Promise<void> {
  const id = context.rest[0];
  if (id === undefined || id.trim() === '') throw new UsageError(`<${kind}Id> is required`);
  const resourceType = kind === 'realtime-session' ? 'realtime_session' : kind;
  const { subjects, deletion } = context;
  // Whose it was is looked up first: the deletion takes the answer with it.
  const encounterId = resourceType === 'encounter' ? id : await subjects.encounterIdOf(resourceType, id);
  const subject = await subjects.encounter(encounterId);
  const deleted = await {
    note: () => deletion.note(id),
    document: () => deletion.document(id),
    'realtime-session': () => deletion.realtimeSession(id),
    encounter: () => deletion.encounter(id),
  }[kind]();
  await context.audit.record({
    actor: {
      kind: 'cli',
      id: cliUser(),
      projectId: subject?.project_id ?? null,
      environment: subject?.environment ?? null,
      partnerId: subject?.partner_id ?? null,
    },
    action: 'delete',
    resourceType,
    resourceId: id,
    encounterId: subject?.id ?? null,
    patientKey: subject?.patient_key ?? null,
    outcome: deleted ? 'success' : 'failure',
    status: null,
    errorCode: deleted ? null : 'not_found',
    ip: null,
    requestId: null,
  });
  if (!deleted) throw new Error(`no ${kind} ${id} exists (or it was already deleted)`);
  context.print({ deleted: { type: resourceType, id } }, `Deleted ${kind} ${id} and everything under it.`);
}

export const PRIVACY_COMMANDS: Readonly<Record<string, PrivacyCommand>> = {
  'audit list': async ({ values, print, audit }) => {
    const rows = await audit.list(filterOf(values, audit));
    print(rows, rows.length === 0 ? 'No audit records match.' : rows.map(auditLine).join('\n'));
  },
  'audit verify': async ({ print, audit }) => {
    const result = await audit.verify();
    if (result.broken !== null) {
      const { seq, id, problem } = result.broken;
      throw new Error(
        `the audit chain is broken at record ${seq} (${id}): its ${problem === 'hash' ? 'content does not match its hash (edited)' : 'link to the record before does not hold (a record was removed or inserted)'}`,
      );
    }
    print(result, `The audit chain holds: ${result.records} records verified.`);
  },
  'retention sweep': async ({ print, retention }) => {
    const deleted = await retention.sweep();
    print(
      { deleted },
      `Deleted past their retention: ${Object.entries(deleted)
        .map(([kind, count]) => `${count} ${kind}`)
        .join(', ')}.`,
    );
  },
  ...Object.fromEntries(
    DELETABLE.map((kind): [string, PrivacyCommand] => [`delete ${kind}`, (context) => deleteOne(context, kind)]),
  ),
};
