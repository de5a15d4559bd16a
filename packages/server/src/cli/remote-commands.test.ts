import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createAdminToken, setUpOwner } from '@chartwright/testing/console.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import type { AdminTokenRole } from '@chartwright/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openDatabase } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { runCli } from './commands.js';

// The remote commands against the real service over HTTP, on a database file the local commands
// open too, so both can be asked the same question.
let dir: string;
let databasePath: string;
let harness: Harness;
let baseUrl: string;
const tokens = new Map<AdminTokenRole, string>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chartwright-remote-cli-'));
  databasePath = join(dir, 'chartwright.db');
  const database = openDatabase({ kind: 'sqlite', path: databasePath });
  await migrateToLatest(database);
  harness = await createHarness({ database, config: { keyFile: join(dir, 'chartwright.keys.json') } });
  baseUrl = await harness.app.listen({ port: 0, host: '127.0.0.1' });
  const owner = await setUpOwner(harness);
  for (const role of ['admin', 'developer'] as const) tokens.set(role, (await createAdminToken(owner, role)).secret);
});

afterAll(async () => {
  await harness.close();
  await harness.database.close();
  rmSync(dir, { recursive: true, force: true });
});

interface CliResult {
  code: number;
  out: string;
  err: string;
}

async function cli(argv: string[], env: Record<string, string>): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  // The service's clock for the local commands too: both judge a key's age at the same moment.
  const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) };
  const code = await runCli(argv, env, io, harness.clock);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The command on the local database, as an operator on the server runs it. */
const local = (...argv: string[]) => cli(argv, { DATABASE_URL: databasePath });

/** The command through the management API, with an admin token of `role` in the environment. */
const remote = (role: AdminTokenRole, ...argv: string[]) =>
  cli([...argv, '--url', baseUrl], { CHARTWRIGHT_ADMIN_TOKEN: tokens.get(role) ?? '' });

async function succeeded(result: Promise<CliResult>): Promise<string> {
  const { code, out, err } = await result;
  expect(err).toBe('');
  expect(code).toBe(0);
  return out;
}

async function remoteJson<T>(...argv: string[]): Promise<T> {
  return JSON.parse(await succeeded(remote('admin', ...argv, '--json'))) as T;
}

describe('remote commands', () => {
  it('print what the local commands print, for people and as JSON', async () => {
    const { id: projectId, testKeyId } = harness.project;
    await harness.createPartner({ name: 'Acme EMR' });
    // A second project, a second later: lists across projects interleave by age, as locally.
    harness.clock.advance(1000);
    const other = await harness.projects.create('Other clinic');
    await harness.keys.create({ projectId: other.id, environment: 'live' });
    await harness.createPartner({ projectId: other.id, name: 'Other EMR' });
    for (const argv of [
      ['projects', 'list'],
      ['keys', 'list', '--project', projectId],
      ['keys', 'list', '--env', 'live'],
      ['partners', 'list', '--project', projectId],
      ['partners', 'list'],
    ]) {
      const here = await succeeded(local(...argv));
      expect(await succeeded(remote('admin', ...argv))).toBe(here);
      expect(JSON.parse(await succeeded(remote('admin', ...argv, '--json')))).toEqual(
        JSON.parse(await succeeded(local(...argv, '--json'))),
      );
    }
    await succeeded(remote('admin', 'keys', 'rotate', testKeyId, '--grace', '60'));
    const audit = ['audit', 'list', '--resource', testKeyId];
    expect(await succeeded(remote('admin', ...audit))).toBe(await succeeded(local(...audit)));
    expect(await succeeded(remote('admin', ...audit, '--limit', '1'))).toMatch(
      / rotate {2}api_key:key_\S+ {2}admin_token:/,
    );
  });

  it('create a project and a live key that works, rotate it (finding its project) and revoke it', async () => {
    const project = await remoteJson<{ id: string; name: string }>('projects', 'create', '--name', 'Northside Clinic');
    expect(project.name).toBe('Northside Clinic');
    const created = await succeeded(
      remote('admin', 'keys', 'create', '--project', project.id, '--env', 'live', '--name', 'backend'),
    );
    const [, keyId, secret] =
      /^Created live key (\S+)\nKey \(shown once, store it now\): (sk_live_\S+)$/.exec(created) ?? [];
    const templates = (key: string) => harness.request({ method: 'GET', url: '/api/v1/templates', key });
    expect((await templates(secret ?? '')).statusCode).toBe(200);

    const rotated = await remoteJson<{ replacement: { id: string; key: string }; previous: { status: string } }>(
      'keys',
      'rotate',
      keyId ?? '',
      '--grace',
      '60',
    );
    expect(rotated.previous.status).toBe('grace');
    expect((await templates(rotated.replacement.key)).statusCode).toBe(200);
    expect(await succeeded(remote('admin', 'keys', 'revoke', rotated.replacement.id, '--project', project.id))).toMatch(
      new RegExp(`^Revoked ${rotated.replacement.id} at `),
    );
    expect((await templates(rotated.replacement.key)).statusCode).toBe(401);
  });

  it('register a partner, set its origins, rotate its secret and revoke it', async () => {
    const { id: projectId } = harness.project;
    const issued = await remoteJson<{ id: string; partnerKey: string }>(
      'partners',
      'create',
      '--project',
      projectId,
      '--env',
      'test',
      '--name',
      'Beta EMR',
      '--origin',
      'https://beta.example.com',
    );
    const clinician = { userEmail: 'dr.rivera@clinic.example', emrUserId: 'u-1042' };
    await expect(harness.mintWidgetToken(issued.partnerKey, clinician)).resolves.toHaveProperty('token');
    expect(
      await succeeded(remote('admin', 'partners', 'set-origins', issued.id, '--origin', 'https://b.example.com')),
    ).toBe(`${issued.id} may now be embedded from: https://b.example.com`);
    const rotated = await remoteJson<{ partnerKey: string }>('partners', 'rotate-secret', issued.id, '--grace', '0');
    await expect(harness.mintWidgetToken(rotated.partnerKey, clinician)).resolves.toHaveProperty('token');
    await succeeded(remote('admin', 'partners', 'revoke', issued.id));
    await expect(harness.mintWidgetToken(rotated.partnerKey, clinician)).rejects.toThrow(/answered 40[13]/);
  });

  it('take CHARTWRIGHT_URL in place of --url', async () => {
    const out = await succeeded(
      cli(['projects', 'list'], { CHARTWRIGHT_URL: baseUrl, CHARTWRIGHT_ADMIN_TOKEN: tokens.get('admin') ?? '' }),
    );
    expect(out).toContain(harness.project.id);
  });
});

describe('remote failures', () => {
  it('name CHARTWRIGHT_ADMIN_TOKEN when it is missing or not an admin token (exit 2)', async () => {
    for (const env of [{}, { CHARTWRIGHT_ADMIN_TOKEN: '' }]) {
      const result = await cli(['projects', 'list', '--url', baseUrl], env);
      expect(result).toMatchObject({ code: 2, out: '' });
      expect(result.err).toMatch(/^chartwright: CHARTWRIGHT_ADMIN_TOKEN is required/);
    }
    const withKey = await cli(['projects', 'list', '--url', baseUrl], {
      CHARTWRIGHT_ADMIN_TOKEN: harness.project.liveKey,
    });
    expect(withKey.code).toBe(2);
    expect(withKey.err).toContain('project_credential_not_allowed');
    expect(withKey.err).toContain('CHARTWRIGHT_ADMIN_TOKEN');
    expect(withKey.err).not.toContain(harness.project.liveKey);
  });

  it('refuse the commands that work on the server’s database only (exit 2)', async () => {
    for (const argv of [
      ['migrate'],
      ['audit', 'verify'],
      ['delete', 'note', 'note_1'],
      ['audit', 'list', '--encounter', 'enc_1'],
    ]) {
      const result = await remote('admin', ...argv);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/^chartwright: /);
    }
  });

  it('report what the service refused, in one line (exit 1)', async () => {
    const forbidden = await remote('developer', 'keys', 'create', '--project', harness.project.id, '--env', 'live');
    expect(forbidden).toMatchObject({ code: 1, out: '' });
    expect(forbidden.err).toMatch(/^chartwright: 403 role_forbidden: /);
    const unknown = await remote('admin', 'keys', 'revoke', 'key_unknown');
    expect(unknown).toMatchObject({
      code: 1,
      err: 'chartwright: no key key_unknown in any project of the organisation',
    });
  });
});
