import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { missingBrowser, recordConsole } from '@chartwright/testing/browser.js';
import {
  LAPTOP,
  openBrowser,
  PHONE,
  screenshot,
  startConsoleFixture,
  templatesStatus,
  type ConsoleFixture,
} from './test-support/console-fixture.js';

/**
 * The console in Debian's Chromium against the real service, driven as its owner would: the
 * first-start setup link, a project, a live key read once from its dialog and used, rotated with a
 * grace period on the service's clock, revoked; a partner whose key mints a widget token; usage and
 * the audit log; the keyboard, a laptop and a phone. The screenshots in docs/images/console/ come
 * from here.
 */
const OWNER = { name: 'Olive Owner', email: 'olive@northside.example', password: 'correct horse battery staple' };

/** The text field of the secret a dialog shows once, by the label it is given. */
const secretField = (page: Page, label: RegExp) => page.getByRole('dialog').getByRole('textbox', { name: label });

/** A table row holding `text` (a key's last four characters, a partner's name). */
const rowWith = (scope: Page | Locator, text: string) => scope.getByRole('row').filter({ hasText: text });

const lastFour = (secret: string) => secret.slice(-4);

async function signIn(page: Page): Promise<void> {
  await page.getByLabel('E-mail').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** No horizontal scrolling: the page fits its viewport's width. */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe.skipIf(missingBrowser().length > 0)('the console in Chromium, as its owner uses it', () => {
  let fixture: ConsoleFixture;
  let context: BrowserContext;
  let page: Page;
  let keysUrl: string;
  let liveKey: string;
  let consoleLines: { type: string; text: string }[];

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    ({ context, page } = await openBrowser(fixture, LAPTOP));
    consoleLines = recordConsole(page);
  }, 120_000);
  afterAll(async () => {
    await fixture.close();
  });

  it('first start: the setup link, the owner’s password (12 characters at least), and the owner is signed in', async () => {
    const link = await fixture.h.consoleSetupLink();
    expect(link).toMatch(/^\/console#\/setup\//);
    await page.goto(fixture.origin + link);
    await page.getByRole('heading', { level: 1, name: 'Set up the console' }).waitFor();
    await page.getByLabel('Organisation name').fill('Northside Clinic');
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByLabel('Password').fill('too short');
    await page.getByRole('button', { name: 'Create the owner and sign in' }).click();
    // The service's own verdict, under the field it is about.
    await expect.poll(() => page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('must be at least 12 characters').isVisible()).toBe(true);

    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create the owner and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    // The token left the address bar (and the history entry) once used.
    expect(await page.evaluate(() => window.location.hash)).toBe('#/projects');
    expect(await page.getByRole('banner').textContent()).toContain('Northside Clinic');
    expect(await page.getByRole('banner').textContent()).toContain(OWNER.email);

    // A setup link works once.
    const stranger = await openBrowser(fixture);
    await stranger.page.goto(fixture.origin + link);
    await stranger.page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor();
    await stranger.context.close();
  });

  it('creates a project and a live key, read once from its dialog and copied, that works on GET /api/v1/templates', async () => {
    await page.getByLabel('Project name').fill('Northside Scribe');
    await page.getByRole('button', { name: 'Create project' }).click();
    await rowWith(page, 'Northside Scribe').getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    keysUrl = page.url();

    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Production (live)').check();
    await dialog.getByLabel('Name').fill('backend');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = secretField(page, /API key/);
    await secret.waitFor();
    liveKey = await secret.inputValue();
    expect(liveKey).toMatch(/^sk_live_[0-9A-Za-z]+$/);
    expect(await page.getByRole('dialog').textContent()).toMatch(
      /shown only this once.*Never put sk_ keys in a browser/,
    );
    await page.getByRole('button', { name: /^Copy the/ }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(liveKey);
    await screenshot(page, 'key-created');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    expect(await templatesStatus(fixture.origin, liveKey)).toBe(200);
    const live = page.getByRole('region', { name: 'Production (live)' });
    const row = rowWith(live, lastFour(liveKey));
    await row.waitFor();
    expect(await row.textContent()).toMatch(/backend.*live.*sk_live_….*Olive Owner|backend.*live.*sk_live_….*olive@/);
    expect(await row.getByRole('cell').last().textContent()).toMatch(/Rotate.*Revoke/);
    // The page never shows the key again: only its hint.
    await page.reload();
    await rowWith(live, lastFour(liveKey)).waitFor();
    expect(await page.content()).not.toContain(liveKey);
    await screenshot(page, 'keys');
  });

  let rotatedKey: string;

  it('rotates with a grace period: old and new keys both work, then only the new one', async () => {
    const live = page.getByRole('region', { name: 'Production (live)' });
    await rowWith(live, lastFour(liveKey)).getByRole('button', { name: 'Rotate backend' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate backend' });
    // One day unless chosen otherwise; here one hour.
    expect(await dialog.getByLabel('Old one keeps working for').inputValue()).toBe('86400');
    await dialog.getByLabel('Old one keeps working for').selectOption({ label: '1 hour' });
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    rotatedKey = await secretField(page, /New .* API key/).inputValue();
    expect(rotatedKey).toMatch(/^sk_live_/);
    expect(rotatedKey).not.toBe(liveKey);
    const end = new Date(fixture.h.clock.now() + 3_600_000);
    const shown = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    expect(await page.getByRole('dialog').textContent()).toContain(
      `The old key sk_live_…${lastFour(liveKey)} keeps working until ${shown.format(end)}.`,
    );
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await rowWith(live, lastFour(liveKey)).textContent()).toContain(`Rotating until ${shown.format(end)}`);

    expect(await templatesStatus(fixture.origin, liveKey)).toBe(200);
    expect(await templatesStatus(fixture.origin, rotatedKey)).toBe(200);
    fixture.h.clock.advance(3_600_000 + 1000);
    expect(await templatesStatus(fixture.origin, liveKey)).toBe(401);
    expect(await templatesStatus(fixture.origin, rotatedKey)).toBe(200);
  });

  it('after an hour the console session has ended: signing in again returns to the keys, where the old key has expired', async () => {
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await signIn(page);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(page.url()).toBe(keysUrl);
    const live = page.getByRole('region', { name: 'Production (live)' });
    expect(await rowWith(live, lastFour(liveKey)).textContent()).toContain('Expired');
    expect(await rowWith(live, lastFour(liveKey)).getByRole('button').count()).toBe(0);
  });

  it('revokes a key after confirmation (Cancel first and focused), and the API refuses it at once', async () => {
    const live = page.getByRole('region', { name: 'Production (live)' });
    await rowWith(live, lastFour(rotatedKey)).getByRole('button', { name: 'Revoke backend' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke backend?' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await templatesStatus(fixture.origin, rotatedKey)).toBe(200);

    await rowWith(live, lastFour(rotatedKey)).getByRole('button', { name: 'Revoke backend' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => rowWith(live, lastFour(rotatedKey)).textContent()).toContain('Revoked');
    expect(await templatesStatus(fixture.origin, rotatedKey)).toBe(401);
  });

  it('registers a partner (the service judging each origin), whose key shown once mints a widget token', async () => {
    await page.getByRole('link', { name: 'Partners' }).click();
    await page.getByRole('heading', { level: 1, name: 'Partners' }).waitFor();
    await page.getByRole('button', { name: 'Register partner' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register an EMR partner' });
    await dialog.getByLabel('Name').fill('Acme EMR');
    await dialog.getByLabel('Sandbox (test)').check();
    await dialog.getByLabel('Allowed origins').fill('https://emr.acme.example\nhttps://emr.acme.example/charts');
    await dialog.getByRole('button', { name: 'Register partner' }).click();
    await expect.poll(() => dialog.getByLabel('Allowed origins').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.textContent()).toMatch(/line 2: /);

    await dialog.getByLabel('Allowed origins').fill('https://emr.acme.example\nhttps://charts.acme.example:8443');
    await dialog.getByRole('button', { name: 'Register partner' }).click();
    const partnerKey = await secretField(page, /X-Partner-Key/).inputValue();
    await page.getByRole('button', { name: 'Done' }).click();

    const minted = await fetch(`${fixture.origin}/api/widget/token`, {
      method: 'POST',
      headers: { 'x-partner-key': partnerKey, 'content-type': 'application/json' },
      body: JSON.stringify({ userEmail: 'dr.rivera@clinic.example', emrUserId: 'u-1042', emrSessionId: 'visit-1' }),
    });
    expect(minted.status).toBe(200);
    expect(((await minted.json()) as { data: { token: string } }).data.token).toMatch(/^eyJ/);

    const row = rowWith(page, 'Acme EMR');
    expect(await row.textContent()).toContain('https://charts.acme.example:8443');
    const snippet = await page.getByRole('region', { name: 'Minting widget tokens' }).textContent();
    expect(snippet).toContain(`fetch('${fixture.origin}/api/widget/token'`);
    expect(snippet).toContain("'X-Partner-Key': process.env.CHARTWRIGHT_PARTNER_KEY");
    expect(snippet).not.toContain(partnerKey);
    partnerKeys.push(partnerKey);
  });

  const partnerKeys: string[] = [];
  const mint = (partnerKey: string) =>
    fetch(`${fixture.origin}/api/widget/token`, {
      method: 'POST',
      headers: { 'x-partner-key': partnerKey, 'content-type': 'application/json' },
      body: JSON.stringify({ userEmail: 'dr.rivera@clinic.example', emrUserId: 'u-1042' }),
    }).then((response) => response.status);

  it('rotates the partner’s secret with a grace period and replaces its origins', async () => {
    const row = rowWith(page, 'Acme EMR');
    await row.getByRole('button', { name: 'Rotate secret Acme EMR' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    const replacement = await secretField(page, /X-Partner-Key/).inputValue();
    expect(await page.getByRole('dialog').textContent()).toContain('The old key keeps working until');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await mint(partnerKeys[0] ?? '')).toBe(200);
    expect(await mint(replacement)).toBe(200);
    await expect.poll(() => row.textContent()).toContain('Old key works until');

    await row.getByRole('button', { name: 'Edit origins Acme EMR' }).click();
    const dialog = page.getByRole('dialog', { name: 'Origins of Acme EMR' });
    expect(await dialog.getByLabel('Allowed origins').inputValue()).toBe(
      'https://emr.acme.example\nhttps://charts.acme.example:8443',
    );
    await dialog.getByLabel('Allowed origins').fill('https://emr.acme.example');
    await dialog.getByRole('button', { name: 'Save origins' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).not.toContain('charts.acme.example');
    await screenshot(page, 'partners');
  });

  it('shows usage per day in a chart and a table, and exports it as CSV', async () => {
    // The service adds its counts to the database once a minute; a week of figures stands in for them.
    const projectId = decodeURIComponent(/projects\/([^/]+)\/keys/.exec(keysUrl)?.[1] ?? '');
    const day = (back: number) => new Date(fixture.h.clock.now() - back * 86_400_000).toISOString().slice(0, 10);
    await fixture.h.repositories.usageCounters.add(
      [6, 5, 4, 3, 2, 1, 0].flatMap((back) => [
        {
          project_id: projectId,
          environment: 'live' as const,
          day: day(back),
          metric: 'restRequests',
          count: 40 + 13 * ((back * 7) % 5),
        },
        {
          project_id: projectId,
          environment: 'live' as const,
          day: day(back),
          metric: 'notesGenerated',
          count: 3 + back,
        },
        {
          project_id: projectId,
          environment: 'test' as const,
          day: day(back),
          metric: 'restRequests',
          count: 10 + back,
        },
      ]),
    );
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    const table = page.getByRole('table', { name: 'Usage per project, environment and UTC day' });
    await table.waitFor();
    expect(await page.getByRole('img', { name: /REST requests per day/ }).count()).toBe(1);
    expect(await table.textContent()).toContain('Northside Scribe');
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toMatch(/^\/api\/v1\/usage\/export/);
    const csv = await context.request.get(fixture.origin + (href ?? ''));
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
    await screenshot(page, 'usage');
  });

  it('shows the audit log newest first, filtered by action, and exports it as CSV', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const table = page.getByRole('table', { name: 'Audit records, newest first' });
    await table.waitFor();
    expect(await table.textContent()).toMatch(/Revoke.*Rotate/);
    await page.getByLabel('Action').selectOption({ label: 'Rotate' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(async () => (await table.locator('tbody tr td:nth-child(3)').allTextContents()).join(','))
      .toMatch(/^Rotate(,Rotate)*$/);
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toBe('/api/v1/audit-events/export?action=rotate');
    expect((await context.request.get(fixture.origin + (href ?? ''))).status()).toBe(200);
    await page.getByLabel('Action').selectOption({ label: 'Any' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => table.textContent()).toMatch(/Revoke/);
    await screenshot(page, 'audit-log');
  });

  it('pages back through a long audit log, a hundred records at a time', async () => {
    // Each read of the audit log is itself recorded: enough reads make more than a page.
    for (let read = 0; read < 100; read += 1) {
      expect((await context.request.get(`${fixture.origin}/api/v1/audit-events?limit=1`)).status()).toBe(200);
    }
    await page.reload();
    const rows = page.getByRole('table', { name: 'Audit records, newest first' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(100);
    await page.getByRole('button', { name: 'Older records' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(100);
    // The oldest record, the owner's first sign-in, is on the last page.
    expect(await rows.last().textContent()).toMatch(/Sign in.*console_session/);
    expect(await page.getByRole('button', { name: 'Older records' }).count()).toBe(0);
  });

  it('works the create-key dialog from the keyboard alone, and gives focus back to the button that opened it', async () => {
    await page.goto(keysUrl);
    const create = page.getByRole('button', { name: 'Create key' });
    await create.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.waitFor();
    // Escape closes it, focus back on the button.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create key');

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    // Focus starts on the environment chosen (the sandbox); the arrow keys move between the two.
    const focusedValue = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value);
    expect(await focusedValue()).toBe('test');
    await page.keyboard.press('ArrowRight');
    expect(await dialog.getByLabel('Production (live)').isChecked()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    expect(await dialog.getByLabel('Sandbox (test)').isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.type('ci job');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Key created: ci job' }).waitFor();
    // The secret has focus (its warning read with it); Tab reaches Copy, then Done.
    expect(await focusedValue()).toMatch(/^sk_test_/);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Copied.').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Done');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create key');
    expect(await page.getByRole('region', { name: 'Sandbox (test)' }).textContent()).toContain('ci job');
  });

  it('broke no rule of its Content Security Policy on the way', () => {
    const violations = consoleLines.filter(({ text }) => /Content Security Policy/i.test(text));
    expect(violations).toEqual([]);
  });

  it('fits a 1024 px laptop and a 375 px phone', async () => {
    for (const path of [keysUrl, `${fixture.origin}/console#/audit`, `${fixture.origin}/console#/usage`]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await fitsWidth(page), path).toBe(true);
    }
    const phone = await openBrowser(fixture, PHONE);
    await phone.page.goto(keysUrl);
    await signIn(phone.page);
    await phone.page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await phone.page.getByRole('region', { name: 'Production (live)' }).getByRole('row').nth(1).waitFor();
    expect(await fitsWidth(phone.page)).toBe(true);
    for (const section of ['Projects', 'Usage', 'Audit log', 'Members', 'Organisation', 'Admin tokens']) {
      const nav = phone.page.getByRole('navigation', { name: 'Console sections' });
      expect(await nav.getByRole('link', { name: section }).isVisible(), section).toBe(true);
    }
    await screenshot(phone.page, 'keys-phone');
    await phone.page.getByRole('button', { name: 'Create key' }).click();
    const box = await phone.page.getByRole('dialog').boundingBox();
    expect(box?.width).toBeLessThanOrEqual(PHONE.width);
    expect(await fitsWidth(phone.page)).toBe(true);
    await phone.context.close();
  });
});
