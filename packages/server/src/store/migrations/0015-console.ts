import { sql, type Kysely, type Migration } from 'kysely';

import { generateId } from '../../auth/secrets.js';

const inList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

const ACTOR_KINDS_0013 = ['api_key', 'realtime_token', 'clinician', 'pdf_link', 'cli', 'system'];
const ACTIONS_0013 = ['read', 'create', 'update', 'delete', 'export', 'push'];
// Spelled out rather than imported: a released migration must not change when the protocol does.
const ACTOR_KINDS_0015 = [...ACTOR_KINDS_0013, 'console_member', 'admin_token'];
const ACTIONS_0015 = [...ACTIONS_0013, 'rotate', 'revoke', 'sign_in', 'sign_out'];

const AUDIT_COLUMNS =
  'seq, id, occurred_at, actor_kind, actor_id, project_id, environment, partner_id, action, resource_type, resource_id, encounter_id, patient_ref, outcome, status, error_code, ip, request_id, previous_hash, hash';

/**
 * Rebuilds `audit_events` with the actor kinds and actions it accepts (SQLite cannot alter a check
 * constraint; one path for both databases), and with `organisation_id` for records that belong to
 * an organisation rather than a project (members, admin tokens, sign-ins) when `withOrganisation`.
 * Records keep their seq and hashes, so the chain verifies as before.
 */
async function rebuildAuditEvents(
  db: Kysely<unknown>,
  actorKinds: readonly string[],
  actions: readonly string[],
  withOrganisation: boolean,
) {
  await db.schema
    .createTable('audit_events_next')
    .addColumn('seq', 'bigint', (column) => column.primaryKey())
    .addColumn('id', 'text', (column) => column.notNull().unique())
    .addColumn('occurred_at', 'bigint', (column) => column.notNull())
    .addColumn('actor_kind', 'text', (column) => column.notNull().check(sql`actor_kind in (${inList(actorKinds)})`))
    .addColumn('actor_id', 'text')
    .addColumn('project_id', 'text')
    .addColumn('environment', 'text')
    .addColumn('partner_id', 'text')
    .addColumn('action', 'text', (column) => column.notNull().check(sql`action in (${inList(actions)})`))
    .addColumn('resource_type', 'text', (column) => column.notNull())
    .addColumn('resource_id', 'text')
    .addColumn('encounter_id', 'text')
    .addColumn('patient_ref', 'text')
    .addColumn('outcome', 'text', (column) => column.notNull().check(sql`outcome in ('success', 'failure')`))
    .addColumn('status', 'integer')
    .addColumn('error_code', 'text')
    .addColumn('ip', 'text')
    .addColumn('request_id', 'text')
    .addColumn('previous_hash', 'text', (column) => column.notNull())
    .addColumn('hash', 'text', (column) => column.notNull())
    .$call((table) => (withOrganisation ? table.addColumn('organisation_id', 'text') : table))
    .execute();
  if (!withOrganisation) {
    // Down: what 0013 could not hold goes (the console's own records), so the chain stays whole
    // only up to the first of them; `audit verify` says where.
    await sql`delete from audit_events where actor_kind not in (${inList(actorKinds)}) or action not in (${inList(actions)})`.execute(
      db,
    );
  }
  await sql`insert into audit_events_next (${sql.raw(AUDIT_COLUMNS)}) select ${sql.raw(AUDIT_COLUMNS)} from audit_events`.execute(
    db,
  );
  await db.schema.dropTable('audit_events').execute();
  await db.schema.alterTable('audit_events_next').renameTo('audit_events').execute();
  await db.schema.createIndex('audit_events_occurred_at').on('audit_events').column('occurred_at').execute();
  await db.schema
    .createIndex('audit_events_resource')
    .on('audit_events')
    .columns(['resource_type', 'resource_id'])
    .execute();
  await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['actor_kind', 'actor_id']).execute();
  await db.schema.createIndex('audit_events_patient').on('audit_events').column('patient_ref').execute();
  await db.schema.createIndex('audit_events_encounter').on('audit_events').column('encounter_id').execute();
  if (withOrganisation) {
    await db.schema.createIndex('audit_events_organisation').on('audit_events').column('organisation_id').execute();
    await db.schema.createIndex('audit_events_project').on('audit_events').column('project_id').execute();
  }
}

/** Organisations, and the one every existing project joins. */
async function createOrganisations(db: Kysely<unknown>) {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  const organisationId = generateId('org');
  // Dated at the epoch: it holds every project made before, and stays the deployment's first
  // organisation (the one `npm start` sets up) whatever clock later ones are made by.
  await sql`insert into organisations (id, name, created_at) values (${organisationId}, ${'My organisation'}, ${0})`.execute(
    db,
  );
  // Nullable and without a foreign key only because SQLite can neither add a NOT NULL column
  // without a default nor drop a referencing one (down); every project is given one.
  await db.schema.alterTable('projects').addColumn('organisation_id', 'text').execute();
  await sql`update projects set organisation_id = ${organisationId}`.execute(db);
  await db.schema.createIndex('projects_organisation').on('projects').column('organisation_id').execute();
}

/** Members, their sessions and the one-time links that make them. */
async function createMembers(db: Kysely<unknown>) {
  await db.schema
    .createTable('console_members')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    // Lower-cased; one person, one organisation on a deployment.
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) =>
      column.notNull().check(sql`role in ('owner', 'admin', 'developer', 'auditor')`),
    )
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('last_sign_in_at', 'bigint')
    .execute();
  await db.schema
    .createTable('console_sessions')
    .addColumn('id_hash', 'text', (column) => column.primaryKey())
    .addColumn('member_id', 'text', (column) => column.notNull().references('console_members.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('last_seen_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_member').on('console_sessions').column('member_id').execute();
  await db.schema
    .createTable('console_links')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('setup', 'invitation')`))
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('email', 'text')
    .addColumn('role', 'text', (column) =>
      column.notNull().check(sql`role in ('owner', 'admin', 'developer', 'auditor')`),
    )
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .execute();
}

/** Single sign-on. */
async function createSingleSignOn(db: Kysely<unknown>) {
  // The organisation's OpenID provider (its client secret sealed with a key
  // outside the database), and sign-ins under way (10 minutes), found by their state's hash.
  await db.schema
    .createTable('organisation_sso')
    .addColumn('organisation_id', 'text', (column) =>
      column.primaryKey().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('issuer', 'text', (column) => column.notNull())
    .addColumn('client_id', 'text', (column) => column.notNull())
    .addColumn('client_secret_sealed', 'text', (column) => column.notNull())
    .addColumn('password_sign_in', 'integer', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('console_sso_logins')
    .addColumn('state_hash', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('code_verifier', 'text', (column) => column.notNull())
    .addColumn('nonce', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .execute();
}

/** Organisation admin tokens for the management API. */
async function createAdminTokens(db: Kysely<unknown>) {
  await db.schema
    .createTable('admin_tokens')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull().check(sql`role in ('admin', 'developer', 'auditor')`))
    .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
    .addColumn('hint', 'text', (column) => column.notNull())
    .addColumn('created_by_kind', 'text', (column) => column.notNull())
    .addColumn('created_by_id', 'text')
    .addColumn('created_by_label', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
}

/** Who made each key, and (to the hour) when it was last used. */
async function extendApiKeys(db: Kysely<unknown>) {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  for (const column of ['created_by_kind', 'created_by_id', 'created_by_label']) {
    await db.schema.alterTable('api_keys').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
}

/** Usage per project environment, UTC day and metric. */
async function createUsageCounters(db: Kysely<unknown>) {
  await db.schema
    .createTable('usage_counters')
    .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment', 'text', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('metric', 'text', (column) => column.notNull())
    .addColumn('count', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_counters_pk', ['project_id', 'environment', 'day', 'metric'])
    .execute();
}

/**
 * The console: organisations own projects; members sign in with a password (scrypt) or the
 * organisation's OpenID provider; sessions and one-time links are stored by the SHA-256 of their
 * secret; admin tokens automate the management API. Existing projects join one organisation made
 * here, whose owner is set up with the first-start link. Keys record who made them and, coarsely,
 * when they were last used; usage is counted per project environment and UTC day.
 */
export const consoleAccounts: Migration = {
  async up(db: Kysely<unknown>) {
    await createOrganisations(db);
    await createMembers(db);
    await createSingleSignOn(db);
    await createAdminTokens(db);
    await extendApiKeys(db);
    await createUsageCounters(db);
    await rebuildAuditEvents(db, ACTOR_KINDS_0015, ACTIONS_0015, true);
  },

  async down(db: Kysely<unknown>) {
    await rebuildAuditEvents(db, ACTOR_KINDS_0013, ACTIONS_0013, false);
    await db.schema.dropTable('usage_counters').execute();
    for (const column of ['last_used_at', 'created_by_label', 'created_by_id', 'created_by_kind']) {
      await db.schema.alterTable('api_keys').dropColumn(column).execute();
    }
    for (const table of [
      'console_sso_logins',
      'organisation_sso',
      'admin_tokens',
      'console_links',
      'console_sessions',
      'console_members',
    ]) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropIndex('projects_organisation').execute();
    await db.schema.alterTable('projects').dropColumn('organisation_id').execute();
    await db.schema.dropTable('organisations').execute();
  },
};
