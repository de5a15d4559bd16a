import type { Environment } from '@chartwright/protocol';

/** Who is calling, as established from a credential. */
export interface Principal {
  readonly kind: 'api_key' | 'realtime_token';
  readonly projectId: string;
  readonly environment: Environment;
  /** The permanent key itself, or the key that minted the temporary token. */
  readonly apiKeyId: string;
  /** Id of the presented credential (the key id, or the token id). */
  readonly credentialId: string;
  /** When the presented credential stops working; null for a key that was never rotated. */
  readonly expiresAt: number | null;
}
