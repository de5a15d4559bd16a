import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, ProjectsTable } from './schema.js';

export type ProjectRow = Selectable<ProjectsTable>;

export class ProjectsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: ProjectRow): Promise<void> {
    await this.db.insertInto('projects').values(row).execute();
  }

  async get(id: string): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every project, or an organisation's. */
  async list(organisationId?: string): Promise<ProjectRow[]> {
    let query = this.db.selectFrom('projects').selectAll();
    if (organisationId !== undefined) query = query.where('organisation_id', '=', organisationId);
    return query.orderBy('created_at').orderBy('id').execute();
  }

  async count(): Promise<number> {
    const { count } = await this.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }
}
