import type { Kysely, Migration } from 'kysely';

/**
 * `idempotency_keys`: the first answer to an `Idempotency-Key`, per caller (`scope`) and operation,
 * for 24 hours. The primary key is the claim: of two requests with one key, one insert succeeds and
 * the other finds the row. `response` is sealed (it may hold a note's text or a new key's secret);
 * `resource_id` names what the answer made, so deleting that deletes the record too.
 */
export const idempotencyKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('operation', 'text', (column) => column.notNull())
      .addColumn('key', 'text', (column) => column.notNull())
      .addColumn('request_hash', 'text', (column) => column.notNull())
      // Who holds the claim while the request runs; a stale holder's answer is not stored over a newer one.
      .addColumn('claim', 'text', (column) => column.notNull())
      // While null, the first request is still running, until locked_until.
      .addColumn('response_status', 'integer')
      .addColumn('response', 'text')
      .addColumn('resource_id', 'text')
      .addColumn('locked_until', 'bigint', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'operation', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute();
    await db.schema.createIndex('idempotency_keys_resource').on('idempotency_keys').column('resource_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('idempotency_keys').execute();
  },
};
