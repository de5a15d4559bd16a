import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Database } from '../store/database.js';
import type { Repositories } from '../store/repositories.js';

const DAY_MS = 86_400_000;

/** How many records of each kind one sweep deleted. */
export type RetentionReport = Readonly<Record<RetentionKind, number>>;

export type RetentionKind =
  | 'notes'
  | 'documents'
  | 'realtime_sessions'
  | 'encounters'
  | 'audit_events'
  | 'idempotency_keys'
  | 'console_sessions'
  | 'console_links'
  | 'console_sso_logins';

/**
 * The retention policy of every kind of record that holds patient data, applied in one sweep
 * (docs/operations.md, "Protecting health information"). Reads already refuse what is past its
 * retention; the sweep deletes it, then gives the freed space back so no copy stays in the files.
 * The order matters: an encounter goes once nothing under it remains.
 */
export class Retention {
  constructor(
    private readonly deps: {
      repositories: Repositories;
      database: Pick<Database, 'compact'>;
      clock: Clock;
      config: Pick<Config, 'notes' | 'realtime' | 'audit' | 'console'>;
    },
  ) {}

  async sweep(): Promise<RetentionReport> {
    const { repositories, clock, config } = this.deps;
    const now = clock.now();
    const notesCutoff = now - config.notes.retentionDays * DAY_MS;
    const report: Record<RetentionKind, number> = {
      // Widget encounters' notes (and their transcript copies) go with the notes they are.
      notes: await repositories.notes.deleteExpired(now),
      documents: await repositories.encounterDocuments.deleteExpired(now),
      realtime_sessions: await repositories.realtimeSessions.deleteLastSeenBy(
        now - config.realtime.retentionDays * DAY_MS,
      ),
      // An encounter idle for the notes' retention that holds nothing any more, with its patient
      // context and consent.
      encounters: await repositories.encounters.deleteIdleAndEmpty(notesCutoff),
      audit_events: await repositories.auditEvents.deleteBefore(now - config.audit.retentionDays * DAY_MS),
      // Kept answers to Idempotency-Keys (24 hours; reads already treat them as gone).
      idempotency_keys: await repositories.idempotencyKeys.deleteExpired(now),
      // Requests already refuse them; the sweep keeps the tables from growing.
      console_sessions: await repositories.consoleMembers.deleteExpiredSessions(
        now,
        config.console.sessionIdleSeconds * 1000,
      ),
      console_links: await repositories.consoleMembers.deleteExpiredLinks(now),
      console_sso_logins: await repositories.organisationSso.deleteExpiredLogins(now),
    };
    await this.deps.database.compact();
    return report;
  }
}
