import { sql, type Kysely, type Migration } from 'kysely';

const environmentCheck = () => sql`environment in ('test', 'live')`;

async function createPartners(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('partners')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment', 'text', (column) => column.notNull().check(environmentCheck()))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('secret_hash', 'text', (column) => column.notNull())
    .addColumn('secret_hint', 'text', (column) => column.notNull())
    // The secret replaced at the last rotation keeps working until previous_secret_expires_at.
    .addColumn('previous_secret_hash', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    .addColumn('allowed_origins', 'text', (column) => column.notNull())
    .addColumn('token_lifetime_seconds', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
}

async function createClinicians(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clinicians')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('partner_id', 'text', (column) => column.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('emr_user_id', 'text', (column) => column.notNull())
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('clinicians_partner_emr_user', ['partner_id', 'emr_user_id'])
    .execute();
}

async function createEncounters(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('encounters')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment', 'text', (column) => column.notNull().check(environmentCheck()))
    .addColumn('partner_id', 'text', (column) => column.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('clinician_id', 'text', (column) => column.notNull().references('clinicians.id').onDelete('cascade'))
    .addColumn('emr_session_id', 'text')
    // `widget_{partnerId}_{patientId}`: the raw EMR id is never used as an account patient id.
    .addColumn('patient_key', 'text')
    .addColumn('patient_id', 'text')
    .addColumn('patient_context', 'text')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();
  // One encounter per EMR session for a given clinician of a given partner; encounters opened
  // without an emrSessionId are never matched on relaunch.
  await db.schema
    .createIndex('encounters_emr_session')
    .on('encounters')
    .columns(['partner_id', 'clinician_id', 'emr_session_id'])
    .unique()
    .where(sql.ref('emr_session_id'), 'is not', null)
    .execute();
}

async function createSigningKeys(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('widget_signing_keys')
    .addColumn('kid', 'text', (column) => column.primaryKey())
    .addColumn('algorithm', 'text', (column) => column.notNull())
    .addColumn('private_jwk', 'text', (column) => column.notNull())
    .addColumn('public_jwk', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
}

/**
 * Realtime tokens may now be minted for a partner's widget as well as by an API key: rebuild the
 * table with a nullable key, the partner and the encounter the audio belongs to.
 */
async function rebuildRealtimeTokens(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('realtime_tokens_v2')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
    .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment', 'text', (column) => column.notNull().check(environmentCheck()))
    .addColumn('api_key_id', 'text', (column) => column.references('api_keys.id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (column) => column.references('partners.id').onDelete('cascade'))
    .addColumn('encounter_id', 'text', (column) => column.references('encounters.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addCheckConstraint('realtime_tokens_one_issuer', sql`(api_key_id is null) <> (partner_id is null)`)
    .execute();
  await sql`insert into realtime_tokens_v2 (id, secret_hash, project_id, environment, api_key_id, created_at, expires_at)
      select id, secret_hash, project_id, environment, api_key_id, created_at, expires_at from realtime_tokens`.execute(
    db,
  );
  await db.schema.dropTable('realtime_tokens').execute();
  await db.schema.alterTable('realtime_tokens_v2').renameTo('realtime_tokens').execute();
  await db.schema.createIndex('realtime_tokens_expires_v2').on('realtime_tokens').column('expires_at').execute();
  await db.schema.createIndex('realtime_tokens_api_key_v2').on('realtime_tokens').column('api_key_id').execute();
}

export const widget: Migration = {
  async up(db: Kysely<unknown>) {
    await createPartners(db);
    await createClinicians(db);
    await createEncounters(db);
    await createSigningKeys(db);
    await rebuildRealtimeTokens(db);
  },

  async down(db: Kysely<unknown>) {
    await db
      .deleteFrom('realtime_tokens' as never)
      .where(sql.ref('partner_id'), 'is not', null)
      .execute();
    await db.schema
      .createTable('realtime_tokens_v1')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
      .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('environment', 'text', (column) => column.notNull().check(environmentCheck()))
      .addColumn('api_key_id', 'text', (column) => column.notNull().references('api_keys.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await sql`insert into realtime_tokens_v1 select id, secret_hash, project_id, environment, api_key_id, created_at, expires_at from realtime_tokens`.execute(
      db,
    );
    await db.schema.dropTable('realtime_tokens').execute();
    await db.schema.alterTable('realtime_tokens_v1').renameTo('realtime_tokens').execute();
    await db.schema.createIndex('realtime_tokens_expires').on('realtime_tokens').column('expires_at').execute();
    await db.schema.createIndex('realtime_tokens_api_key').on('realtime_tokens').column('api_key_id').execute();
    for (const table of ['widget_signing_keys', 'encounters', 'clinicians', 'partners']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
