import type { AuditAction, AuditActorKind, ConsoleRole, Environment } from '@chartwright/protocol';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A time of the service's (ISO 8601) in the reader's locale and zone; `fallback` for none. */
export function formatTime(iso: string | null, fallback = '—'): string {
  if (iso === null) return fallback;
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : dateTime.format(time);
}

export const ENVIRONMENT_LABELS: Readonly<Record<Environment, string>> = {
  test: 'Sandbox (test)',
  live: 'Production (live)',
};

export const ROLE_LABELS: Readonly<Record<ConsoleRole, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  auditor: 'Auditor',
};

/** What each role may do, in one line, for the invitation and role choices. */
export const ROLE_SUMMARIES: Readonly<Record<ConsoleRole, string>> = {
  owner: 'everything, including members and admin tokens',
  admin: 'production and sandbox keys and partners',
  developer: 'sandbox keys and partners; sees production keys',
  auditor: 'the audit log and usage, read-only',
};

/** The grace periods the console offers when rotating a key or a partner secret (the API takes 0 to 90 days). */
export const GRACE_CHOICES: readonly { seconds: number; label: string }[] = [
  { seconds: 0, label: 'None: the old one stops working now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
];
export const DEFAULT_GRACE_SECONDS = 86_400;

/** A duration in seconds as a person says it: "1 hour", "7 days", "90 seconds". */
export function formatDuration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return `${count} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** Who acted, as the audit log's filter names them; the list of kinds is this record's keys (typed against the protocol's). */
export const ACTOR_KIND_LABELS: Readonly<Record<AuditActorKind, string>> = {
  api_key: 'API key',
  realtime_token: 'Realtime token',
  clinician: 'Clinician (widget)',
  pdf_link: 'PDF link',
  cli: 'Command line',
  system: 'The service',
  console_member: 'Console member',
  admin_token: 'Admin token',
};

export const ACTION_LABELS: Readonly<Record<AuditAction, string>> = {
  read: 'Read',
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  export: 'Export',
  push: 'Push to the EMR',
  rotate: 'Rotate',
  revoke: 'Revoke',
  sign_in: 'Sign in',
  sign_out: 'Sign out',
};

/** A record's keys, typed: the lists above, in their order. */
export const keysOf = <K extends string>(record: Readonly<Record<K, string>>): K[] => Object.keys(record) as K[];
