import { afterEach, describe, expect, it } from 'vitest';

import { CSRF_HEADER, type ConsoleSession } from '@chartwright/protocol';
import { inviteMember, linkToken, OWNER, sessionCookie, setUpOwner, signIn } from '@chartwright/testing/console.js';
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

describe.each(TEST_DIALECTS)('console sign-in on %s', (dialect) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('sets up the owner once with the one-hour setup link, and never accepts the link again', async () => {
    h = await createHarness({ dialect });
    const link = await h.consoleSetupLink();
    expect(link).toMatch(/^\/console#\/setup\/[0-9A-Za-z]{43}$/);
    const inspected = await h.request({
      method: 'POST',
      url: '/api/v1/console/links/inspect',
      payload: { token: linkToken(link) },
    });
    expect(inspected.json()).toMatchObject({ kind: 'setup', role: 'owner', email: null });

    const setup = await h.request({
      method: 'POST',
      url: '/api/v1/console/setup',
      payload: { token: linkToken(link), organisationName: 'Riverside Clinic', ...OWNER },
    });
    expect(setup.statusCode).toBe(201);
    expect(setup.json<ConsoleSession>()).toMatchObject({
      member: { email: OWNER.email, role: 'owner' },
      organisation: { name: 'Riverside Clinic' },
    });
    const cookie = String(setup.headers['set-cookie']);
    expect(cookie).toMatch(/^cw_console=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);

    const again = await h.request({
      method: 'POST',
      url: '/api/v1/console/setup',
      payload: { token: linkToken(link), organisationName: 'Taken over', ...OWNER, email: 'attacker@example.com' },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: { code: 'console_link_invalid' } });

    const expiring = await h.consoleSetupLink();
    h.clock.advance(3_600_000);
    const late = await h.request({
      method: 'POST',
      url: '/api/v1/console/links/inspect',
      payload: { token: linkToken(expiring) },
    });
    expect(late.json()).toMatchObject({ error: { code: 'console_link_invalid' } });
  });

  it('refuses passwords shorter than 12 characters, naming the field', async () => {
    h = await createHarness({ dialect });
    const response = await h.request({
      method: 'POST',
      url: '/api/v1/console/setup',
      payload: { token: linkToken(await h.consoleSetupLink()), organisationName: 'Org', ...OWNER, password: 'short' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'invalid_body', details: [{ path: 'password', message: 'must be at least 12 characters' }] },
    });
  });

  it('refuses a cross-site form post and any change without the session’s CSRF token', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const [project] = (await owner.request({ method: 'GET', url: '/api/v1/projects' })).json<{ id: string }[]>();
    // What another site's auto-submitting form makes the browser send: the cookie, no token, a form body.
    const forged = await h.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${project?.id ?? ''}/keys`,
      headers: {
        cookie: owner.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
      },
      payload: 'environment=live&name=stolen',
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ error: { code: 'csrf_token_invalid' } });
    const wrongToken = await owner.request({
      method: 'POST',
      url: `/api/v1/projects/${project?.id ?? ''}/keys`,
      headers: { [CSRF_HEADER]: 'x'.repeat(43) },
      payload: { environment: 'live' },
    });
    expect(wrongToken.json()).toMatchObject({ error: { code: 'csrf_token_invalid' } });
    const keys = await owner.request({ method: 'GET', url: `/api/v1/projects/${project?.id ?? ''}/keys` });
    expect(keys.json<{ name: string }[]>().map((key) => key.name)).not.toContain('stolen');
  });

  it('never adopts a session id planted before sign-in (fixation), and ends it', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const planted = owner.cookie;
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/v1/console/sessions',
      headers: { cookie: planted },
      payload: { email: OWNER.email, password: OWNER.password },
    });
    expect(response.statusCode).toBe(201);
    const fresh = sessionCookie(response);
    expect(fresh).not.toBe(planted);
    const withPlanted = await h.app.inject({
      method: 'GET',
      url: '/api/v1/console/session',
      headers: { cookie: planted },
    });
    expect(withPlanted.json()).toMatchObject({ error: { code: 'console_session_expired' } });
    const withFresh = await h.app.inject({ method: 'GET', url: '/api/v1/console/session', headers: { cookie: fresh } });
    expect(withFresh.statusCode).toBe(200);
  });

  it('throttles failed sign-ins per e-mail: the right password is refused too until the window passes', async () => {
    h = await createHarness({ dialect });
    await setUpOwner(h);
    const attempt = (password: string) =>
      h.request({ method: 'POST', url: '/api/v1/console/sessions', payload: { email: OWNER.email, password } });
    for (let guess = 0; guess < 5; guess += 1) {
      const wrong = await attempt(`guess number ${guess}`);
      expect(wrong.json()).toMatchObject({ error: { code: 'invalid_credentials' } });
    }
    const blocked = await attempt(OWNER.password);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // An unknown e-mail is answered exactly as a wrong password.
    const unknown = await h.request({
      method: 'POST',
      url: '/api/v1/console/sessions',
      payload: { email: 'nobody@example.com', password: OWNER.password },
    });
    expect(unknown.json()).toMatchObject({
      error: { code: 'invalid_credentials', message: 'The e-mail or password is wrong.' },
    });
    // The window slides: the failures weigh on the next 15 minutes too, and are gone after.
    h.clock.advance(30 * 60_000);
    expect((await attempt(OWNER.password)).statusCode).toBe(201);
  });

  it('ends sessions when idle, at their absolute expiry, on sign-out, and everywhere at once', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const session = () => owner.request({ method: 'GET', url: '/api/v1/console/session' });
    h.clock.advance(29 * 60_000);
    expect((await session()).statusCode).toBe(200);
    h.clock.advance(29 * 60_000);
    expect((await session()).statusCode).toBe(200);
    h.clock.advance(30 * 60_000);
    const idle = await session();
    expect(idle.json()).toMatchObject({ error: { code: 'console_session_expired' } });
    expect(String(idle.headers['set-cookie'])).toContain('Max-Age=0');

    const busy = await signIn(h, OWNER.email, OWNER.password);
    for (let hour = 0; hour < 12; hour += 1) {
      h.clock.advance(20 * 60_000);
      await busy.request({ method: 'GET', url: '/api/v1/console/session' });
      h.clock.advance(20 * 60_000);
      await busy.request({ method: 'GET', url: '/api/v1/console/session' });
      h.clock.advance(20 * 60_000);
    }
    expect((await busy.request({ method: 'GET', url: '/api/v1/console/session' })).statusCode).toBe(401);

    const laptop = await signIn(h, OWNER.email, OWNER.password);
    const phone = await signIn(h, OWNER.email, OWNER.password);
    expect((await laptop.request({ method: 'DELETE', url: '/api/v1/console/session' })).statusCode).toBe(204);
    expect((await laptop.request({ method: 'GET', url: '/api/v1/console/session' })).statusCode).toBe(401);
    expect((await phone.request({ method: 'GET', url: '/api/v1/console/session' })).statusCode).toBe(200);
    const tablet = await signIn(h, OWNER.email, OWNER.password);
    expect((await tablet.request({ method: 'DELETE', url: '/api/v1/console/sessions' })).statusCode).toBe(204);
    expect((await phone.request({ method: 'GET', url: '/api/v1/console/session' })).statusCode).toBe(401);
  });

  it('ends a removed member’s sessions at once, and the last owner cannot be removed or demoted', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const developer = await inviteMember(h, owner, { email: 'dev@clinic.example', role: 'developer' });
    expect((await developer.request({ method: 'GET', url: '/api/v1/projects' })).statusCode).toBe(200);
    const removed = await owner.request({ method: 'DELETE', url: `/api/v1/members/${developer.session.member.id}` });
    expect(removed.statusCode).toBe(204);
    const after = await developer.request({ method: 'GET', url: '/api/v1/projects' });
    expect(after.json()).toMatchObject({ error: { code: 'console_session_expired' } });
    const again = await h.request({
      method: 'POST',
      url: '/api/v1/console/sessions',
      payload: { email: 'dev@clinic.example', password: 'a long enough password' },
    });
    expect(again.json()).toMatchObject({ error: { code: 'invalid_credentials' } });

    const self = owner.session.member.id;
    const demote = await owner.request({ method: 'PATCH', url: `/api/v1/members/${self}`, payload: { role: 'admin' } });
    expect(demote.json()).toMatchObject({ error: { code: 'last_owner' } });
    const leave = await owner.request({ method: 'DELETE', url: `/api/v1/members/${self}` });
    expect(leave.json()).toMatchObject({ error: { code: 'last_owner' } });
  });

  it('invites by a one-time link for the invited address only', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const invited = await owner.request({
      method: 'POST',
      url: '/api/v1/members/invitations',
      payload: { email: 'Auditor@Clinic.Example', role: 'auditor' },
    });
    expect(invited.statusCode).toBe(201);
    const { link, invitation } = invited.json<{ link: string; invitation: { id: string; email: string } }>();
    expect(link).toMatch(/^http:\/\/api\.test\/console#\/invitation\/[0-9A-Za-z]{43}$/);
    expect(invitation.email).toBe('auditor@clinic.example');
    const listed = await owner.request({ method: 'GET', url: '/api/v1/members' });
    expect(listed.body).not.toContain(linkToken(link));
    expect(listed.json()).toMatchObject({ invitations: [{ id: invitation.id, role: 'auditor' }] });

    const accept = (token: string) =>
      h.request({
        method: 'POST',
        url: '/api/v1/console/invitations/accept',
        payload: { token, name: 'Audrey', password: 'another long password' },
      });
    const joined = await accept(linkToken(link));
    expect(joined.json()).toMatchObject({ member: { email: 'auditor@clinic.example', role: 'auditor' } });
    expect((await accept(linkToken(link))).json()).toMatchObject({ error: { code: 'console_link_invalid' } });
    const duplicate = await owner.request({
      method: 'POST',
      url: '/api/v1/members/invitations',
      payload: { email: 'auditor@clinic.example', role: 'admin' },
    });
    expect(duplicate.json()).toMatchObject({ error: { code: 'member_exists' } });
  });
});
