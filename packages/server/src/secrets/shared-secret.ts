import { createHash } from 'node:crypto';

import type { Clock } from '../clock.js';
import type { ServiceSecretsRepository } from '../store/service-secrets.js';
import type { GeneratedSecrets } from './key-file.js';

export interface SharedSecretOptions {
  /** The secret's name in the key file (and, before it moved out, in the database). */
  name: string;
  /** The variable that configures it instead, named in the error when instances disagree. */
  variable: string;
  /** The configured value; null = the key file's, generated on first use. */
  configured: string | null;
  generate: () => string;
  /**
   * Where an earlier version kept this secret in the database, if not in `service_secrets` under
   * `name`: read once to move it out, then erased.
   */
  legacy?: LegacySecret;
}

/** A secret an earlier version stored in the database, to move out to the key file. */
export interface LegacySecret {
  read(): Promise<string | undefined>;
  erase(): Promise<void>;
}

export interface SharedSecretStores {
  file: GeneratedSecrets;
  database: ServiceSecretsRepository;
  clock: Clock;
}

export class SecretMismatchError extends Error {
  override readonly name = 'SecretMismatchError';
}

const fingerprintOf = (secret: string) => createHash('sha256').update(secret).digest('hex');
const fingerprintName = (name: string) => `fingerprint:${name}`;

/**
 * A secret every instance must hold alike, kept outside the database. The database keeps only its
 * fingerprint (a SHA-256, which gives nothing away), so an instance whose key file holds another
 * secret (a second instance given no copy of the first one's file) refuses to start rather than
 * sign what the others cannot verify. A secret an earlier version kept in the database moves out to
 * the key file, unchanged, so nothing it signed stops working.
 */
export async function sharedSecret(options: SharedSecretOptions, stores: SharedSecretStores): Promise<string> {
  const legacy = options.legacy ?? {
    read: () => stores.database.get(options.name),
    erase: () => stores.database.delete(options.name),
  };
  if (options.configured !== null) {
    await legacy.erase();
    return options.configured;
  }
  const stored = await legacy.read();
  const secret = stores.file.getOrCreate(options.name, () => stored ?? options.generate());
  const recorded = await stores.database.getOrCreate(
    fingerprintName(options.name),
    fingerprintOf(secret),
    stores.clock.now(),
  );
  if (recorded !== fingerprintOf(secret)) {
    throw new SecretMismatchError(
      `The key file's ${options.name} secret differs from the one this database's other instances use: ` +
        `give every instance the same key file (KEY_FILE), or configure ${options.variable} on all of them.`,
    );
  }
  if (stored !== undefined) await legacy.erase();
  return secret;
}

/**
 * Replaces a generated secret (a rotation): the key file and the database's fingerprint both change,
 * so instances that restart with the new key file agree, and one left with the old file refuses.
 */
export async function replaceSharedSecret(name: string, secret: string, stores: SharedSecretStores): Promise<void> {
  stores.file.set(name, secret);
  await stores.database.set(fingerprintName(name), fingerprintOf(secret), stores.clock.now());
}
