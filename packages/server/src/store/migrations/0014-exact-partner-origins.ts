import type { Kysely, Migration } from 'kysely';

import { originProblem } from '../../partners/origins.js';

/**
 * Partners keep exact embedding origins only. Before, `https://*.example.com` (and any host URL
 * parsing took) was stored and reached the widget page's CSP `frame-ancestors`, where a wildcard
 * lets any subdomain frame the widget. Such origins are dropped — never rewritten into something
 * the operator did not choose — and the partner's other origins kept; one left with none is framed
 * nowhere until `chartwright partners set-origins` gives it exact ones. `down` cannot bring dropped
 * values back, and does not try.
 */
export const exactPartnerOrigins: Migration = {
  async up(db: Kysely<unknown>) {
    const partners = db as unknown as Kysely<{ partners: { id: string; allowed_origins: string } }>;
    const rows = await partners.selectFrom('partners').select(['id', 'allowed_origins']).execute();
    for (const row of rows) {
      const origins = JSON.parse(row.allowed_origins) as string[];
      const exact = origins.filter((origin) => originProblem(origin) === null);
      if (exact.length === origins.length) continue;
      await partners
        .updateTable('partners')
        .set({ allowed_origins: JSON.stringify(exact) })
        .where('id', '=', row.id)
        .execute();
    }
  },

  async down() {
    // Dropped origins are gone: nothing to restore, and the exact ones stay valid before 0014.
  },
};
