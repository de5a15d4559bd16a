import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `audit_events`: who touched which patient data, how, when, from where and with what outcome, kept
 * longer than the data (AUDIT_RETENTION_DAYS). No foreign keys: a record outlives what it names. No
 * PHI: resources by id, the patient by a keyed hash of their id. `seq` orders the chain; `hash`
 * is an HMAC over the record and the previous record's hash, so an edited or removed record breaks
 * every hash after it (`chartwright audit verify`).
 */
export const auditLog: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('audit_events')
      .addColumn('seq', 'bigint', (column) => column.primaryKey())
      .addColumn('id', 'text', (column) => column.notNull().unique())
      .addColumn('occurred_at', 'bigint', (column) => column.notNull())
      .addColumn('actor_kind', 'text', (column) =>
        column
          .notNull()
          .check(sql`actor_kind in ('api_key', 'realtime_token', 'clinician', 'pdf_link', 'cli', 'system')`),
      )
      .addColumn('actor_id', 'text')
      .addColumn('project_id', 'text')
      .addColumn('environment', 'text')
      .addColumn('partner_id', 'text')
      .addColumn('action', 'text', (column) =>
        column.notNull().check(sql`action in ('read', 'create', 'update', 'delete', 'export', 'push')`),
      )
      .addColumn('resource_type', 'text', (column) => column.notNull())
      .addColumn('resource_id', 'text')
      // The widget encounter the resource belongs to, and HMAC-SHA256 of its patient's namespaced id.
      .addColumn('encounter_id', 'text')
      .addColumn('patient_ref', 'text')
      .addColumn('outcome', 'text', (column) => column.notNull().check(sql`outcome in ('success', 'failure')`))
      // The HTTP status answered (101 for a WebSocket session), or null for the CLI.
      .addColumn('status', 'integer')
      .addColumn('error_code', 'text')
      .addColumn('ip', 'text')
      .addColumn('request_id', 'text')
      .addColumn('previous_hash', 'text', (column) => column.notNull())
      .addColumn('hash', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('audit_events_occurred_at').on('audit_events').column('occurred_at').execute();
    await db.schema
      .createIndex('audit_events_resource')
      .on('audit_events')
      .columns(['resource_type', 'resource_id'])
      .execute();
    await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['actor_kind', 'actor_id']).execute();
    await db.schema.createIndex('audit_events_patient').on('audit_events').column('patient_ref').execute();
    await db.schema.createIndex('audit_events_encounter').on('audit_events').column('encounter_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('audit_events').execute();
  },
};
