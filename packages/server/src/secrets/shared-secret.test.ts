import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TEST_DIALECTS, openTestDatabase, type TestDatabase } from '@chartwright/testing/databases.js';
import { ManualClock } from '../clock.js';
import { createRepositories, type Repositories } from '../store/repositories.js';
import { KeyFile, MemorySecrets } from './key-file.js';
import { SecretMismatchError, sharedSecret } from './shared-secret.js';

describe('the key file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chartwright-keys-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps what it made in an owner-only file, in an owner-only directory it creates, for the next process', () => {
    const path = join(dir, 'data', 'chartwright.keys.json');
    let made = 0;
    const generate = () => `secret-${++made}`;
    expect(new KeyFile(path).getOrCreate('a', generate)).toBe('secret-1');
    expect(new KeyFile(path).getOrCreate('a', generate)).toBe('secret-1');
    expect(new KeyFile(path).getOrCreate('b', generate)).toBe('secret-2');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ a: 'secret-1', b: 'secret-2' });
  });

  it('takes over a lock a dead writer left behind', () => {
    const path = join(dir, 'chartwright.keys.json');
    writeFileSync(`${path}.lock`, '');
    expect(new KeyFile(path).getOrCreate('a', () => 'made')).toBe('made');
  });

  it('refuses a file that is not a key file, rather than overwrite it', () => {
    const path = join(dir, 'chartwright.keys.json');
    writeFileSync(path, '["not", "an", "object"]');
    expect(() => new KeyFile(path).getOrCreate('a', () => 'made')).toThrow(/is not a key file/);
    expect(readFileSync(path, 'utf8')).toBe('["not", "an", "object"]');
  });
});

describe.each(TEST_DIALECTS)('a secret every instance shares (%s)', (dialect) => {
  let database: TestDatabase;
  let repositories: Repositories;
  const clock = new ManualClock();
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    repositories = createRepositories(database.database);
  });
  afterEach(async () => {
    await database.dispose();
  });

  const options = {
    name: 'widget_pdf_links',
    variable: 'WIDGET_PDF_LINK_SECRET',
    configured: null,
    generate: () => 'fresh',
  };
  const stores = (file = new MemorySecrets()) => ({ file, database: repositories.serviceSecrets, clock });

  it('is the configured value when there is one, and nothing is stored', async () => {
    expect(await sharedSecret({ ...options, configured: 'from-config' }, stores())).toBe('from-config');
    expect(await repositories.serviceSecrets.get('fingerprint:widget_pdf_links')).toBeUndefined();
  });

  it('moves a secret an earlier version kept in the database out to the key file, unchanged', async () => {
    await repositories.serviceSecrets.getOrCreate('widget_pdf_links', 'legacy-secret', clock.now());
    const file = new MemorySecrets();
    expect(await sharedSecret(options, stores(file))).toBe('legacy-secret');
    expect(file.getOrCreate('widget_pdf_links', () => 'other')).toBe('legacy-secret');
    expect(await repositories.serviceSecrets.get('widget_pdf_links')).toBeUndefined();
    expect(await repositories.serviceSecrets.get('fingerprint:widget_pdf_links')).toMatch(/^[0-9a-f]{64}$/);
    // The next start finds it in the file.
    expect(await sharedSecret(options, stores(file))).toBe('legacy-secret');
  });

  it('refuses to start an instance whose key file holds another secret than the others use', async () => {
    expect(await sharedSecret(options, stores())).toBe('fresh');
    const second = sharedSecret({ ...options, generate: () => 'its-own' }, stores());
    await expect(second).rejects.toBeInstanceOf(SecretMismatchError);
    await expect(second).rejects.toThrow(
      /give every instance the same key file \(KEY_FILE\), or configure WIDGET_PDF_LINK_SECRET/,
    );
  });
});
