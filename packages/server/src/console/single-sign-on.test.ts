import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { AuditEventPage, Organisation } from '@chartwright/protocol';
import { inviteMember, OWNER, sessionCookie, setUpOwner, type ConsoleBrowser } from '@chartwright/testing/console.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { followToRedirect, startOpenIdProvider, type OpenIdProvider } from '@chartwright/testing/openid-provider.js';

const REDIRECT_URI = 'http://api.test/api/v1/console/sso/callback';

/**
 * Single sign-on against a real OpenID provider (oidc-provider) on a loopback port: the console's
 * settings, the authorization code flow with PKCE, and what the console does with its answers.
 */
describe('single sign-on with an OpenID provider', () => {
  let h: Harness;
  let provider: OpenIdProvider;
  let owner: ConsoleBrowser;
  beforeEach(async () => {
    h = await createHarness();
    provider = await startOpenIdProvider({
      redirectUri: REDIRECT_URI,
      accounts: {
        'dev-1': { email: 'Dev@Clinic.Example', emailVerified: true },
        stranger: { email: 'stranger@elsewhere.example', emailVerified: true },
        unverified: { email: 'dev@clinic.example', emailVerified: false },
      },
    });
    owner = await setUpOwner(h);
    await inviteMember(h, owner, { email: 'dev@clinic.example', role: 'developer' });
  });
  afterEach(async () => {
    await h.close();
    await provider.close();
  });

  const switchOn = (passwordSignIn: boolean, clientSecret = provider.clientSecret) =>
    owner.request({
      method: 'PUT',
      url: '/api/v1/organisation/sso',
      payload: { issuer: provider.issuer, clientId: provider.clientId, clientSecret, passwordSignIn },
    });

  /** Signing in as a person would: the console's start, the provider's pages, the callback. */
  async function signInWithSso(email: string) {
    const started = await h.request({ method: 'POST', url: '/api/v1/console/sso/start', payload: { email } });
    expect(started.statusCode).toBe(200);
    const { authorizationUrl } = started.json<{ authorizationUrl: string }>();
    const query = await followToRedirect(authorizationUrl, REDIRECT_URI);
    return h.request({ method: 'GET', url: `/api/v1/console/sso/callback?${query}` });
  }

  it('signs an invited member in through the provider, with PKCE, into a console session', async () => {
    const configured = await switchOn(true);
    expect(configured.json<Organisation>().sso).toMatchObject({
      issuer: provider.issuer,
      clientId: provider.clientId,
      redirectUri: REDIRECT_URI,
      passwordSignIn: true,
    });
    expect(configured.body).not.toContain(provider.clientSecret);
    const stored = await h.repositories.organisationSso.get(owner.session.organisation.id);
    expect(stored?.client_secret_sealed).not.toContain(provider.clientSecret);

    const started = await h.request({
      method: 'POST',
      url: '/api/v1/console/sso/start',
      payload: { email: 'dev@clinic.example' },
    });
    const authorization = new URL(started.json<{ authorizationUrl: string }>().authorizationUrl);
    expect(authorization.origin).toBe(provider.issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: provider.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });

    const callbackUrl = `/api/v1/console/sso/callback?${await followToRedirect(authorization.href, REDIRECT_URI)}`;
    const callback = await h.request({ method: 'GET', url: callbackUrl });
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe('/console#/projects');
    const cookie = sessionCookie(callback);
    const session = await h.app.inject({ method: 'GET', url: '/api/v1/console/session', headers: { cookie } });
    expect(session.json()).toMatchObject({ member: { email: 'dev@clinic.example', role: 'developer' } });

    // The provider's answer is used once: replayed, it signs no one in.
    const replay = await h.request({ method: 'GET', url: callbackUrl });
    expect(replay.headers.location).toBe('/console#/sign-in?sso_error=expired');
  });

  it('sends the browser back to the sign-in page, recorded, when the provider cannot vouch for a member', async () => {
    await switchOn(true);
    provider.signInAs('stranger');
    expect((await signInWithSso('dev@clinic.example')).headers.location).toBe(
      '/console#/sign-in?sso_error=not_a_member',
    );
    provider.signInAs('unverified');
    expect((await signInWithSso('dev@clinic.example')).headers.location).toBe(
      '/console#/sign-in?sso_error=email_not_verified',
    );
    provider.signInAs(null);
    expect((await signInWithSso('dev@clinic.example')).headers.location).toBe('/console#/sign-in?sso_error=denied');
    const forged = await h.request({ method: 'GET', url: '/api/v1/console/sso/callback?code=abc&state=not-ours' });
    expect(forged.headers.location).toBe('/console#/sign-in?sso_error=expired');
    expect(forged.headers['set-cookie']).toBeUndefined();

    // Newest first; the forged answer names no sign-in of this organisation, so it is not in its log.
    const page = (
      await owner.request({ method: 'GET', url: '/api/v1/audit-events?action=sign_in' })
    ).json<AuditEventPage>();
    expect(page.data.filter((event) => event.outcome === 'failure').map((event) => event.errorCode)).toEqual([
      'sso_denied',
      'sso_email_not_verified',
      'sso_not_a_member',
    ]);
  });

  it('refuses password sign-in to members once the organisation signs in with SSO only, but not to owners', async () => {
    await switchOn(false);
    const member = await h.request({
      method: 'POST',
      url: '/api/v1/console/sessions',
      payload: { email: 'dev@clinic.example', password: 'a long enough password' },
    });
    expect(member.json()).toMatchObject({ error: { code: 'sso_required' } });
    const wrong = await h.request({
      method: 'POST',
      url: '/api/v1/console/sessions',
      payload: { email: 'dev@clinic.example', password: 'not the password' },
    });
    expect(wrong.json()).toMatchObject({ error: { code: 'invalid_credentials' } });
    const ownerSignIn = await h.request({
      method: 'POST',
      url: '/api/v1/console/sessions',
      payload: { email: OWNER.email, password: OWNER.password },
    });
    expect(ownerSignIn.statusCode).toBe(201);
    expect((await signInWithSso('dev@clinic.example')).headers.location).toBe('/console#/projects');

    const off = await owner.request({ method: 'DELETE', url: '/api/v1/organisation/sso' });
    expect(off.json<Organisation>().sso).toBeNull();
    const unavailable = await h.request({
      method: 'POST',
      url: '/api/v1/console/sso/start',
      payload: { email: 'dev@clinic.example' },
    });
    expect(unavailable.json()).toMatchObject({ error: { code: 'sso_not_available' } });
  });

  it('limits single sign-on starts per client address, answered or not', async () => {
    await switchOn(true);
    const start = (email: string) =>
      h.request({ method: 'POST', url: '/api/v1/console/sso/start', payload: { email } });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await start('dev@clinic.example')).statusCode).toBe(200);
      expect((await start(`nobody${attempt}@elsewhere.example`)).statusCode).toBe(404);
    }
    const refused = await start('dev@clinic.example');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('checks the provider before switching on, and lets only owners change it', async () => {
    const unreachable = await owner.request({
      method: 'PUT',
      url: '/api/v1/organisation/sso',
      payload: { issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', passwordSignIn: true },
    });
    expect(unreachable.json()).toMatchObject({ error: { code: 'invalid_body', details: [{ path: 'issuer' }] } });
    const plainHttp = await owner.request({
      method: 'PUT',
      url: '/api/v1/organisation/sso',
      payload: { issuer: 'http://idp.example.com', clientId: 'x', clientSecret: 'y', passwordSignIn: true },
    });
    expect(plainHttp.json()).toMatchObject({
      error: { details: [{ path: 'issuer', message: 'must be https (http only for localhost)' }] },
    });
    const admin = await inviteMember(h, owner, { email: 'admin@clinic.example', role: 'admin' });
    const byAdmin = await admin.request({
      method: 'PUT',
      url: '/api/v1/organisation/sso',
      payload: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        passwordSignIn: true,
      },
    });
    expect(byAdmin.json()).toMatchObject({ error: { code: 'role_forbidden' } });
  });
});
