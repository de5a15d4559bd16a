import { afterEach, describe, expect, it } from 'vitest';

import {
  CONSOLE_SESSION_ENDPOINTS,
  MANAGEMENT_ENDPOINTS,
  type ApiKey,
  type AuditEventPage,
  type IssuedApiKey,
  type IssuedPartnerKey,
  type RotatedApiKey,
} from '@chartwright/protocol';
import {
  browserOf,
  createAdminToken,
  inviteMember,
  linkToken,
  setUpOwner,
  type ConsoleBrowser,
} from '@chartwright/testing/console.js';
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { ConsoleMembers } from './members.js';

const templates = (h: Harness, key: string) => h.request({ method: 'GET', url: '/api/v1/templates', key });
const keysUrl = (projectId: string) => `/api/v1/projects/${projectId}/keys`;

async function firstProject(browser: ConsoleBrowser): Promise<string> {
  const [project] = (await browser.request({ method: 'GET', url: '/api/v1/projects' })).json<{ id: string }[]>();
  if (project === undefined) throw new Error('no project');
  return project.id;
}

describe.each(TEST_DIALECTS)('the management API on %s', (dialect) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('creates a live key shown once, rotates it with a grace period, and revokes it', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const created = await owner.request({
      method: 'POST',
      url: '/api/v1/projects',
      payload: { name: 'Scribe for Riverside' },
    });
    expect(created.statusCode).toBe(201);
    const projectId = created.json<{ id: string }>().id;
    const issued = await owner.request({
      method: 'POST',
      url: keysUrl(projectId),
      payload: { environment: 'live', name: 'EHR backend' },
    });
    const { key, secret } = issued.json<IssuedApiKey>();
    expect(secret).toMatch(/^sk_live_/);
    expect(key).toMatchObject({
      environment: 'live',
      status: 'active',
      createdBy: { kind: 'console_member', label: 'owner@clinic.example' },
      rotationRecommended: false,
    });
    expect((await templates(h, secret)).statusCode).toBe(200);

    const rotated = await owner.request({
      method: 'POST',
      url: `${keysUrl(projectId)}/${key.id}/rotate`,
      payload: { graceSeconds: 600 },
    });
    expect(rotated.statusCode).toBe(201);
    const { replacement, previous } = rotated.json<RotatedApiKey>();
    expect(previous).toMatchObject({
      id: key.id,
      status: 'grace',
      expiresAt: new Date(h.clock.now() + 600_000).toISOString(),
    });
    expect((await templates(h, secret)).statusCode).toBe(200);
    expect((await templates(h, replacement.secret)).statusCode).toBe(200);
    h.clock.advance(600_000);
    expect((await templates(h, secret)).json()).toMatchObject({ error: { code: 'api_key_expired' } });
    expect((await templates(h, replacement.secret)).statusCode).toBe(200);

    const revoked = await owner.request({ method: 'DELETE', url: `${keysUrl(projectId)}/${replacement.key.id}` });
    expect(revoked.json()).toMatchObject({ status: 'revoked' });
    expect((await templates(h, replacement.secret)).statusCode).toBe(401);

    const listed = await owner.request({ method: 'GET', url: keysUrl(projectId) });
    expect(listed.json<ApiKey[]>().map((listedKey) => listedKey.status)).toEqual(['expired', 'revoked']);
  });

  it('flags active keys older than 90 days for rotation', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const projectId = await firstProject(owner);
    // An admin token: a console session would have ended long before.
    const automation = await createAdminToken(owner, 'auditor');
    h.clock.advance(90 * 86_400_000);
    const listed = (await h.request({ method: 'GET', url: keysUrl(projectId), key: automation.secret })).json<
      ApiKey[]
    >();
    expect(listed.map((key) => key.rotationRecommended)).toEqual([true, true]);
  });

  it('lets each role do what the roles table says, and no more', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const projectId = await firstProject(owner);
    const developer = await inviteMember(h, owner, { email: 'dev@clinic.example', role: 'developer' });
    const auditor = await inviteMember(h, owner, { email: 'audit@clinic.example', role: 'auditor' });
    const admin = await inviteMember(h, owner, { email: 'admin@clinic.example', role: 'admin' });
    const create = (who: ConsoleBrowser, environment: 'test' | 'live') =>
      who.request({ method: 'POST', url: keysUrl(projectId), payload: { environment } });

    expect((await create(developer, 'test')).statusCode).toBe(201);
    expect((await create(developer, 'live')).json()).toMatchObject({ error: { code: 'role_forbidden' } });
    const seen = (await developer.request({ method: 'GET', url: keysUrl(projectId) })).json<ApiKey[]>();
    expect(seen.some((key) => key.environment === 'live')).toBe(true);
    const live = seen.find((key) => key.environment === 'live');
    const rotateLive = await developer.request({
      method: 'POST',
      url: `${keysUrl(projectId)}/${live?.id ?? ''}/rotate`,
    });
    expect(rotateLive.statusCode).toBe(403);

    expect((await create(auditor, 'test')).statusCode).toBe(403);
    expect((await auditor.request({ method: 'GET', url: '/api/v1/audit-events' })).statusCode).toBe(200);
    expect((await auditor.request({ method: 'GET', url: '/api/v1/usage' })).statusCode).toBe(200);

    expect((await create(admin, 'live')).statusCode).toBe(201);
    const invite = await admin.request({
      method: 'POST',
      url: '/api/v1/members/invitations',
      payload: { email: 'x@clinic.example', role: 'owner' },
    });
    expect(invite.json()).toMatchObject({ error: { code: 'role_forbidden' } });
    expect(
      (await admin.request({ method: 'POST', url: '/api/v1/admin-tokens', payload: { name: 'ci', role: 'admin' } }))
        .statusCode,
    ).toBe(403);

    const developerToken = await createAdminToken(owner, 'developer');
    const byToken = await h.request({
      method: 'POST',
      url: keysUrl(projectId),
      key: developerToken.secret,
      payload: { environment: 'live' },
    });
    expect(byToken.json()).toMatchObject({ error: { code: 'role_forbidden' } });
  });

  it('limits an organisation’s management requests per minute, people and automation together', async () => {
    h = await createHarness({ dialect, config: { apiRateLimitPerMinute: 3 } });
    const owner = await setUpOwner(h);
    const token = await createAdminToken(owner, 'auditor');
    expect((await owner.request({ method: 'GET', url: '/api/v1/projects' })).headers['ratelimit-remaining']).toBe('1');
    expect((await h.request({ method: 'GET', url: '/api/v1/projects', key: token.secret })).statusCode).toBe(200);
    const refused = await owner.request({ method: 'GET', url: '/api/v1/projects' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    h.clock.advance(120_000);
    expect((await h.request({ method: 'GET', url: '/api/v1/projects', key: token.secret })).statusCode).toBe(200);
  });

  it('refuses sk_ keys and svc_rt_ tokens on every management and console route', async () => {
    h = await createHarness({ dialect });
    const minted = await h.request({
      method: 'POST',
      url: '/api/v1/realtime/tokens',
      key: h.project.testKey,
      payload: {},
    });
    const realtimeToken = minted.json<{ token: string }>().token;
    for (const credential of [h.project.testKey, h.project.liveKey, realtimeToken]) {
      for (const spec of MANAGEMENT_ENDPOINTS) {
        const url = spec.path.replaceAll(/\{(\w+)\}/g, (_match, name: string) =>
          name === 'projectId' ? h.project.id : `${name}_1`,
        );
        const response = await h.request({ method: spec.method, url, key: credential, payload: {} });
        expect({ route: spec.operationId, code: response.json<{ error: { code: string } }>().error.code }).toEqual({
          route: spec.operationId,
          code: 'project_credential_not_allowed',
        });
      }
      for (const spec of CONSOLE_SESSION_ENDPOINTS.filter((candidate) => candidate.auth === 'console_session')) {
        const response = await h.request({ method: spec.method, url: spec.path, key: credential });
        expect(response.statusCode).toBe(401);
      }
    }
  });

  it('refuses an admin token of another organisation, and shows each organisation only its own', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const projectId = await firstProject(owner);
    const other = await new ConsoleMembers(h.repositories, h.clock, h.config.publicBaseUrl).createOrganisation(
      'Elsewhere',
    );
    const otherBrowser = browserOf(
      h,
      await h.request({
        method: 'POST',
        url: '/api/v1/console/setup',
        payload: {
          token: linkToken(other.setupLink.url),
          organisationName: 'Elsewhere',
          name: 'Other owner',
          email: 'owner@elsewhere.example',
          password: 'a different long password',
        },
      }),
    );
    const foreignToken = await createAdminToken(otherBrowser, 'admin');
    const list = await h.request({ method: 'GET', url: keysUrl(projectId), key: foreignToken.secret });
    expect(list.json()).toMatchObject({ error: { code: 'project_not_found' } });
    const rotate = await h.request({
      method: 'POST',
      url: `${keysUrl(projectId)}/${h.project.liveKeyId}/rotate`,
      key: foreignToken.secret,
    });
    expect(rotate.statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/api/v1/projects', key: foreignToken.secret })).json()).toEqual([]);
    const audit = await h.request({ method: 'GET', url: '/api/v1/audit-events', key: foreignToken.secret });
    // Only its own records (its owner's, its token's refused attempts), never the first organisation's.
    expect(audit.body).not.toContain(owner.session.member.id);
    const ownActors = [otherBrowser.session.member.id, foreignToken.token.id];
    expect(audit.json<AuditEventPage>().data.every((event) => ownActors.includes(event.actor.id ?? ''))).toBe(true);

    const revoked = await otherBrowser.request({
      method: 'DELETE',
      url: `/api/v1/admin-tokens/${foreignToken.token.id}`,
    });
    expect(revoked.json()).toMatchObject({ status: 'revoked' });
    const after = await h.request({ method: 'GET', url: '/api/v1/projects', key: foreignToken.secret });
    expect(after.json()).toMatchObject({ error: { code: 'admin_token_revoked' } });
  });

  it('never returns a secret after the answer that created it, and records every change', async () => {
    h = await createHarness({ dialect });
    const owner = await setUpOwner(h);
    const projectId = await firstProject(owner);
    const key = (
      await owner.request({ method: 'POST', url: keysUrl(projectId), payload: { environment: 'test' } })
    ).json<IssuedApiKey>();
    const partner = (
      await owner.request({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/partners`,
        payload: { environment: 'test', name: 'Acme EMR', allowedOrigins: ['https://emr.acme.example'] },
      })
    ).json<IssuedPartnerKey>();
    const widget = await h.mintWidgetToken(partner.partnerKey, { userEmail: 'dr@acme.example', emrUserId: 'u1' });
    expect(widget.token.split('.')).toHaveLength(3);
    const rotatedPartner = (
      await owner.request({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/partners/${partner.partner.id}/rotate-secret`,
        payload: {},
      })
    ).json<IssuedPartnerKey>();
    const token = await createAdminToken(owner, 'auditor');
    const invitation = (
      await owner.request({
        method: 'POST',
        url: '/api/v1/members/invitations',
        payload: { email: 'new@clinic.example', role: 'developer' },
      })
    ).json<{ link: string }>();
    const secrets = [
      key.secret,
      partner.partnerKey.split('.')[1] ?? '',
      rotatedPartner.partnerKey.split('.')[1] ?? '',
      token.secret,
      linkToken(invitation.link),
      owner.cookie.split('=')[1] ?? '',
    ];
    const reads = [
      '/api/v1/projects',
      keysUrl(projectId),
      `/api/v1/projects/${projectId}/partners`,
      '/api/v1/members',
      '/api/v1/admin-tokens',
      '/api/v1/usage',
      '/api/v1/audit-events',
      '/api/v1/audit-events/export',
    ];
    for (const url of reads) {
      const body = (await owner.request({ method: 'GET', url })).body;
      for (const secret of secrets) expect(body.includes(secret), `${url} holds a secret`).toBe(false);
    }
    for (const secret of secrets) expect(h.logs.text.includes(secret)).toBe(false);

    const page = (await owner.request({ method: 'GET', url: '/api/v1/audit-events?limit=500' })).json<AuditEventPage>();
    const changes = page.data.map((event) => `${event.action} ${event.resourceType}`);
    expect(changes).toEqual(
      expect.arrayContaining([
        'sign_in console_session',
        'create api_key',
        'create partner',
        'rotate partner',
        'create admin_token',
        'create invitation',
      ]),
    );
    expect(page.data.every((event) => event.actor.kind === 'console_member' || event.actor.kind !== 'api_key')).toBe(
      true,
    );
  });
});
