import type { Environment } from '@chartwright/protocol';
import type { Kysely, Selectable } from 'kysely';

import type { CallbackSecretsTable, DatabaseSchema, WebhookEndpointsTable } from './schema.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type CallbackSecretRow = Selectable<CallbackSecretsTable>;

interface Scope {
  projectId: string;
  environment: Environment;
}

/** A project environment's webhook endpoints and its callback secret (secrets sealed). */
export class WebhookEndpointsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: WebhookEndpointRow): Promise<void> {
    await this.db.insertInto('webhook_endpoints').values(row).execute();
  }

  /** Oldest first. */
  async list(scope: Scope): Promise<WebhookEndpointRow[]> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('project_id', '=', scope.projectId)
      .where('environment', '=', scope.environment)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async get(id: string): Promise<WebhookEndpointRow | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Deletes it with its deliveries (cascade); false when the scope has no such endpoint. */
  async delete(id: string, scope: Scope): Promise<boolean> {
    const result = await this.db
      .deleteFrom('webhook_endpoints')
      .where('id', '=', id)
      .where('project_id', '=', scope.projectId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Replaces the project environment's callback secret. */
  async putCallbackSecret(row: CallbackSecretRow): Promise<void> {
    await this.db
      .insertInto('callback_secrets')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['project_id', 'environment']).doUpdateSet({
          secret_sealed: row.secret_sealed,
          secret_hint: row.secret_hint,
          created_at: row.created_at,
        }),
      )
      .execute();
  }

  async getCallbackSecret(scope: Scope): Promise<CallbackSecretRow | undefined> {
    return this.db
      .selectFrom('callback_secrets')
      .selectAll()
      .where('project_id', '=', scope.projectId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
  }
}
