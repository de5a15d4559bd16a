import type { Environment } from '@chartwright/protocol';

/** The project environment a resource belongs to: nothing crosses between two of them. */
export interface ProjectScope {
  readonly projectId: string;
  readonly environment: Environment;
}

/** Who is calling with a permanent sk_ key. */
export interface ApiKeyPrincipal {
  readonly kind: 'api_key';
  readonly projectId: string;
  readonly environment: Environment;
  readonly apiKeyId: string;
  /** When the key stops working (end of its rotation grace); null for a key never rotated. */
  readonly expiresAt: number | null;
}

/** Who minted a temporary token: an API key, or a partner's widget session. */
export interface TokenIssuer {
  readonly kind: 'api_key' | 'partner';
  readonly id: string;
}

/** Who is calling with a temporary svc_rt_ token. */
export interface RealtimeTokenPrincipal {
  readonly kind: 'realtime_token';
  readonly projectId: string;
  readonly environment: Environment;
  readonly tokenId: string;
  readonly issuer: TokenIssuer;
  /** The widget encounter the token's audio belongs to; null for tokens minted with an API key. */
  readonly encounterId: string | null;
  /** When the token stops working: its own expiry, or its issuer's end of grace if sooner. */
  readonly expiresAt: number;
}

/** Who is calling, as established from a credential. */
export type Principal = ApiKeyPrincipal | RealtimeTokenPrincipal;
