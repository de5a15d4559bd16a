import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { IssuedApiKey, RotatedApiKey } from '@chartwright/protocol';
import { inviteMember, setUpOwner, type ConsoleBrowser } from '@chartwright/testing/console.js';
import { openSharedPostgres, TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { openDatabase, type Database } from '../store/database.js';
import { SQLITE_CHANGE_CHECK_MS } from '../store/credential-changes.js';
import { migrateToLatest } from '../store/migrate.js';

/** Two instances of the service on one database, as behind a load balancer. */
async function sharedDatabases(
  dialect: 'sqlite' | 'postgres',
): Promise<{ databases: Database[]; dispose(): Promise<void> }> {
  if (dialect === 'postgres') return openSharedPostgres(2);
  const directory = mkdtempSync(join(tmpdir(), 'cw-console-'));
  const path = join(directory, 'shared.db');
  const first = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(first);
  const second = openDatabase({ kind: 'sqlite', path });
  return {
    databases: [first, second],
    dispose: async () => {
      await second.close();
      await first.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

// A reading of SQLite's change counter serves requests for SQLITE_CHANGE_CHECK_MS; a request after
// that must see a change another connection committed.
const afterChangeCheck = () => new Promise((resolve) => setTimeout(resolve, SQLITE_CHANGE_CHECK_MS + 1));

/** The same browser, talking to the other instance: the cookie and CSRF token are the deployment's. */
const onInstance = (browser: ConsoleBrowser, h: Harness): ConsoleBrowser => ({
  ...browser,
  request: ({ headers, ...rest }) =>
    h.app.inject({
      ...rest,
      headers: {
        cookie: browser.cookie,
        ...(rest.method === 'GET' || rest.method === undefined ? {} : { 'x-csrf-token': browser.session.csrfToken }),
        ...headers,
      },
    }),
});

describe.each(TEST_DIALECTS)('the console across two instances on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  });

  it('honours a key rotated, and a member removed, on one instance at once on the other', async () => {
    const shared = await sharedDatabases(dialect);
    cleanups.push(() => shared.dispose());
    const [first, second] = shared.databases as [Database, Database];
    const a = await createHarness({ database: first });
    cleanups.push(() => a.close());
    const b = await createHarness({ database: second });
    cleanups.push(() => b.close());

    const owner = await setUpOwner(a);
    const ownerOnB = onInstance(owner, b);
    const [project] = (await ownerOnB.request({ method: 'GET', url: '/api/v1/projects' })).json<{ id: string }[]>();
    const keys = `/api/v1/projects/${project?.id ?? ''}/keys`;
    const issued = (
      await owner.request({ method: 'POST', url: keys, payload: { environment: 'live' } })
    ).json<IssuedApiKey>();
    const templatesOnB = (key: string) => b.request({ method: 'GET', url: '/api/v1/templates', key });
    await afterChangeCheck();
    expect((await templatesOnB(issued.secret)).statusCode).toBe(200);

    const rotated = await owner.request({
      method: 'POST',
      url: `${keys}/${issued.key.id}/rotate`,
      payload: { graceSeconds: 0 },
    });
    const { replacement } = rotated.json<RotatedApiKey>();
    await afterChangeCheck();
    expect((await templatesOnB(issued.secret)).json()).toMatchObject({ error: { code: 'api_key_expired' } });
    expect((await templatesOnB(replacement.secret)).statusCode).toBe(200);

    await ownerOnB.request({ method: 'DELETE', url: `${keys}/${replacement.key.id}` });
    await afterChangeCheck();
    expect((await a.request({ method: 'GET', url: '/api/v1/templates', key: replacement.secret })).statusCode).toBe(
      401,
    );

    const developer = await inviteMember(b, ownerOnB, { email: 'dev@clinic.example', role: 'developer' });
    const developerOnA = onInstance(developer, a);
    expect((await developerOnA.request({ method: 'GET', url: '/api/v1/projects' })).statusCode).toBe(200);
    await owner.request({ method: 'DELETE', url: `/api/v1/members/${developer.session.member.id}` });
    expect((await developer.request({ method: 'GET', url: '/api/v1/projects' })).json()).toMatchObject({
      error: { code: 'console_session_expired' },
    });
  });
});
