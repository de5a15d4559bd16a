import { createHmac } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { TEST_DIALECTS, openTestDatabase, type TestDatabase } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { openWidget, widgetCall } from '@chartwright/testing/widget-encounters.js';
import { testConfig } from '../../config/config.js';
import { createRepositories } from '../../store/repositories.js';

/**
 * The PDF-link secret an earlier version generated into the database moves out to the key file on
 * upgrade, unchanged: links signed before keep working, and the database keeps only its fingerprint.
 */
describe.each(TEST_DIALECTS)('the PDF-link secret on upgrade (%s)', (dialect) => {
  let database: TestDatabase;
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    await database.dispose();
  });

  it('signs with the secret the database held, and the database no longer holds it', async () => {
    database = await openTestDatabase(dialect);
    const legacy = 'an-earlier-version-generated-this-secret-0123456789';
    await createRepositories(database.database).serviceSecrets.getOrCreate('widget_pdf_links', legacy, 0);

    const defaults = testConfig();
    h = await createHarness({
      database: database.database,
      config: { widgetPdfLinks: { ...defaults.widgetPdfLinks, secret: null } },
    });
    const partner = await h.createPartner();
    const widget = await openWidget(h, partner.partnerKey);
    const encounter = `/api/widget/encounters/${widget.sessionId}`;
    const document = (
      await widgetCall(h, widget.token, 'POST', `${encounter}/documents`, { documentType: 'letter' })
    ).json<{
      id: string;
    }>();
    const link = new URL(
      (await widgetCall(h, widget.token, 'POST', `${encounter}/documents/${document.id}/pdf`)).json<{
        pdfUrl: string;
      }>().pdfUrl,
    );
    const { revision, expires, signature } = Object.fromEntries(link.searchParams);
    const signedWithLegacy = createHmac('sha256', legacy)
      .update(`pdf\n${document.id}\n${revision ?? ''}\n${expires ?? ''}`)
      .digest('base64url');
    expect(signature).toBe(signedWithLegacy);
    expect((await h.request({ method: 'GET', url: `${link.pathname}${link.search}` })).statusCode).toBe(200);
    expect(await h.repositories.serviceSecrets.get('widget_pdf_links')).toBeUndefined();
    expect(await h.repositories.serviceSecrets.get('fingerprint:widget_pdf_links')).toMatch(/^[0-9a-f]{64}$/);
  });
});
