/** Credential prefixes as the interface fixes them. */
export const CREDENTIAL_PREFIXES = Object.freeze({
  sandboxKey: 'sk_test_',
  productionKey: 'sk_live_',
  realtimeToken: 'svc_rt_',
  /** Organisation admin tokens for the management API; never accepted by the project API. */
  adminToken: 'cw_admin_',
} as const);

/** `test` is the sandbox environment, `live` production. */
export const ENVIRONMENTS = ['test', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export type CredentialKind = 'api_key' | 'realtime_token';

export interface ParsedCredentialPrefix {
  kind: CredentialKind;
  /** Known for API keys from their prefix; a realtime token's environment is stored with it. */
  environment: Environment | null;
}

/** Classifies a presented credential by prefix alone; `null` when it has no known prefix. */
export function parseCredentialPrefix(credential: string): ParsedCredentialPrefix | null {
  if (credential.startsWith(CREDENTIAL_PREFIXES.sandboxKey)) {
    return { kind: 'api_key', environment: 'test' };
  }
  if (credential.startsWith(CREDENTIAL_PREFIXES.productionKey)) {
    return { kind: 'api_key', environment: 'live' };
  }
  if (credential.startsWith(CREDENTIAL_PREFIXES.realtimeToken)) {
    return { kind: 'realtime_token', environment: null };
  }
  return null;
}

export function apiKeyPrefix(environment: Environment): string {
  return environment === 'test' ? CREDENTIAL_PREFIXES.sandboxKey : CREDENTIAL_PREFIXES.productionKey;
}
