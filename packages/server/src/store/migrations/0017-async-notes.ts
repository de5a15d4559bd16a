import { sql, type Kysely, type Migration } from 'kysely';

// Spelled out rather than imported: a released migration must not change when the protocol does.
const NOTE_STATUSES = "'queued', 'generating', 'ready', 'failed'";
const EVENT_TYPES = "'note.ready', 'note.failed'";
const DELIVERY_STATUSES = "'pending', 'sending', 'succeeded', 'failed'";

/** Nullable columns notes gain, in the order they are added (SQLite adds one per statement). */
const NOTE_COLUMNS = [
  ['started_at', 'bigint'],
  ['run_after', 'bigint'],
  ['error_code', 'text'],
  ['error_message', 'text'],
  ['callback_url', 'text'],
  ['request', 'text'],
  ['includes', 'text'],
] as const;

async function extendNotes(db: Kysely<unknown>) {
  // Every note made before was written when it was asked for: `ready`, at its first attempt.
  await db.schema
    .alterTable('notes')
    .addColumn('status', 'text', (column) =>
      column
        .notNull()
        .defaultTo('ready')
        .check(sql`status in (${sql.raw(NOTE_STATUSES)})`),
    )
    .execute();
  await db.schema
    .alterTable('notes')
    .addColumn('attempt', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
  for (const [name, type] of NOTE_COLUMNS) {
    await db.schema.alterTable('notes').addColumn(name, type).execute();
  }
  await db.schema.createIndex('notes_status').on('notes').column('status').execute();
}

async function createWebhookTables(db: Kysely<unknown>) {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('events', 'text', (column) => column.notNull())
    .addColumn('secret_sealed', 'text', (column) => column.notNull())
    .addColumn('secret_hint', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_project')
    .on('webhook_endpoints')
    .columns(['project_id', 'environment'])
    .execute();
  await db.schema
    .createTable('callback_secrets')
    .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('secret_sealed', 'text', (column) => column.notNull())
    .addColumn('secret_hint', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('callback_secrets_pk', ['project_id', 'environment'])
    .execute();
}

async function createDeliveryTables(db: Kysely<unknown>) {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    // With its note (retention, deletion) and its endpoint go its deliveries and their log.
    .addColumn('note_id', 'text', (column) => column.notNull().references('notes.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('endpoint_id', 'text', (column) => column.references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('target', 'text', (column) => column.notNull())
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('event_id', 'text', (column) => column.notNull())
    .addColumn('event_type', 'text', (column) => column.notNull().check(sql`event_type in (${sql.raw(EVENT_TYPES)})`))
    .addColumn('status', 'text', (column) => column.notNull().check(sql`status in (${sql.raw(DELIVERY_STATUSES)})`))
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    // One delivery per note and receiver, however often the note's job ran.
    .addUniqueConstraint('webhook_deliveries_note_target', ['note_id', 'target'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_project')
    .on('webhook_deliveries')
    .columns(['project_id', 'environment', 'created_at'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').column('endpoint_id').execute();
  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('delivery_id', 'text', (column) =>
      column.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('number', 'integer', (column) => column.notNull())
    .addColumn('attempted_at', 'bigint', (column) => column.notNull())
    .addColumn('duration_ms', 'integer', (column) => column.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('webhook_delivery_attempts_pk', ['delivery_id', 'number'])
    .execute();
}

/**
 * Asynchronous notes and webhooks (issue 18): a note has a status (`queued`, `generating`, `ready`,
 * `failed`), the attempt that owns it, its error, its callback_url and, until it is written, the
 * request it is written from; every existing note is `ready`. Webhook endpoints and each project
 * environment's callback secret keep their signing secrets sealed; deliveries (one per note and
 * receiver) and their attempts are the delivery log, deleted with their note.
 */
export const asyncNotes: Migration = {
  async up(db: Kysely<unknown>) {
    await extendNotes(db);
    await createWebhookTables(db);
    await createDeliveryTables(db);
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['webhook_delivery_attempts', 'webhook_deliveries', 'callback_secrets', 'webhook_endpoints']) {
      await db.schema.dropTable(table).execute();
    }
    // A note not written would read as an empty note to the version before: it goes.
    await sql`delete from notes where status <> 'ready'`.execute(db);
    await db.schema.dropIndex('notes_status').execute();
    for (const [name] of [...NOTE_COLUMNS].reverse()) {
      await db.schema.alterTable('notes').dropColumn(name).execute();
    }
    await db.schema.alterTable('notes').dropColumn('attempt').execute();
    await db.schema.alterTable('notes').dropColumn('status').execute();
  },
};
