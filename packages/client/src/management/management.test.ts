import type { AdminTokenRole } from '@chartwright/protocol';
import { createAdminToken, setUpOwner, type ConsoleBrowser } from '@chartwright/testing/console.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Chartwright } from '../client.js';
import { AuthenticationError, ConflictError, NotFoundError, PermissionDeniedError } from '../errors.js';
import { recordingFetch, startTestServer, type TestServer } from '../test-support/server.js';
import { ManagementClient } from './management-client.js';

// The management client against the real service: what it sends, what the service answers.
let server: TestServer;
let owner: ConsoleBrowser;
beforeAll(async () => {
  server = await startTestServer();
  owner = await setUpOwner(server.harness);
});
afterAll(async () => {
  await server.close();
});

async function management(role: AdminTokenRole = 'admin') {
  const { secret } = await createAdminToken(owner, role);
  const recorded = recordingFetch();
  return {
    client: new ManagementClient({ adminToken: secret, baseUrl: server.baseUrl, fetch: recorded.fetch }),
    ...recorded,
  };
}

const templatesWith = (apiKey: string) =>
  new Chartwright({ apiKey, baseUrl: server.baseUrl, maxRetries: 0 }).templates.list();

describe('projects and keys', () => {
  it('creates a project and a live key that works, rotates it with grace, and revokes it', async () => {
    const { client } = await management('admin');
    const project = await client.projects.create({ name: 'Northside Clinic' });
    expect((await client.projects.list()).map(({ id }) => id)).toContain(project.id);

    const { key, secret } = await client.keys.create(project.id, { environment: 'live', name: 'backend' });
    expect(secret).toMatch(/^sk_live_/);
    expect(key).toMatchObject({ projectId: project.id, environment: 'live', name: 'backend', status: 'active' });
    expect(key.createdBy).toMatchObject({ kind: 'admin_token' });
    await expect(templatesWith(secret)).resolves.not.toHaveLength(0);
    const listed = await client.keys.list(project.id, { environment: 'live' });
    expect(listed.map(({ id }) => id)).toEqual([key.id]);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const { replacement, previous } = await client.keys.rotate(project.id, key.id, { graceSeconds: 60 });
    expect(previous).toMatchObject({ id: key.id, status: 'grace', replacedBy: replacement.key.id });
    expect(previous.expiresAt).toBe(new Date(server.harness.clock.now() + 60_000).toISOString());
    await expect(templatesWith(secret)).resolves.not.toHaveLength(0);
    await expect(templatesWith(replacement.secret)).resolves.not.toHaveLength(0);

    const revoked = await client.keys.revoke(project.id, replacement.key.id);
    expect(revoked).toMatchObject({ id: replacement.key.id, status: 'revoked' });
    await expect(templatesWith(replacement.secret)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('answers a second rotation with a ConflictError, tried once', async () => {
    const { client, attempts } = await management('admin');
    const { id } = server.harness.project;
    const { key } = await client.keys.create(id, { environment: 'test' });
    await client.keys.rotate(id, key.id);
    const before = attempts.length;
    const error = await client.keys.rotate(id, key.id).catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'api_key_not_active' });
    expect(attempts.length - before).toBe(1);
    await expect(client.keys.rotate(id, 'key_unknown')).rejects.toMatchObject({
      status: 404,
      code: 'api_key_not_found',
    });
    await expect(client.keys.list('prj_unknown')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('roles', () => {
  it('lets a developer token make sandbox keys only', async () => {
    const { client } = await management('developer');
    const { id } = server.harness.project;
    await expect(client.keys.create(id, { environment: 'test' })).resolves.toMatchObject({
      key: { environment: 'test' },
    });
    const error = await client.keys.create(id, { environment: 'live' }).catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'role_forbidden' });
    expect((await client.keys.list(id, { environment: 'live' })).length).toBeGreaterThan(0);
  });

  it('lets an auditor token read and change nothing', async () => {
    const { client } = await management('auditor');
    const { id } = server.harness.project;
    await expect(client.projects.list()).resolves.not.toHaveLength(0);
    await expect(client.keys.list(id)).resolves.not.toHaveLength(0);
    await expect(client.members.list()).resolves.toMatchObject({ members: [{ role: 'owner' }] });
    await expect(client.organisation.retrieve()).resolves.toMatchObject({ sso: null });
    await expect(client.adminTokens.list()).resolves.not.toHaveLength(0);
    for (const change of [
      client.projects.create({ name: 'Nope' }),
      client.keys.create(id, { environment: 'test' }),
      client.partners.create(id, { environment: 'test', name: 'Nope', allowedOrigins: ['https://emr.example.com'] }),
    ]) {
      await expect(change).rejects.toMatchObject({ status: 403, code: 'role_forbidden' });
    }
  });

  it('refuses a revoked or unknown admin token', async () => {
    const issued = await createAdminToken(owner, 'admin');
    const client = new ManagementClient({ adminToken: issued.secret, baseUrl: server.baseUrl });
    await client.projects.list();
    // Only the owner revokes tokens, in the console.
    const revoked = await owner.request({ method: 'DELETE', url: `/api/v1/admin-tokens/${issued.token.id}` });
    expect(revoked.statusCode).toBe(200);
    await expect(client.projects.list()).rejects.toMatchObject({ status: 401, code: 'admin_token_revoked' });

    const unknown = new ManagementClient({ adminToken: `${issued.secret.slice(0, -4)}zzzz`, baseUrl: server.baseUrl });
    const error = await unknown.projects.list().catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_admin_token' });
  });
});

describe('partners', () => {
  it('registers an EMR whose key mints widget tokens, changes its origins, rotates its secret and revokes it', async () => {
    const { client } = await management('admin');
    const { id } = server.harness.project;
    const { partner, partnerKey } = await client.partners.create(id, {
      environment: 'test',
      name: 'Acme EMR',
      allowedOrigins: ['https://emr.acme.example'],
    });
    const clinician = { userEmail: 'dr.rivera@clinic.example', emrUserId: 'u-1042' };
    await expect(server.harness.mintWidgetToken(partnerKey, clinician)).resolves.toHaveProperty('token');
    expect((await client.partners.list(id)).map(({ id: partnerId }) => partnerId)).toContain(partner.id);

    const updated = await client.partners.update(id, partner.id, { allowedOrigins: ['https://emr2.acme.example'] });
    expect(updated.allowedOrigins).toEqual(['https://emr2.acme.example']);
    const rotated = await client.partners.rotateSecret(id, partner.id, { graceSeconds: 0 });
    expect(rotated.partnerKey).not.toBe(partnerKey);
    await expect(server.harness.mintWidgetToken(rotated.partnerKey, clinician)).resolves.toHaveProperty('token');
    await expect(client.partners.revoke(id, partner.id)).resolves.toMatchObject({ status: 'revoked' });
    await expect(server.harness.mintWidgetToken(rotated.partnerKey, clinician)).rejects.toThrow(/401|403/);
  });
});

describe('usage and the audit log', () => {
  it('reports usage per day, as rows and as CSV', async () => {
    const { client, attempts } = await management('auditor');
    const { id } = server.harness.project;
    await server.harness.request({ method: 'GET', url: '/api/v1/templates', key: server.harness.project.testKey });
    // The service adds its counts to the database once a minute; the test does not wait.
    await server.harness.app.usage.flush();
    await expect(client.usage.list({ projectId: id, environment: 'test' })).resolves.toMatchObject([
      { projectId: id, environment: 'test', restRequests: 1 },
    ]);
    const csv = await client.usage.exportCsv({ projectId: id, environment: 'test' });
    expect(csv.split(/\r?\n/)[0]).toBe(
      'day,project_id,environment,rest_requests,notes_generated,realtime_audio_seconds,widget_tokens',
    );
    expect(attempts.at(-1)?.headers.get('accept')).toBe('text/csv');
  });

  it('pages through the log newest first, and exports it', async () => {
    const { client } = await management('admin');
    const { id } = server.harness.project;
    const { key } = await client.keys.create(id, { environment: 'test', name: 'audited' });
    await client.keys.revoke(id, key.id);

    const page = await client.auditEvents.list({ resourceId: key.id, limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.nextCursor).not.toBeNull();
    const records = [];
    for await (const event of client.auditEvents.iterate({ resourceId: key.id, limit: 1 })) records.push(event);
    expect(records.map(({ action }) => action)).toEqual(['revoke', 'create']);
    expect(records[0]).toMatchObject({ resourceType: 'api_key', actor: { kind: 'admin_token' }, outcome: 'success' });

    const csv = await client.auditEvents.exportCsv({ resourceId: key.id });
    expect(csv.trim().split(/\r?\n/)).toHaveLength(3);
  });
});
