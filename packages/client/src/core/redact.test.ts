import { describe, expect, it } from 'vitest';

import { redactCredentials } from './redact.js';

describe('redactCredentials', () => {
  it('keeps only the prefix of every key and token in a text', () => {
    expect(redactCredentials('key sk_live_AbC123_-x and sk_test_zz9, token svc_rt_Q1w2E3; plain sk_ stays')).toBe(
      'key sk_live_… and sk_test_…, token svc_rt_…; plain sk_ stays',
    );
  });
});
