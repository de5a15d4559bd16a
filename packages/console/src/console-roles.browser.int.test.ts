import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { missingBrowser } from '@chartwright/testing/browser.js';
import { OWNER, setUpOwner } from '@chartwright/testing/console.js';
import { openBrowser, screenshot, startConsoleFixture, type ConsoleFixture } from './test-support/console-fixture.js';

/**
 * Members and roles in Debian's Chromium: the owner invites people with one-time links shown once;
 * each opens theirs in a browser of their own. A developer sees production keys but gets no way to
 * change them, an auditor reads the audit log and gets no way to change anything — and the API
 * answers both with 403 role_forbidden when asked anyway.
 */
const DEVELOPER = { name: 'Devi Developer', email: 'devi@northside.example', password: 'developer passphrase 1' };
const AUDITOR = { name: 'Audra Auditor', email: 'audra@northside.example', password: 'auditor passphrase 22' };

/** A change sent from the page as the console sends it: the session cookie and its CSRF token. */
function changeFromPage(
  page: Page,
  method: string,
  path: string,
  body: unknown,
): Promise<{ status: number; code: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = (await (await fetch('/api/v1/console/session')).json()) as { csrfToken: string };
      const response = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify(body),
      });
      const answer = (await response.json().catch(() => null)) as { error?: { code?: unknown } } | null;
      return { status: response.status, code: answer?.error?.code };
    },
    { method, path, body },
  );
}

describe.skipIf(missingBrowser().length > 0)('console members and roles in Chromium', () => {
  let fixture: ConsoleFixture;
  let owner: Page;
  const links = new Map<string, string>();
  /** The auditor's open console, which removing them ends. */
  const auditors: Page[] = [];

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    await setUpOwner(fixture.h, 'Northside Clinic');
    ({ page: owner } = await openBrowser(fixture));
    await owner.goto(`${fixture.origin}/console#/members`);
    await owner.getByLabel('E-mail').fill(OWNER.email);
    await owner.getByLabel('Password').fill(OWNER.password);
    await owner.getByRole('button', { name: 'Sign in', exact: true }).click();
    await owner.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await fixture.close();
  });

  async function invite(email: string, role: RegExp): Promise<string> {
    await owner.getByRole('button', { name: 'Invite member' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Invite a member' });
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByLabel(role).check();
    await dialog.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await owner
      .getByRole('dialog')
      .getByRole('textbox', { name: /Invitation link/ })
      .inputValue();
    await owner.getByRole('button', { name: 'Done' }).click();
    await owner.getByRole('dialog').waitFor({ state: 'detached' });
    return link;
  }

  /** A new person's browser on their invitation link, until they have joined. */
  async function join(link: string, person: typeof DEVELOPER, role: string): Promise<Page> {
    const { page } = await openBrowser(fixture);
    const url = new URL(link);
    expect(url.pathname).toBe('/console');
    await page.goto(fixture.origin + url.pathname + url.hash);
    await page.getByRole('heading', { level: 1, name: 'Join the organisation' }).waitFor();
    const facts = await page.locator('dl').textContent();
    expect(facts).toContain('Northside Clinic');
    expect(facts).toContain(person.email);
    expect(facts).toContain(role);
    await page.getByLabel('Your name').fill(person.name);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Join and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    return page;
  }

  it('invites with one-time links shown once, listed as open invitations until accepted', async () => {
    links.set('developer', await invite(DEVELOPER.email, /^Developer/));
    links.set('auditor', await invite(AUDITOR.email, /^Auditor/));
    for (const link of links.values()) expect(link).toMatch(/\/console#\/invitation\/[0-9A-Za-z]+$/);
    const open = owner.getByRole('table', { name: 'Open invitations' });
    expect(await open.textContent()).toContain(DEVELOPER.email);
    expect(await open.textContent()).toContain(AUDITOR.email);
  });

  it('a developer sees production keys but is offered no way to change them, and the API refuses with 403', async () => {
    const developer = await join(links.get('developer') ?? '', DEVELOPER, 'Developer');
    await developer
      .getByRole('row')
      .filter({ hasText: 'Harness clinic' })
      .getByRole('link', { name: 'API keys' })
      .click();
    const live = developer.getByRole('region', { name: 'Production (live)' });
    await live.getByRole('row').nth(1).waitFor();
    expect(await live.textContent()).toMatch(/sk_live_…/);
    expect(await live.textContent()).toContain(
      'Your role lets you see these keys but not create, rotate or revoke them.',
    );
    expect(await live.getByRole('button').count()).toBe(0);
    expect(
      await developer
        .getByRole('region', { name: 'Sandbox (test)' })
        .getByRole('button', { name: /^Rotate/ })
        .count(),
    ).toBe(1);

    await developer.getByRole('button', { name: 'Create key' }).click();
    const dialog = developer.getByRole('dialog', { name: 'Create an API key' });
    expect(await dialog.getByRole('radio').count()).toBe(1);
    expect(await dialog.getByRole('radio', { name: 'Sandbox (test)' }).isChecked()).toBe(true);
    await developer.keyboard.press('Escape');

    const keys = `/api/v1/projects/${fixture.h.project.id}/keys`;
    expect(await changeFromPage(developer, 'POST', keys, { environment: 'live' })).toEqual({
      status: 403,
      code: 'role_forbidden',
    });
    const liveKey = `${keys}/${fixture.h.project.liveKeyId}`;
    expect(await changeFromPage(developer, 'POST', `${liveKey}/rotate`, {})).toEqual({
      status: 403,
      code: 'role_forbidden',
    });
    expect((await changeFromPage(developer, 'POST', keys, { environment: 'test', name: 'devi' })).status).toBe(201);
  });

  it('an auditor reads the audit log and is offered nothing that changes anything; the API refuses with 403', async () => {
    const auditor = await join(links.get('auditor') ?? '', AUDITOR, 'Auditor');
    expect(await auditor.getByRole('button', { name: 'Create project' }).count()).toBe(0);
    const nav = auditor.getByRole('navigation', { name: 'Console sections' });
    expect(await nav.getByRole('link', { name: 'Admin tokens' }).count()).toBe(0);

    await auditor.goto(`${fixture.origin}/console#/projects/${fixture.h.project.id}/keys`);
    await auditor.getByRole('region', { name: 'Production (live)' }).getByRole('row').nth(1).waitFor();
    expect(await auditor.getByRole('main').getByRole('button').count()).toBe(0);
    await auditor.getByRole('link', { name: 'Partners' }).click();
    await auditor.getByRole('heading', { level: 1, name: 'Partners' }).waitFor();
    expect(await auditor.getByRole('button', { name: 'Register partner' }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Members' }).click();
    await auditor.getByRole('table', { name: 'Members' }).waitFor();
    expect(await auditor.getByRole('main').getByRole('button').count()).toBe(0);

    await nav.getByRole('link', { name: 'Audit log' }).click();
    const log = auditor.getByRole('table', { name: 'Audit records, newest first' });
    await log.waitFor();
    expect(await log.textContent()).toMatch(/Console member.*Sign in.*console_session/);

    expect(await changeFromPage(auditor, 'POST', '/api/v1/projects', { name: 'Mine' })).toEqual({
      status: 403,
      code: 'role_forbidden',
    });
    const keys = `/api/v1/projects/${fixture.h.project.id}/keys`;
    expect(await changeFromPage(auditor, 'POST', keys, { environment: 'test' })).toEqual({
      status: 403,
      code: 'role_forbidden',
    });
    auditors.push(auditor);
  });

  it('the owner changes a role and removes a member, whose open console ends at once', async () => {
    await owner.reload();
    const members = owner.getByRole('table', { name: 'Members' });
    await members.getByRole('button', { name: `Change role of ${DEVELOPER.name}` }).click();
    await owner
      .getByRole('dialog')
      .getByLabel(/^Admin/)
      .check();
    await owner.getByRole('dialog').getByRole('button', { name: 'Save role' }).click();
    await expect
      .poll(() => members.getByRole('row').filter({ hasText: DEVELOPER.email }).textContent())
      .toContain('Admin');

    await members.getByRole('button', { name: `Remove ${AUDITOR.name}` }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await expect.poll(() => members.textContent()).not.toContain(AUDITOR.email);

    const [auditor] = auditors;
    await auditor
      ?.getByRole('navigation', { name: 'Console sections' })
      .getByRole('link', { name: 'Projects' })
      .click();
    await auditor?.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await auditor?.getByText('Your session has ended.').count()).toBe(1);

    await invite('nurse.manager@northside.example', /^Admin/);
    await screenshot(owner, 'members');
  });

  it('the owner makes an admin token for automation, shown once, which acts with its role until revoked', async () => {
    await owner
      .getByRole('navigation', { name: 'Console sections' })
      .getByRole('link', { name: 'Admin tokens' })
      .click();
    await owner.getByRole('button', { name: 'Create admin token' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Create an admin token' });
    await dialog.getByLabel('Name').fill('deploy pipeline');
    await dialog.getByLabel(/^Developer/).check();
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const token = await owner
      .getByRole('dialog')
      .getByRole('textbox', { name: /Admin token/ })
      .inputValue();
    expect(token).toMatch(/^cw_admin_/);
    await owner.getByRole('button', { name: 'Done' }).click();

    const asToken = (method: string, path: string, body?: unknown) =>
      fetch(fixture.origin + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).then(async (response) => ({
        status: response.status,
        code: ((await response.json()) as { error?: { code?: string } }).error?.code,
      }));
    const keys = `/api/v1/projects/${fixture.h.project.id}/keys`;
    expect((await asToken('GET', '/api/v1/projects')).status).toBe(200);
    expect(await asToken('POST', keys, { environment: 'live' })).toEqual({ status: 403, code: 'role_forbidden' });

    await owner.getByRole('button', { name: 'Revoke deploy pipeline' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await expect
      .poll(() => owner.getByRole('row').filter({ hasText: 'deploy pipeline' }).textContent())
      .toContain('Revoked');
    expect((await asToken('GET', '/api/v1/projects')).status).toBe(401);
  });

  it('signs out everywhere', async () => {
    await owner.getByRole('button', { name: 'Sign out everywhere' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect((await owner.context().request.get(`${fixture.origin}/api/v1/console/session`)).status()).toBe(401);
  });
});
