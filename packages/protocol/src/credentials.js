/** Credential prefixes as the interface fixes them. */
export const CREDENTIAL_PREFIXES = Object.freeze({
  sandboxKey: 'sk_test_',
  productionKey: 'sk_live_',
  realtimeToken: 'svc_rt_',
});
/** `test` is the sandbox environment, `live` production. */
export const ENVIRONMENTS = ['test', 'live'];
/** Classifies a presented credential by prefix alone; `null` when it has no known prefix. */
export function parseCredentialPrefix(credential) {
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
export function apiKeyPrefix(environment) {
  return environment === 'test' ? CREDENTIAL_PREFIXES.sandboxKey : CREDENTIAL_PREFIXES.productionKey;
}
//# sourceMappingURL=credentials.js.map
