import { describe, expect, it } from 'vitest';

import { apiKeyPrefix, parseCredentialPrefix } from './credentials.js';
import { realtimeWsUrl } from './paths.js';

describe('credential prefixes', () => {
  it('classifies keys and tokens by prefix', () => {
    expect(parseCredentialPrefix('sk_test_abc')).toEqual({ kind: 'api_key', environment: 'test' });
    expect(parseCredentialPrefix('sk_live_abc')).toEqual({ kind: 'api_key', environment: 'live' });
    expect(parseCredentialPrefix('svc_rt_abc')).toEqual({ kind: 'realtime_token', environment: null });
    expect(parseCredentialPrefix('sk_abc')).toBeNull();
    expect(parseCredentialPrefix('pk_test_abc')).toBeNull();
    expect(parseCredentialPrefix('')).toBeNull();
  });

  it('gives each environment its key prefix', () => {
    expect(apiKeyPrefix('test')).toBe('sk_test_');
    expect(apiKeyPrefix('live')).toBe('sk_live_');
  });
});

describe('realtimeWsUrl', () => {
  it('maps http to ws and https to wss at the realtime path', () => {
    expect(realtimeWsUrl('https://api.example.com')).toBe('wss://api.example.com/api/v1/realtime');
    expect(realtimeWsUrl('http://localhost:8080/')).toBe('ws://localhost:8080/api/v1/realtime');
    expect(realtimeWsUrl('https://example.com/chartwright')).toBe('wss://example.com/chartwright/api/v1/realtime');
  });
});
