import { sql, type Kysely, type Selectable } from 'kysely';

import type { Environment } from '@chartwright/protocol';

import type { DatabaseSchema, UsageCountersTable } from './schema.js';

export type UsageCounterRow = Selectable<UsageCountersTable>;

export interface UsageFilter {
  projectIds: readonly string[];
  environment?: Environment;
  /** UTC days, inclusive. */
  fromDay: string;
  toDay: string;
}

export class UsageCountersRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** Adds counts to what is stored; several instances flushing the same day simply add up. */
  async add(rows: readonly UsageCounterRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('usage_counters')
      .values([...rows])
      .onConflict((conflict) =>
        conflict
          .columns(['project_id', 'environment', 'day', 'metric'])
          .doUpdateSet({ count: sql<number>`usage_counters.count + excluded.count` }),
      )
      .execute();
  }

  async list(filter: UsageFilter): Promise<UsageCounterRow[]> {
    if (filter.projectIds.length === 0) return [];
    let query = this.db
      .selectFrom('usage_counters')
      .selectAll()
      .where('project_id', 'in', [...filter.projectIds])
      .where('day', '>=', filter.fromDay)
      .where('day', '<=', filter.toDay);
    if (filter.environment !== undefined) query = query.where('environment', '=', filter.environment);
    return query.orderBy('day').orderBy('project_id').orderBy('environment').execute();
  }
}
