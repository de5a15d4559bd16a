import { execFile } from 'node:child_process';
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { calculateJwkThumbprint } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ManualClock } from '../clock.js';
import { ConsoleMembers } from '../console/members.js';
import { openDatabase } from '../store/database.js';
import { MIGRATION_NAMES } from '../store/migrations/index.js';
import { createRepositories } from '../store/repositories.js';
import { runCli } from './commands.js';

const T0 = Date.UTC(2026, 0, 1);
const SECRET = /sk_(test|live)_[0-9A-Za-z]{43}/g;

interface CliResult {
  code: number;
  /** Everything written to stdout, joined with newlines. */
  out: string;
  /** Every line written to stderr, a call with a newline in it counting as several. */
  errLines: string[];
}

let dir: string;
let env: Record<string, string>;
let clock: ManualClock;

async function cli(...argv: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, env, { out: (text) => out.push(text), err: (text) => err.push(text) }, clock);
  return { code, out: out.join('\n'), errLines: err.length === 0 ? [] : err.join('\n').split('\n') };
}

/** Runs a command that must succeed and returns its parsed `--json` output. */
async function json<T>(...argv: string[]): Promise<T> {
  const result = await cli(...argv, '--json');
  expect(result.errLines).toEqual([]);
  expect(result.code).toBe(0);
  return JSON.parse(result.out) as T;
}

/** A failing command: exactly one line on stderr, prefixed with the program name, nothing on stdout. */
async function failure(expectedCode: 1 | 2, ...argv: string[]): Promise<string> {
  const result = await cli(...argv);
  expect(result.code).toBe(expectedCode);
  expect(result.errLines).toHaveLength(1);
  expect(result.out).toBe('');
  const [line = ''] = result.errLines;
  expect(line).toMatch(/^chartwright: \S/);
  return line;
}

interface Project {
  id: string;
  name: string;
  createdAt: string;
}

interface Key {
  id: string;
  projectId: string;
  environment: string;
  name: string;
  hint: string;
  status: string;
  expiresAt: string | null;
  revokedAt: string | null;
  replacedBy: string | null;
}

async function createProject(name = 'Clinic North'): Promise<Project> {
  return json<Project>('projects', 'create', '--name', name);
}

async function createKey(projectId: string, environment = 'test'): Promise<Key & { key: string }> {
  return json<Key & { key: string }>('keys', 'create', '--project', projectId, '--env', environment);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chartwright-cli-'));
  env = { DATABASE_URL: join(dir, 'chartwright.db') };
  clock = new ManualClock(T0);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('projects', () => {
  it('creates a project and says so', async () => {
    const result = await cli('projects', 'create', '--name', 'Clinic North');
    expect(result.code).toBe(0);
    expect(result.errLines).toEqual([]);
    expect(result.out).toMatch(/^Created project proj_[0-9A-Za-z]+ \(Clinic North\)$/);
  });

  it('creates a project as JSON', async () => {
    const project = await createProject('  Clinic South  ');
    expect(project).toEqual({
      id: expect.stringMatching(/^proj_/),
      name: 'Clinic South',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('lists projects, oldest first, for people and as JSON', async () => {
    expect((await cli('projects', 'list')).out).toBe('No projects.');
    expect(await json('projects', 'list')).toEqual([]);

    const first = await createProject('First');
    clock.advance(1000);
    const second = await createProject('Second');

    const human = await cli('projects', 'list');
    expect(human.code).toBe(0);
    expect(human.out.split('\n')).toEqual([
      `${first.id}  First  created 2026-01-01T00:00:00.000Z`,
      `${second.id}  Second  created 2026-01-01T00:00:01.000Z`,
    ]);
    expect(await json('projects', 'list')).toEqual([first, second]);
  });

  it('keeps what it stored in the database file between invocations', async () => {
    const project = await createProject();
    expect(existsSync(env['DATABASE_URL'] ?? '')).toBe(true);
    clock = new ManualClock(T0 + 86_400_000);
    expect(await json('projects', 'list')).toEqual([project]);
  });

  it('requires a name', async () => {
    expect(await failure(2, 'projects', 'create')).toContain('--name');
    expect(await failure(2, 'projects', 'create', '--name', '   ')).toContain('--name');
  });

  it('refuses a name longer than 200 characters', async () => {
    await failure(1, 'projects', 'create', '--name', 'x'.repeat(201));
    expect(await json('projects', 'list')).toEqual([]);
  });
});

describe('keys create and list', () => {
  it('prints a test key once, and listings show only its hint', async () => {
    const project = await createProject();
    const created = await cli('keys', 'create', '--project', project.id, '--env', 'test');
    expect(created.code).toBe(0);
    expect(created.errLines).toEqual([]);
    const secrets = created.out.match(SECRET) ?? [];
    expect(secrets).toHaveLength(1);
    const [secret = ''] = secrets;
    expect(secret.startsWith('sk_test_')).toBe(true);
    expect(created.out).toMatch(/^Created test key key_[0-9A-Za-z]+\nKey \(shown once, store it now\): sk_test_/);

    const listed = await cli('keys', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).not.toContain(secret);
    // Not even most of the secret's body leaks.
    expect(listed.out).not.toContain(secret.slice('sk_test_'.length, -4));
    expect(listed.out).not.toMatch(SECRET);
    expect(listed.out).toContain(`sk_test_…${secret.slice(-4)}`);
    expect(listed.out).toMatch(/key_\S+ {2}test {2}sk_test_…\S{4} {2}active {2}default {2}proj_/);

    const listedJson = await cli('keys', 'list', '--json');
    expect(listedJson.out).not.toContain(secret.slice('sk_test_'.length, -4));
    const keys = JSON.parse(listedJson.out) as Key[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toHaveProperty('key');
    expect(keys[0]).toMatchObject({ projectId: project.id, environment: 'test', hint: `sk_test_…${secret.slice(-4)}` });
  });

  it('gives a live key for --env live', async () => {
    const project = await createProject();
    const created = await cli('keys', 'create', '--project', project.id, '--env', 'live', '--name', 'backend');
    expect(created.out).toContain('Created live key');
    expect(created.out.match(SECRET)?.[0]?.startsWith('sk_live_')).toBe(true);
    expect(created.out).not.toContain('sk_test_');

    const [key] = await json<Key[]>('keys', 'list');
    expect(key).toMatchObject({ environment: 'live', name: 'backend', status: 'active' });
    expect(key?.hint.startsWith('sk_live_…')).toBe(true);
  });

  it('issues a different key each time', async () => {
    const project = await createProject();
    const first = await createKey(project.id);
    const second = await createKey(project.id);
    expect(first.key).not.toBe(second.key);
    expect(first.id).not.toBe(second.id);
  });

  it('filters listings by project and environment', async () => {
    const north = await createProject('North');
    const south = await createProject('South');
    const northTest = await createKey(north.id, 'test');
    const northLive = await createKey(north.id, 'live');
    const southTest = await createKey(south.id, 'test');
    const ids = async (...filter: string[]) => (await json<Key[]>('keys', 'list', ...filter)).map((key) => key.id);

    expect(await ids()).toEqual([northTest.id, northLive.id, southTest.id]);
    expect(await ids('--project', north.id)).toEqual([northTest.id, northLive.id]);
    expect(await ids('--env', 'test')).toEqual([northTest.id, southTest.id]);
    expect(await ids('--project', north.id, '--env', 'live')).toEqual([northLive.id]);
    expect(await ids('--project', south.id, '--env', 'live')).toEqual([]);
    expect((await cli('keys', 'list', '--project', south.id, '--env', 'live')).out).toBe('No keys.');
  });
});

describe('keys rotate and revoke', () => {
  it('rotates with a grace period, after which the old key is expired', async () => {
    const project = await createProject();
    const old = await createKey(project.id);

    const rotated = await cli('keys', 'rotate', old.id, '--grace', '60');
    expect(rotated.code).toBe(0);
    expect(rotated.errLines).toEqual([]);
    const secrets = rotated.out.match(SECRET) ?? [];
    expect(secrets).toHaveLength(1);
    expect(secrets[0]).not.toBe(old.key);
    expect(secrets[0]?.startsWith('sk_test_')).toBe(true);
    expect(rotated.out).toContain(`Rotated ${old.id}: it keeps working until 2026-01-01T00:01:00.000Z.`);

    const statusOf = async (id: string) => (await json<Key[]>('keys', 'list')).find((key) => key.id === id);
    const previous = await statusOf(old.id);
    expect(previous).toMatchObject({ status: 'grace', expiresAt: '2026-01-01T00:01:00.000Z' });
    expect((await cli('keys', 'list')).out).toContain('grace until 2026-01-01T00:01:00.000Z');
    const replacement = await statusOf(previous?.replacedBy ?? '');
    expect(replacement).toMatchObject({ status: 'active', expiresAt: null, hint: `sk_test_…${secrets[0]?.slice(-4)}` });

    clock.advance(59_999);
    expect((await statusOf(old.id))?.status).toBe('grace');
    clock.advance(1);
    expect((await statusOf(old.id))?.status).toBe('expired');
    expect((await statusOf(replacement?.id ?? ''))?.status).toBe('active');
  });

  it('rotates as JSON, with the new key once and the old one in its grace period', async () => {
    const project = await createProject();
    const old = await createKey(project.id, 'live');
    const result = await json<{ replacement: Key & { key: string }; previous: Key }>(
      'keys',
      'rotate',
      old.id,
      '--grace',
      '0',
    );
    expect(result.replacement.key).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
    expect(result.replacement).toMatchObject({ environment: 'live', projectId: project.id, status: 'active' });
    // No grace: the old key stops working at once.
    expect(result.previous).toMatchObject({
      id: old.id,
      status: 'expired',
      expiresAt: '2026-01-01T00:00:00.000Z',
      replacedBy: result.replacement.id,
    });
  });

  it('uses KEY_ROTATION_GRACE_SECONDS when --grace is not given', async () => {
    env['KEY_ROTATION_GRACE_SECONDS'] = '120';
    const project = await createProject();
    const old = await createKey(project.id);
    const { previous } = await json<{ previous: Key }>('keys', 'rotate', old.id);
    expect(previous).toMatchObject({ status: 'grace', expiresAt: '2026-01-01T00:02:00.000Z' });
  });

  it('revokes a key at once, and revoking again changes nothing', async () => {
    const project = await createProject();
    const key = await createKey(project.id);
    clock.advance(5000);

    const revoked = await cli('keys', 'revoke', key.id);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toBe(`Revoked ${key.id} at 2026-01-01T00:00:05.000Z`);
    expect((await json<Key[]>('keys', 'list'))[0]).toMatchObject({
      status: 'revoked',
      revokedAt: '2026-01-01T00:00:05.000Z',
    });

    clock.advance(5000);
    const again = await json<Key>('keys', 'revoke', key.id);
    expect(again).toMatchObject({ status: 'revoked', revokedAt: '2026-01-01T00:00:05.000Z' });
  });

  it('refuses to rotate a key again once it was rotated', async () => {
    const project = await createProject();
    const old = await createKey(project.id);
    await json('keys', 'rotate', old.id);
    const line = await failure(1, 'keys', 'rotate', old.id);
    expect(line).toContain(old.id);
    // Nothing was issued by the refused rotation.
    expect(await json<Key[]>('keys', 'list')).toHaveLength(2);
  });

  it('refuses to rotate a revoked key', async () => {
    const project = await createProject();
    const key = await createKey(project.id);
    await json('keys', 'revoke', key.id);
    await failure(1, 'keys', 'rotate', key.id);
    expect(await json<Key[]>('keys', 'list')).toHaveLength(1);
  });
});

describe('migrate', () => {
  it('applies the migrations to a new database, then has nothing to do', async () => {
    expect(await cli('migrate')).toEqual({ code: 0, out: `Applied: ${MIGRATION_NAMES.join(', ')}`, errLines: [] });
    expect(await cli('migrate')).toEqual({ code: 0, out: 'Database is up to date.', errLines: [] });
    expect(await json('migrate')).toEqual({ applied: [] });
  });

  it('has nothing to do after any other command, since every command migrates first', async () => {
    await createProject();
    expect(await cli('migrate')).toEqual({ code: 0, out: 'Database is up to date.', errLines: [] });
  });
});

describe('help', () => {
  it('prints usage for --help and exits 0', async () => {
    const result = await cli('--help');
    expect(result.code).toBe(0);
    expect(result.out).toContain('Usage: chartwright <command> [options]');
  });

  it('prints usage to stderr and exits 2 without a command', async () => {
    const result = await cli();
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.errLines.join('\n')).toContain('Usage: chartwright');
  });
});

describe('errors', () => {
  it('exits 2 for an unknown command', async () => {
    expect(await failure(2, 'frobnicate')).toContain('frobnicate');
    expect(await failure(2, 'projects', 'delete')).toContain('projects delete');
  });

  it('exits 2 for an unknown option', async () => {
    expect(await failure(2, 'projects', 'list', '--bogus')).toContain('--bogus');
  });

  it('exits 2 when --project is missing', async () => {
    expect(await failure(2, 'keys', 'create', '--env', 'test')).toContain('--project');
  });

  it('exits 1 naming the id of a project that does not exist', async () => {
    expect(await failure(1, 'keys', 'create', '--project', 'proj_nope', '--env', 'test')).toContain('proj_nope');
    expect(await failure(1, 'keys', 'list', '--project', 'proj_nope')).toContain('proj_nope');
  });

  it('exits 2 for a missing or unknown --env', async () => {
    const project = await createProject();
    expect(await failure(2, 'keys', 'create', '--project', project.id)).toContain('--env');
    expect(await failure(2, 'keys', 'create', '--project', project.id, '--env', 'staging')).toContain('--env');
    expect(await failure(2, 'keys', 'list', '--env', 'prod')).toContain('--env');
    expect(await json('keys', 'list')).toEqual([]);
  });

  it('exits 2 for a --grace that is not a whole number of seconds, rotating nothing', async () => {
    const project = await createProject();
    const key = await createKey(project.id);
    for (const grace of ['abc', '1.5', '-5', '', '1e3']) {
      expect(await failure(2, 'keys', 'rotate', key.id, `--grace=${grace}`)).toContain('--grace');
    }
    const [listed] = await json<Key[]>('keys', 'list');
    expect(listed).toMatchObject({ status: 'active', replacedBy: null });
  });

  it('exits 2 for a --grace too long to be a grace period, rotating nothing', async () => {
    const project = await createProject();
    const key = await createKey(project.id);
    expect(await failure(2, 'keys', 'rotate', key.id, '--grace', '99999999999999999999')).toContain('--grace');
    expect(await failure(2, 'keys', 'rotate', key.id, '--grace', String(90 * 86400 + 1))).toContain('--grace');
    expect(await json<Key[]>('keys', 'list')).toMatchObject([{ id: key.id, status: 'active', replacedBy: null }]);
    // The longest allowed grace period works.
    const { previous } = await json<{ previous: Key }>('keys', 'rotate', key.id, '--grace', String(90 * 86400));
    expect(previous).toMatchObject({ status: 'grace', expiresAt: '2026-04-01T00:00:00.000Z' });
  });

  it('exits 1 naming the id of a key that does not exist', async () => {
    expect(await failure(1, 'keys', 'rotate', 'key_nope')).toContain('key_nope');
    expect(await failure(1, 'keys', 'revoke', 'key_nope')).toContain('key_nope');
  });

  it('exits 2 when the key id is missing', async () => {
    expect(await failure(2, 'keys', 'rotate')).toContain('<keyId>');
    expect(await failure(2, 'keys', 'revoke')).toContain('<keyId>');
  });

  it('reports an invalid configuration on one line', async () => {
    env = { DATABASE_URL: 'mysql://db/chartwright', KEY_ROTATION_GRACE_SECONDS: 'soon' };
    const line = await failure(1, 'projects', 'list');
    expect(line).toContain('DATABASE_URL');
    expect(line).toContain('KEY_ROTATION_GRACE_SECONDS');
  });
});

describe('partners', () => {
  interface Partner {
    id: string;
    environment: string;
    secretHint: string;
    allowedOrigins: string[];
    tokenLifetimeSeconds: number;
    status: string;
    previousSecretExpiresAt: string | null;
  }

  const create = (projectId: string, ...extra: string[]) =>
    json<Partner & { partnerKey: string }>(
      'partners',
      'create',
      '--project',
      projectId,
      '--env',
      'live',
      '--name',
      'Acme EMR',
      '--origin',
      'https://emr.acme.example',
      '--origin',
      'https://staging.acme.example',
      ...extra,
    );

  it('creates a partner and shows its X-Partner-Key once', async () => {
    const project = await createProject();
    const partner = await create(project.id, '--token-lifetime', '3600');
    expect(partner.partnerKey).toMatch(new RegExp(`^${partner.id}\\.[0-9A-Za-z]{43}$`));
    expect(partner).toMatchObject({
      environment: 'live',
      allowedOrigins: ['https://emr.acme.example', 'https://staging.acme.example'],
      tokenLifetimeSeconds: 3600,
      status: 'active',
    });
    const listed = await cli('partners', 'list', '--project', project.id);
    expect(listed.out).toContain(partner.id);
    expect(listed.out).not.toContain(partner.partnerKey.split('.')[1]);
  });

  it('replaces a partner’s origins, refusing inexact ones', async () => {
    const project = await createProject();
    const partner = await create(project.id);
    const updated = await json<Partner>('partners', 'set-origins', partner.id, '--origin', 'https://new.acme.example');
    expect(updated.allowedOrigins).toEqual(['https://new.acme.example']);
    expect(await failure(1, 'partners', 'set-origins', partner.id, '--origin', 'https://new.acme.example/')).toContain(
      'allowedOrigins[0]',
    );
    expect(await failure(2, 'partners', 'set-origins', partner.id)).toContain('--origin is required');
  });

  it('rotates the secret with a grace period and revokes', async () => {
    const project = await createProject();
    const partner = await create(project.id);
    const rotated = await json<Partner & { partnerKey: string }>(
      'partners',
      'rotate-secret',
      partner.id,
      '--grace',
      '60',
    );
    expect(rotated.partnerKey).not.toBe(partner.partnerKey);
    expect(rotated.previousSecretExpiresAt).toBe(new Date(clock.now() + 60_000).toISOString());
    const revoked = await json<Partner>('partners', 'revoke', partner.id);
    expect(revoked.status).toBe('revoked');
    expect(await failure(1, 'partners', 'rotate-secret', partner.id)).toContain('was revoked');
  });

  it('explains what is missing or wrong in one line', async () => {
    const project = await createProject();
    expect(await failure(2, 'partners', 'create', '--project', project.id, '--env', 'test', '--name', 'X')).toContain(
      '--origin is required',
    );
    expect(
      await failure(
        1,
        'partners',
        'create',
        '--project',
        project.id,
        '--env',
        'test',
        '--name',
        'X',
        '--origin',
        'http://emr.example.com',
      ),
    ).toContain('allowedOrigins');
    const wildcard = await failure(
      1,
      ...['partners', 'create', '--project', project.id, '--env', 'test', '--name', 'X'],
      '--origin',
      'https://emr.example.com',
      '--origin',
      'https://*.example.com',
    );
    expect(wildcard).toContain('allowedOrigins[1]');
    expect(wildcard).toContain('wildcards are not allowed');
    expect(await json<Partner[]>('partners', 'list', '--project', project.id)).toEqual([]);
    expect(
      await failure(
        2,
        ...['partners', 'create', '--project', project.id, '--env', 'test', '--name', 'X'],
        '--origin',
        'https://a.example',
        '--token-lifetime',
        'soon',
      ),
    ).toContain('--token-lifetime must be a whole number');
    expect(await failure(1, 'partners', 'revoke', 'ptn_missing')).toContain('ptn_missing');
  });
});

describe('widget-key rotate', () => {
  const keyFile = () => JSON.parse(readFileSync(join(dir, 'chartwright.keys.json'), 'utf8')) as Record<string, string>;

  it('puts a new signing key in the key file and publishes it in the database, its private half nowhere else', async () => {
    const first = await json<{ kid: string; previousKeysPublishedUntil: string }>('widget-key', 'rotate');
    expect(first.previousKeysPublishedUntil).toBe(new Date(T0 + 7 * 86_400_000).toISOString());
    clock.advance(1000);
    const second = await json<{ kid: string }>('widget-key', 'rotate');
    expect(second.kid).not.toBe(first.kid);

    const pem = keyFile()['widget_signing_key'] ?? '';
    const publicJwk = createPublicKey(createPrivateKey(pem)).export({ format: 'jwk' });
    expect(await calculateJwkThumbprint(publicJwk)).toBe(second.kid);
    const database = openDatabase({ kind: 'sqlite', path: env['DATABASE_URL'] ?? '' });
    try {
      const rows = await createRepositories(database).signingKeys.list();
      expect(rows.map((row) => [row.kid, row.private_jwk])).toEqual([
        [first.kid, ''],
        [second.kid, ''],
      ]);
      expect(await createRepositories(database).serviceSecrets.get('fingerprint:widget_signing_key')).toMatch(
        /^[0-9a-f]{64}$/,
      );
    } finally {
      await database.close();
    }
    expect(readFileSync(env['DATABASE_URL'] ?? '').includes(Buffer.from(pem.split('\n')[1] ?? '-'))).toBe(false);

    const human = await cli('widget-key', 'rotate');
    expect(human.out).toMatch(
      /^New widget signing key \S+, published now.*\nRestart every instance before 2026-01-08T/,
    );
  });

  it('refuses when the key is configured, naming the variable', async () => {
    env['WIDGET_JWT_PRIVATE_KEY'] = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(await failure(2, 'widget-key', 'rotate')).toContain('WIDGET_JWT_PRIVATE_KEY');
  });
});

describe('the chartwright command npm links', () => {
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  // What `npx chartwright` runs: the link npm made at install, executed directly (shebang, mode).
  const bin = join(root, 'node_modules/.bin/chartwright');

  it('runs end to end', async () => {
    // `npm test` builds first; running Vitest alone needs `npm run build` beforehand.
    expect(existsSync(join(root, 'packages/server/dist/cli.js')), 'run npm run build first').toBe(true);
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const childEnv = { ...process.env, DATABASE_URL: join(dir, 'bin.db') };

    const listed = await promisify(execFile)(bin, ['projects', 'list', '--json'], {
      cwd: dir,
      env: childEnv,
    });
    expect(JSON.parse(listed.stdout)).toEqual([]);
    expect(listed.stderr).toBe('');

    const failed = await promisify(execFile)(bin, ['frobnicate'], { cwd: dir, env: childEnv }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stdout: string; stderr: string },
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr).toMatch(/^chartwright: [^\n]*\n$/);
  });
});

describe('console', () => {
  const TOKEN = /#\/setup\/([0-9A-Za-z]{43})$/m;

  it('prints a new one-hour setup link while the organisation has no owner, voiding the last one', async () => {
    const first = await cli('console', 'setup-link');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(
      /^One-time setup link for the organisation's owner \(valid until 2026-01-01T01:00:00\.000Z; keep it private\):\nhttp:\/\/localhost:8080\/console#\/setup\/[0-9A-Za-z]{43}$/,
    );
    const second = await json<{ url: string; organisationId: string }>('console', 'setup-link');
    expect(second.organisationId).toMatch(/^org_/);
    const database = openDatabase({ kind: 'sqlite', path: env['DATABASE_URL'] ?? '' });
    try {
      const members = new ConsoleMembers(createRepositories(database), clock, 'http://localhost:8080');
      await expect(members.inspect(TOKEN.exec(first.out)?.[1] ?? '')).rejects.toMatchObject({
        code: 'console_link_invalid',
      });
      const owner = await members.completeSetup({
        token: TOKEN.exec(second.url)?.[1] ?? '',
        organisationName: 'Clinic',
        name: 'Owner',
        email: 'owner@clinic.example',
        password: 'a long owner password',
      });
      expect(owner.role).toBe('owner');
    } finally {
      await database.close();
    }
    expect(await failure(2, 'console', 'setup-link')).toBe(
      'chartwright: Clinic already has an owner: members are invited in the console (Members), by an owner',
    );
  });

  it('filters the audit log by the console’s actors and actions', async () => {
    for (const filter of [
      ['--actor-kind', 'admin_token'],
      ['--actor-kind', 'console_member'],
      ['--action', 'rotate'],
    ]) {
      const result = await cli('audit', 'list', ...filter);
      expect(result).toEqual({ code: 0, out: 'No audit records match.', errLines: [] });
    }
  });

  it('creates another organisation with its own setup link, and lists organisations', async () => {
    const created = await json<{ id: string; name: string; setupLink: { url: string } }>(
      'organisations',
      'create',
      '--name',
      'Second clinic',
    );
    expect(created.setupLink.url).toMatch(TOKEN);
    const listed = await json<{ id: string; name: string }[]>('organisations', 'list');
    expect(listed.map((organisation) => organisation.name)).toEqual(['My organisation', 'Second clinic']);
    const link = await json<{ organisationId: string }>('console', 'setup-link', '--organisation', created.id);
    expect(link.organisationId).toBe(created.id);
    expect(await failure(2, 'console', 'setup-link', '--organisation', 'org_missing')).toBe(
      'chartwright: no organisation has the id org_missing',
    );
  });
});
