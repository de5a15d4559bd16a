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
}

export class SecretMismatchError extends Error {
  override readonly name = 'SecretMismatchError';
}

const fingerprintOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * A secret every instance must hold alike, kept outside the database. The database keeps only its
 * fingerprint (a SHA-256, which gives nothing away), so an instance whose key file holds another
 * secret (a second instance given no copy of the first one's file) refuses to start rather than
 * sign what the others cannot verify. A secret an earlier version kept in the database moves out to
 * the key file, unchanged, so nothing it signed stops working.
 */
export async function sharedSecret(
  options: SharedSecretOptions,
  stores: { file: GeneratedSecrets; database: ServiceSecretsRepository; clock: Clock },
): Promise<string> {
  if (options.configured !== null) return options.configured;
  const legacy = await stores.database.get(options.name);
  const secret = stores.file.getOrCreate(options.name, () => legacy ?? options.generate());
  const recorded = await stores.database.getOrCreate(
    `fingerprint:${options.name}`,
    fingerprintOf(secret),
    stores.clock.now(),
  );
  if (recorded !== fingerprintOf(secret)) {
    throw new SecretMismatchError(
      `The key file's ${options.name} secret differs from the one this database's other instances use: ` +
        `give every instance the same key file (KEY_FILE), or configure ${options.variable} on all of them.`,
    );
  }
  if (legacy !== undefined) await stores.database.delete(options.name);
  return secret;
}
