import type { Repositories } from '../store/repositories.js';

/** The encounter a record names, with whose it is. */
export type AuditSubject = NonNullable<Awaited<ReturnType<Repositories['encounters']['auditSubject']>>>;

/** What an audit record needs to know about the resource it names: its encounter and patient. */
export class AuditSubjects {
  constructor(private readonly repositories: Repositories) {}

  /** The encounter a stored note, document or realtime session belongs to, if any. */
  async encounterIdOf(resource: 'note' | 'document' | 'realtime_session', id: string): Promise<string | undefined> {
    switch (resource) {
      case 'note':
        return this.repositories.encounterNotes.encounterIdOf(id);
      case 'document':
        return this.repositories.encounterDocuments.encounterIdOf(id);
      case 'realtime_session':
        return (await this.repositories.realtimeSessions.get(id))?.encounter_id ?? undefined;
    }
  }

  encounter(id: string | undefined): Promise<AuditSubject | undefined> {
    return id === undefined ? Promise.resolve(undefined) : this.repositories.encounters.auditSubject(id);
  }
}
