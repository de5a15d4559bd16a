import { afterEach, describe, expect, it } from 'vitest';

import { ManualClock } from '../clock.js';
import type { ApiKeyRow } from '../store/api-keys.js';
import { postgresCredentialChanges, type CredentialChanges } from '../store/credential-changes.js';
import { openTestDatabase } from '@chartwright/testing/databases.js';
import { CredentialCache } from './credential-cache.js';

/** The real SQLite change feed on a database of its own; `publish` is what a revocation calls. */
async function sqliteFeed(): Promise<{ changes: CredentialChanges; publish: () => Promise<void> }> {
  const opened = await openTestDatabase('sqlite');
  cleanups.push(() => opened.dispose());
  const changes = opened.database.credentialChanges;
  return { changes, publish: () => changes.publish(opened.database.db) };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const row = (id: string): ApiKeyRow => ({
  id,
  project_id: 'proj_1',
  environment: 'test',
  name: 'default',
  secret_hash: `hash-${id}`,
  hint: 'sk_test_…abcd',
  created_at: 0,
  expires_at: null,
  revoked_at: null,
  replaced_by: null,
  created_by_kind: null,
  created_by_id: null,
  created_by_label: null,
  last_used_at: null,
});

describe('CredentialCache', () => {
  it('serves what it stored while nothing changed', async () => {
    const cache = new CredentialCache<ApiKeyRow>((await sqliteFeed()).changes, new ManualClock());
    const version = cache.sync();
    cache.set('h1', row('a'), version);
    expect(cache.sync()).toBe(version);
    expect(cache.get('h1')?.id).toBe('a');
    expect(cache.get('h2')).toBeUndefined();
  });

  it('drops everything once credentials change', async () => {
    const { changes, publish } = await sqliteFeed();
    const cache = new CredentialCache<ApiKeyRow>(changes, new ManualClock());
    cache.set('h1', row('a'), cache.sync());
    await publish();
    cache.sync();
    expect(cache.get('h1')).toBeUndefined();
  });

  it('never caches a row read while a change happened', async () => {
    const { changes, publish } = await sqliteFeed();
    const cache = new CredentialCache<ApiKeyRow>(changes, new ManualClock());
    const before = cache.sync();
    await publish();
    cache.set('h1', row('a'), before);
    cache.sync();
    expect(cache.get('h1')).toBeUndefined();
  });

  it('caches nothing while changes cannot be observed', () => {
    // A PostgreSQL feed whose LISTEN connection cannot come up (nothing listens on port 1).
    const changes = postgresCredentialChanges('postgres://postgres@127.0.0.1:1/none');
    cleanups.push(() => changes.close());
    const cache = new CredentialCache<ApiKeyRow>(changes, new ManualClock());
    cache.set('h1', row('a'), cache.sync());
    expect(cache.get('h1')).toBeUndefined();
  });

  it('forgets an entry after its time to live', async () => {
    const clock = new ManualClock();
    const cache = new CredentialCache<ApiKeyRow>((await sqliteFeed()).changes, clock);
    cache.set('h1', row('a'), cache.sync());
    clock.advance(29_999);
    expect(cache.get('h1')?.id).toBe('a');
    clock.advance(1);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('stays bounded, dropping the oldest entry first', async () => {
    const cache = new CredentialCache<ApiKeyRow>((await sqliteFeed()).changes, new ManualClock());
    const version = cache.sync();
    for (let index = 0; index <= 10_000; index += 1) cache.set(`h${index}`, row(String(index)), version);
    expect(cache.get('h0')).toBeUndefined();
    expect(cache.get('h1')?.id).toBe('1');
    expect(cache.get('h10000')?.id).toBe('10000');
  });
});
