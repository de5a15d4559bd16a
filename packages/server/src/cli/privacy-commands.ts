import { userInfo } from 'node:os';

import type { AuditLog } from '../audit/audit-log.js';
import type { AuditSubjects } from '../audit/audit-subjects.js';
import type { AuditEventFilter } from '../store/audit-events.js';
import type { Deletion } from '../retention/deletion.js';
import type { Retention } from '../retention/retention.js';
import { widgetPatientKey } from '../encounters/encounter-service.js';
import { auditListFilters, type AuditListValues } from './audit-filters.js';
import { auditLine } from './lines.js';
import { UsageError } from './usage.js';

/** What the privacy commands work with, beside the options and the printer every command gets. */
export interface PrivacyContext {
  values: AuditListValues;
  rest: readonly string[];
  print: (json: unknown, human: string) => void;
  audit: AuditLog;
  subjects: AuditSubjects;
  deletion: Deletion;
  retention: Retention;
}

type PrivacyCommand = (context: PrivacyContext) => Promise<void>;

function filterOf(values: AuditListValues, audit: AuditLog): AuditEventFilter {
  const { patient, partner } = values;
  if ((patient === undefined) !== (partner === undefined)) {
    throw new UsageError(
      '--patient needs --partner (a patient id is the EMR’s, unique within its partner), and --partner needs --patient',
    );
  }
  return {
    ...auditListFilters(values),
    ...(values.encounter === undefined ? {} : { encounterId: values.encounter }),
    ...(patient === undefined || partner === undefined
      ? {}
      : { patientRef: audit.patientRef(widgetPatientKey(partner, patient)) }),
  };
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
