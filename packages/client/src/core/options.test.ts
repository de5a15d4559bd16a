import { describe, expect, it } from 'vitest';

import { Chartwright } from '../client.js';
import { ChartwrightError } from '../errors.js';
import { PRODUCTION_BASE_URL, type ChartwrightOptions } from './options.js';

function construct(options: unknown): unknown {
  try {
    return new Chartwright(options as ChartwrightOptions);
  } catch (error) {
    return error;
  }
}

describe('client options', () => {
  it('reports every bad option at once, each by name', () => {
    const error = construct({ apiKey: '  ', baseUrl: 'ftp://example.com', timeout: -1, maxRetries: 1.5 });
    expect(error).toBeInstanceOf(ChartwrightError);
    expect(error).toMatchObject({ code: 'invalid_client_options' });
    const { message } = error as ChartwrightError;
    for (const name of ['apiKey:', 'baseUrl:', 'timeout:', 'maxRetries:']) expect(message).toContain(name);
  });

  it('requires an apiKey', () => {
    expect(construct({})).toMatchObject({ code: 'invalid_client_options', message: expect.stringContaining('apiKey') });
    expect(construct(undefined)).toMatchObject({ code: 'invalid_client_options' });
  });

  it('defaults to the production address and strips trailing slashes', () => {
    expect(new Chartwright({ apiKey: 'sk_test_x' }).baseUrl).toBe(PRODUCTION_BASE_URL);
    expect(new Chartwright({ apiKey: 'sk_test_x', baseUrl: 'https://scribe.example.org/' }).baseUrl).toBe(
      'https://scribe.example.org',
    );
  });
});
