import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  CONSOLE_SESSION_ENDPOINTS,
  MANAGEMENT_ENDPOINTS,
  type AuditEventPage,
  type EndpointId,
  type IssuedAdminToken,
  type IssuedApiKey,
  type IssuedInvitation,
  type IssuedPartnerKey,
} from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';

import { inviteMember, linkToken, OWNER, signIn, type ConsoleBrowser } from '@chartwright/testing/console.js';
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { followToRedirect, startOpenIdProvider } from '@chartwright/testing/openid-provider.js';
import { AUDITED_OPERATIONS } from '../audit/audited-operations.js';

/**
 * Every console and management operation, called as the console calls it: each succeeds, none is
 * cached, and each that changes something (or signs in or out, or reads the audit log) leaves a
 * record. A new operation fails here until it is walked.
 */
describe.each(TEST_DIALECTS)('walking the console API on %s', (dialect) => {
  let h: Harness;
  let owner: ConsoleBrowser;
  const answers = new Map<EndpointId, LightMyRequestResponse>();
  beforeEach(async () => {
    answers.clear();
    h = await createHarness({ dialect });
  });
  afterEach(async () => {
    await h.close();
  });

  const call = async (id: EndpointId, as: ConsoleBrowser | null, method: string, url: string, payload?: object) => {
    const options = { method: method as 'GET', url, ...(payload === undefined ? {} : { payload }) };
    const response = await (as === null ? h.app.inject(options) : as.request(options));
    answers.set(id, response);
    return response;
  };

  it('answers every operation uncached and records every change', async () => {
    const link = await h.consoleSetupLink();
    const token = linkToken(link);
    await call('inspectConsoleLink', null, 'POST', '/api/v1/console/links/inspect', { token });
    const setup = await call('completeConsoleSetup', null, 'POST', '/api/v1/console/setup', {
      token,
      organisationName: 'Walk clinic',
      ...OWNER,
    });
    expect(setup.statusCode).toBe(201);
    owner = await signInAgain();
    await call('getConsoleSession', owner, 'GET', '/api/v1/console/session');
    await call('listProjects', owner, 'GET', '/api/v1/projects');
    const project = (await call('createProject', owner, 'POST', '/api/v1/projects', { name: 'Walk' })).json<{
      id: string;
    }>();
    const keys = `/api/v1/projects/${project.id}/keys`;
    const key = (await call('createApiKey', owner, 'POST', keys, { environment: 'test' })).json<IssuedApiKey>();
    await call('listApiKeys', owner, 'GET', keys);
    const rotated = await call('rotateApiKey', owner, 'POST', `${keys}/${key.key.id}/rotate`, { graceSeconds: 60 });
    const replacement = rotated.json<{ replacement: IssuedApiKey }>().replacement;
    await call('revokeApiKey', owner, 'DELETE', `${keys}/${replacement.key.id}`);
    const partners = `/api/v1/projects/${project.id}/partners`;
    const partner = (
      await call('createPartner', owner, 'POST', partners, {
        environment: 'test',
        name: 'Walk EMR',
        allowedOrigins: ['https://emr.walk.example'],
      })
    ).json<IssuedPartnerKey>();
    await call('listPartners', owner, 'GET', partners);
    await call('updatePartner', owner, 'PATCH', `${partners}/${partner.partner.id}`, {
      allowedOrigins: ['https://emr.walk.example', 'https://emr2.walk.example'],
    });
    await call('rotatePartnerSecret', owner, 'POST', `${partners}/${partner.partner.id}/rotate-secret`, {});
    await call('revokePartner', owner, 'DELETE', `${partners}/${partner.partner.id}`);
    const invitation = (
      await call('inviteMember', owner, 'POST', '/api/v1/members/invitations', {
        email: 'gone@walk.example',
        role: 'admin',
      })
    ).json<IssuedInvitation>();
    await call('listMembers', owner, 'GET', '/api/v1/members');
    await call('cancelInvitation', owner, 'DELETE', `/api/v1/members/invitations/${invitation.invitation.id}`);
    const developer = await inviteMember(h, owner, { email: 'dev@walk.example', role: 'developer' });
    answers.set('acceptConsoleInvitation', await acceptAnother());
    await call('updateMember', owner, 'PATCH', `/api/v1/members/${developer.session.member.id}`, { role: 'auditor' });
    await call('removeMember', owner, 'DELETE', `/api/v1/members/${developer.session.member.id}`);
    const adminToken = (
      await call('createAdminToken', owner, 'POST', '/api/v1/admin-tokens', { name: 'CI', role: 'developer' })
    ).json<IssuedAdminToken>();
    await call('listAdminTokens', owner, 'GET', '/api/v1/admin-tokens');
    await call('revokeAdminToken', owner, 'DELETE', `/api/v1/admin-tokens/${adminToken.token.id}`);
    await call('getOrganisation', owner, 'GET', '/api/v1/organisation');
    const provider = await startOpenIdProvider({
      redirectUri: `${h.config.publicBaseUrl}/api/v1/console/sso/callback`,
      accounts: { owner: { email: OWNER.email, emailVerified: true } },
    });
    try {
      await call('putOrganisationSso', owner, 'PUT', '/api/v1/organisation/sso', {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        passwordSignIn: true,
      });
      const started = await call('startConsoleSso', null, 'POST', '/api/v1/console/sso/start', { email: OWNER.email });
      const { authorizationUrl } = started.json<{ authorizationUrl: string }>();
      const query = await followToRedirect(authorizationUrl, `${h.config.publicBaseUrl}/api/v1/console/sso/callback`);
      const callback = await call('completeConsoleSso', null, 'GET', `/api/v1/console/sso/callback?${query}`);
      expect(callback.headers.location).toBe('/console#/projects');
      await call('deleteOrganisationSso', owner, 'DELETE', '/api/v1/organisation/sso');
    } finally {
      await provider.close();
    }
    await call('getUsage', owner, 'GET', '/api/v1/usage');
    await call('exportUsage', owner, 'GET', '/api/v1/usage/export');
    await call('listAuditEvents', owner, 'GET', '/api/v1/audit-events');
    await call('exportAuditEvents', owner, 'GET', '/api/v1/audit-events/export');
    const signedIn = await call('signInToConsole', null, 'POST', '/api/v1/console/sessions', {
      email: OWNER.email,
      password: OWNER.password,
    });
    expect(signedIn.statusCode).toBe(201);
    await call('signOutOfConsole', owner, 'DELETE', '/api/v1/console/session');
    const other = await signInAgain();
    await call('signOutEverywhere', other, 'DELETE', '/api/v1/console/sessions');

    const walked = [...CONSOLE_SESSION_ENDPOINTS, ...MANAGEMENT_ENDPOINTS].map((spec) => spec.operationId).sort();
    expect([...answers.keys()].sort()).toEqual(walked);
    for (const [id, response] of answers) {
      expect(response.statusCode, `${id}: ${response.body}`).toBeLessThan(id === 'completeConsoleSso' ? 400 : 300);
      expect(response.headers['cache-control'], id).toBe('no-store');
    }
    expect(answers.get('exportAuditEvents')?.headers['content-type']).toBe('text/csv; charset=utf-8');

    const fresh = await signInAgain();
    const page = (await fresh.request({ method: 'GET', url: '/api/v1/audit-events?limit=500' })).json<AuditEventPage>();
    const recorded = new Set(page.data.map((event) => event.requestId));
    for (const [id, response] of answers) {
      // The single sign-on callback answers 303 either way, so its service records the sign-in itself.
      const audited = AUDITED_OPERATIONS[id] !== 'no_phi' || id === 'completeConsoleSso';
      expect({ id, recorded: recorded.has(String(response.headers['x-request-id'])) }).toEqual({
        id,
        recorded: audited,
      });
    }
  });

  const signInAgain = () => signIn(h, OWNER.email, OWNER.password);

  async function acceptAnother(): Promise<LightMyRequestResponse> {
    const issued = await owner.request({
      method: 'POST',
      url: '/api/v1/members/invitations',
      payload: { email: 'auditor@walk.example', role: 'auditor' },
    });
    const { link } = issued.json<IssuedInvitation>();
    return h.app.inject({
      method: 'POST',
      url: '/api/v1/console/invitations/accept',
      payload: { token: linkToken(link), name: 'Audrey', password: 'a long enough password' },
    });
  }
});
