import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { missingBrowser, recordConsole } from '@chartwright/testing/browser.js';
import { inviteMember, OWNER, setUpOwner } from '@chartwright/testing/console.js';
import { startOpenIdProvider, type OpenIdProvider } from '@chartwright/testing/openid-provider.js';
import {
  LAPTOP,
  openBrowser,
  PHONE,
  screenshot,
  startConsoleFixture,
  type ConsoleFixture,
} from './test-support/console-fixture.js';

/**
 * Single sign-on in Debian's Chromium against the real service and a real OpenID provider
 * (oidc-provider) on another loopback port: the owner switches it on from the Organisation page;
 * people sign in through the provider in browsers of their own, and the sign-in page tells those
 * it refuses why. The provider's login and consent steps complete themselves for the account the
 * test chose, as a person clicking through them would.
 */
const MEMBER = { email: 'devi@northside.example', password: 'developer passphrase 1' };
const STRANGER = 'stranger@elsewhere.example';

async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signInWithSso(page: Page, email: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
}

describe.skipIf(missingBrowser().length > 0)('single sign-on in Chromium, with a real OpenID provider', () => {
  let fixture: ConsoleFixture;
  let provider: OpenIdProvider;
  let owner: Page;
  const consoleLines: { type: string; text: string }[][] = [];

  /** A person's own browser on the sign-in page. */
  async function newPerson(): Promise<Page> {
    const { page } = await openBrowser(fixture);
    consoleLines.push(recordConsole(page));
    await page.goto(`${fixture.origin}/console`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    return page;
  }

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    provider = await startOpenIdProvider({
      redirectUri: `${fixture.origin}/api/v1/console/sso/callback`,
      accounts: {
        devi: { email: MEMBER.email, emailVerified: true },
        stranger: { email: STRANGER, emailVerified: true },
      },
    });
    const ownerSession = await setUpOwner(fixture.h, 'Northside Clinic');
    await inviteMember(fixture.h, ownerSession, { email: MEMBER.email, role: 'developer', password: MEMBER.password });
    ({ page: owner } = await openBrowser(fixture));
    consoleLines.push(recordConsole(owner));
    await owner.goto(`${fixture.origin}/console#/organisation`);
    await signInWithPassword(owner, OWNER.email, OWNER.password);
    await owner.getByRole('heading', { level: 1, name: 'Organisation' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await fixture.close();
    await provider.close();
  });

  it('the owner registers the redirect URI shown, then switches single sign-on on; the secret is never shown back', async () => {
    const summary = owner.getByRole('region', { name: 'Northside Clinic' });
    expect(await summary.textContent()).toContain('Off: members sign in with their passwords');
    const form = owner.getByRole('form', { name: 'Single sign-on settings' });
    const redirectUri = `${fixture.origin}/api/v1/console/sso/callback`;
    expect(await form.getByRole('textbox', { name: 'Redirect URI' }).inputValue()).toBe(redirectUri);
    await form.getByRole('button', { name: 'Copy the redirect URI' }).click();
    await owner.getByText('Copied.').waitFor();
    expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(redirectUri);

    // The service's verdict on a field, under that field.
    await form.getByLabel('Issuer URL').fill('http://idp.example.com');
    await form.getByLabel('Client id').fill(provider.clientId);
    await form.getByLabel('Client secret').fill(provider.clientSecret);
    await form.getByRole('button', { name: 'Switch on single sign-on' }).click();
    await expect.poll(() => form.getByLabel('Issuer URL').getAttribute('aria-invalid')).toBe('true');
    expect(await form.textContent()).toContain('must be https (http only for localhost)');

    await form.getByLabel('Issuer URL').fill(provider.issuer);
    await form.getByRole('button', { name: 'Switch on single sign-on' }).click();
    await form.getByText('Saved').waitFor();
    await expect.poll(() => summary.textContent()).toContain('On (OpenID Connect)');
    const shown = await summary.textContent();
    for (const fact of [provider.issuer, provider.clientId, redirectUri, 'Members may also sign in with a password']) {
      expect(shown).toContain(fact);
    }
    expect(await form.getByLabel('Client secret').inputValue()).toBe('');
    expect(await owner.content()).not.toContain(provider.clientSecret);
    await screenshot(owner, 'organisation');

    await owner.setViewportSize(PHONE);
    expect(await owner.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await owner.setViewportSize(LAPTOP);
  });

  it('an invited member signs in with single sign-on in a browser of their own, and sees the settings but no form', async () => {
    provider.signInAs('devi');
    const member = await newPerson();
    await signInWithSso(member, MEMBER.email);
    await member.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(await member.evaluate(() => window.location.href)).toBe(`${fixture.origin}/console#/projects`);
    expect(await member.getByRole('banner').textContent()).toContain(MEMBER.email);

    await member
      .getByRole('navigation', { name: 'Console sections' })
      .getByRole('link', { name: 'Organisation' })
      .click();
    await member.getByRole('heading', { level: 1, name: 'Organisation' }).waitFor();
    await expect.poll(() => member.getByRole('main').textContent()).toContain('On (OpenID Connect)');
    expect(await member.getByText('Only owners change how members sign in.').count()).toBe(1);
    expect(await member.getByRole('main').getByRole('button').count()).toBe(0);
  });

  it('someone the provider knows under another address ends on the sign-in page, told it is no member’s', async () => {
    const page = await newPerson();
    // Their own address names no organisation that signs in this way.
    await signInWithSso(page, STRANGER);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not available for this e-mail address');

    provider.signInAs('stranger');
    await page.getByLabel('E-mail').fill(MEMBER.email);
    await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await page.waitForURL(`${fixture.origin}/console#/sign-in?sso_error=not_a_member`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('not a member of the organisation');
    expect((await page.context().request.get(`${fixture.origin}/api/v1/console/session`)).status()).toBe(401);
  });

  it('with passwords switched off, a member’s password sign-in is refused and sent to single sign-on; the owner’s is not', async () => {
    const form = owner.getByRole('form', { name: 'Single sign-on settings' });
    expect(await form.getByLabel('Issuer URL').inputValue()).toBe(provider.issuer);
    await form.getByLabel('Members may also sign in with a password').uncheck();
    await form.getByLabel('Client secret').fill(provider.clientSecret);
    await form.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect
      .poll(() => owner.getByRole('region', { name: 'Northside Clinic' }).textContent())
      .toContain('Owners only; members sign in with single sign-on');

    provider.signInAs('devi');
    const member = await newPerson();
    await signInWithPassword(member, MEMBER.email, MEMBER.password);
    const refusal = member.getByRole('alert');
    await expect.poll(() => refusal.textContent()).toContain('single sign-on only');
    expect(await refusal.textContent()).toContain('Choose “Sign in with single sign-on”');
    await member.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    expect(await member.getByLabel('E-mail').inputValue()).toBe(MEMBER.email);
    await member.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await member.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();

    const again = await newPerson();
    await signInWithPassword(again, OWNER.email, OWNER.password);
    await again.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  });

  it('the owner switches single sign-on off after confirmation, and members start it in vain', async () => {
    await owner.getByRole('button', { name: 'Switch off single sign-on' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Switch off single sign-on?' });
    await dialog.getByRole('button', { name: 'Switch off single sign-on' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => owner.getByRole('region', { name: 'Northside Clinic' }).textContent())
      .toContain('Off: members sign in with their passwords');
    expect(await owner.getByRole('button', { name: 'Switch on single sign-on' }).count()).toBe(1);

    const member = await newPerson();
    await signInWithSso(member, MEMBER.email);
    await expect.poll(() => member.getByRole('alert').textContent()).toContain('not available');
    await member.getByRole('button', { name: 'Sign in with a password' }).click();
    await signInWithPassword(member, MEMBER.email, MEMBER.password);
    await member.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  });

  it('broke no rule of the console’s Content Security Policy on the way', () => {
    const violations = consoleLines.flat().filter(({ text }) => /Content Security Policy/i.test(text));
    expect(violations).toEqual([]);
  });
});
