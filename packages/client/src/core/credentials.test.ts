import { describe, expect, it } from 'vitest';

import { Chartwright } from '../client.js';
import { ChartwrightError } from '../errors.js';
import { recordingFetch } from '../test-support/server.js';

function clientWith(apiKey: () => string | Promise<string>) {
  const recorded = recordingFetch();
  // No request may leave: the address is never reached.
  const chartwright = new Chartwright({ apiKey, baseUrl: 'http://127.0.0.1:9', fetch: recorded.fetch });
  return { chartwright, attempts: recorded.attempts };
}

describe('an apiKey function', () => {
  it('that fails gives a coded error with the cause, and no request', async () => {
    const problem = new Error('vault sealed');
    const { chartwright, attempts } = clientWith(() => Promise.reject(problem));
    const error: unknown = await chartwright.templates.list().catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(ChartwrightError);
    expect(error).toMatchObject({ code: 'api_key_unavailable', cause: problem });
    expect(attempts).toHaveLength(0);
  });

  it('that returns nothing usable gives a coded error, and no request', async () => {
    const { chartwright, attempts } = clientWith(() => '');
    await expect(chartwright.notes.retrieve('note_1')).rejects.toMatchObject({ code: 'invalid_api_key_option' });
    expect(attempts).toHaveLength(0);
  });
});
