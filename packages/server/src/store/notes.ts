import type { Environment } from '@chartwright/protocol';
import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, NotesTable } from './schema.js';

export type NoteRow = Selectable<NotesTable>;

export class NotesRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: NoteRow): Promise<void> {
    await this.db.insertInto('notes').values(row).execute();
  }

  /** The note, only for the project environment that made it and only while it is retained. */
  async getScoped(
    id: string,
    scope: { projectId: string; environment: Environment },
    now: number,
  ): Promise<NoteRow | undefined> {
    return this.db
      .selectFrom('notes')
      .selectAll()
      .where('id', '=', id)
      .where('project_id', '=', scope.projectId)
      .where('environment', '=', scope.environment)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Deletes notes past their retention; returns how many. */
  async deleteExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom('notes').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes the note now (a widget encounter's note with it); false when there is none to delete. */
  async delete(id: string, scope?: { projectId: string; environment: Environment }): Promise<boolean> {
    let query = this.db.deleteFrom('notes').where('id', '=', id);
    if (scope !== undefined) {
      query = query.where('project_id', '=', scope.projectId).where('environment', '=', scope.environment);
    }
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
