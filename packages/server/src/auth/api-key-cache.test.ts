import { describe, expect, it } from 'vitest';

import { ManualClock } from '../clock.js';
import type { ApiKeyRow } from '../store/api-keys.js';
import type { CredentialChanges } from '../store/credential-changes.js';
import { ApiKeyCache } from './api-key-cache.js';

/** A change feed the test drives by hand: the cache's contract is only `version()`. */
class ManualChanges implements CredentialChanges {
  current: number | null = 1;
  version(): number | null {
    return this.current;
  }
  publish(): Promise<void> {
    if (this.current !== null) this.current += 1;
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

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
});

describe('ApiKeyCache', () => {
  it('serves what it stored while nothing changed', () => {
    const cache = new ApiKeyCache(new ManualChanges(), new ManualClock());
    const version = cache.sync();
    cache.set('h1', row('a'), version);
    expect(cache.sync()).toBe(version);
    expect(cache.get('h1')?.id).toBe('a');
    expect(cache.get('h2')).toBeUndefined();
  });

  it('drops everything once credentials change', async () => {
    const changes = new ManualChanges();
    const cache = new ApiKeyCache(changes, new ManualClock());
    cache.set('h1', row('a'), cache.sync());
    await changes.publish();
    cache.sync();
    expect(cache.get('h1')).toBeUndefined();
  });

  it('never caches a row read while a change happened', async () => {
    const changes = new ManualChanges();
    const cache = new ApiKeyCache(changes, new ManualClock());
    const before = cache.sync();
    await changes.publish();
    cache.set('h1', row('a'), before);
    cache.sync();
    expect(cache.get('h1')).toBeUndefined();
  });

  it('caches nothing while changes cannot be observed', () => {
    const changes = new ManualChanges();
    changes.current = null;
    const cache = new ApiKeyCache(changes, new ManualClock());
    cache.set('h1', row('a'), cache.sync());
    expect(cache.get('h1')).toBeUndefined();
  });

  it('forgets an entry after its time to live', () => {
    const clock = new ManualClock();
    const cache = new ApiKeyCache(new ManualChanges(), clock);
    cache.set('h1', row('a'), cache.sync());
    clock.advance(29_999);
    expect(cache.get('h1')?.id).toBe('a');
    clock.advance(1);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('stays bounded, dropping the oldest entry first', () => {
    const cache = new ApiKeyCache(new ManualChanges(), new ManualClock());
    const version = cache.sync();
    for (let index = 0; index <= 10_000; index += 1) cache.set(`h${index}`, row(String(index)), version);
    expect(cache.get('h0')).toBeUndefined();
    expect(cache.get('h1')?.id).toBe('1');
    expect(cache.get('h10000')?.id).toBe('10000');
  });
});
