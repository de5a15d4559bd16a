import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

/**
 * Something that moves whenever the clinician's row is written, even with the values it had:
 * PostgreSQL gives every written row version a new xmin; SQLite counts the rows each statement of
 * the connection changed.
 */
async function writeMark(h: Harness, id: string): Promise<string> {
  if (h.database.dialect === 'postgres') {
    const { rows } = await sql<{ mark: string }>`select xmin::text as mark from clinicians where id = ${id}`.execute(
      h.database.db,
    );
    return rows[0]?.mark ?? 'no row';
  }
  const { rows } = await sql<{ mark: number }>`select total_changes() as mark`.execute(h.database.db);
  return String(rows[0]?.mark);
}

describe.each(TEST_DIALECTS)('clinicians on %s', (dialect) => {
  let h: Harness;
  let partnerId: string;
  beforeEach(async () => {
    h = await createHarness({ dialect });
    partnerId = (await h.createPartner()).id;
  });
  afterEach(async () => {
    await h.close();
  });

  const seen = (email: string, at: number) => ({
    id: `cln_${at}`,
    partner_id: partnerId,
    emr_user_id: 'emr-7',
    email,
    display_name: null,
    created_at: at,
    updated_at: at,
  });

  it('writes nothing when a widget token finds its clinician as the EMR describes it', async () => {
    const created = await h.repositories.clinicians.upsert(seen('dr@clinic.example', 1000));
    const before = await writeMark(h, created.id);

    const again = await h.repositories.clinicians.upsert(seen('dr@clinic.example', 2000));
    expect(again).toEqual(created);
    expect(await writeMark(h, created.id)).toBe(before);

    // Through the token endpoint too: the same clinician minting again costs no write.
    const { partnerKey } = await h.createPartner({ origins: ['https://emr2.example.com'] });
    const body = { userEmail: 'dr.b@clinic.example', emrUserId: 'emr-8' };
    await h.mintWidgetToken(partnerKey, body);
    const minted = await h.database.db
      .selectFrom('clinicians')
      .selectAll()
      .where('emr_user_id', '=', 'emr-8')
      .executeTakeFirstOrThrow();
    const mark = await writeMark(h, minted.id);
    h.clock.advance(60_000);
    await h.mintWidgetToken(partnerKey, body);
    expect(await writeMark(h, minted.id)).toBe(mark);
    expect(await h.repositories.clinicians.get(minted.id)).toEqual(minted);
  });

  it('updates the e-mail when the EMR sends another, keeping the id and display name', async () => {
    const created = await h.repositories.clinicians.upsert(seen('dr@clinic.example', 1000));
    await h.repositories.clinicians.setDisplayName(created.id, 'Dr. Seven', 1500);
    const before = await writeMark(h, created.id);

    const updated = await h.repositories.clinicians.upsert(seen('seven@clinic.example', 2000));
    expect(updated).toEqual({
      ...created,
      email: 'seven@clinic.example',
      display_name: 'Dr. Seven',
      updated_at: 2000,
    });
    expect(await writeMark(h, created.id)).not.toBe(before);
  });
});
