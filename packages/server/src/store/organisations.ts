import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, OrganisationsTable } from './schema.js';

export type OrganisationRow = Selectable<OrganisationsTable>;

export class OrganisationsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: OrganisationRow): Promise<void> {
    await this.db.insertInto('organisations').values(row).execute();
  }

  async get(id: string): Promise<OrganisationRow | undefined> {
    return this.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(): Promise<OrganisationRow[]> {
    return this.db.selectFrom('organisations').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  /** The deployment's first organisation: the one the first start sets up and the CLI works in by default. */
  async first(): Promise<OrganisationRow> {
    const first = await this.db
      .selectFrom('organisations')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    if (first === undefined) throw new Error('no organisation: run the migrations');
    return first;
  }

  async rename(id: string, name: string): Promise<void> {
    await this.db.updateTable('organisations').set({ name }).where('id', '=', id).execute();
  }
}
