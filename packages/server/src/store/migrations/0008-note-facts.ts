import { sql, type Kysely, type Migration } from 'kysely';

/** The columns notes gain; every one but `style` is null on notes written before. */
const REVIEW_COLUMNS = ['flags', 'omissions', 'warnings', 'verification', 'facts'] as const;

/**
 * Notes keep what issue 14 adds to them: the style they were written in, and as JSON the review
 * flags, the omission report, the warnings, what the verifier did, and the visit's facts. (Each
 * sentence's support class and cited facts live in the `sections` JSON.) Notes written before are
 * `detailed`, and their null columns read as no flags, omissions or warnings, no verification and
 * no facts.
 */
export const noteFacts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('notes')
      .addColumn('style', 'text', (column) =>
        column
          .notNull()
          .defaultTo('detailed')
          .check(sql`style in ('detailed', 'concise')`),
      )
      .execute();
    // One column per statement: SQLite alters a table one column at a time.
    for (const column of REVIEW_COLUMNS) {
      await db.schema.alterTable('notes').addColumn(column, 'text').execute();
    }
  },

  async down(db: Kysely<unknown>) {
    for (const column of [...REVIEW_COLUMNS].reverse()) {
      await db.schema.alterTable('notes').dropColumn(column).execute();
    }
    await db.schema.alterTable('notes').dropColumn('style').execute();
  },
};
