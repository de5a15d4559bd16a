import { sql, type Kysely, type Migration } from 'kysely';

const environmentCheck = () => sql`environment in ('test', 'live')`;

export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('environment', 'text', (column) => column.notNull().check(environmentCheck()))
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
      .addColumn('hint', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .addColumn('replaced_by', 'text')
      .execute();
    await db.schema.createIndex('api_keys_project_env').on('api_keys').columns(['project_id', 'environment']).execute();

    await db.schema
      .createTable('realtime_tokens')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
      .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('environment', 'text', (column) => column.notNull().check(environmentCheck()))
      .addColumn('api_key_id', 'text', (column) => column.notNull().references('api_keys.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('realtime_tokens_expires').on('realtime_tokens').column('expires_at').execute();
    await db.schema.createIndex('realtime_tokens_api_key').on('realtime_tokens').column('api_key_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('realtime_tokens').execute();
    await db.schema.dropTable('api_keys').execute();
    await db.schema.dropTable('projects').execute();
  },
};
