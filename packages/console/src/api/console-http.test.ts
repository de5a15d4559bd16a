import { describe, expect, it, vi } from 'vitest';

import { ConsoleApiError } from './console-api-error.js';
import { ConsoleHttp, withQuery } from './console-http.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function recorder(answer: () => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn((url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(answer());
  });
  return { calls, fetch: fetch as unknown as typeof globalThis.fetch };
}

describe('ConsoleHttp', () => {
  it('sends the cookie on the same origin only, and the CSRF token on changes, never on reads', async () => {
    const { calls, fetch } = recorder(() => json(200, {}));
    const http = new ConsoleHttp({ baseUrl: 'https://cw.example', fetch });
    await http.request('POST', '/api/v1/projects', { name: 'A' });
    http.useCsrfToken('csrf-1');
    await http.request('GET', '/api/v1/projects');
    await http.request('DELETE', '/api/v1/admin-tokens/t1');
    expect(calls.map(({ init }) => init.credentials)).toEqual(['same-origin', 'same-origin', 'same-origin']);
    expect(calls.map(({ init }) => (init.headers as Record<string, string>)['x-csrf-token'])).toEqual([
      undefined,
      undefined,
      'csrf-1',
    ]);
    expect(calls[0]?.init.body).toBe('{"name":"A"}');
    expect(calls[0]?.url).toBe('https://cw.example/api/v1/projects');
  });

  it('throws the service’s code and field problems, and reports a session that ended', async () => {
    const body = {
      error: {
        code: 'invalid_body',
        message: 'allowedOrigins[1]: must be an origin',
        details: [{ path: 'allowedOrigins[1]', message: 'must be an origin' }],
      },
    };
    const signedOut = vi.fn();
    let answer = json(400, body);
    const http = new ConsoleHttp({ baseUrl: '', fetch: recorder(() => answer).fetch, onSignedOut: signedOut });
    http.useCsrfToken('csrf-1');
    const error = await http.request('POST', '/x', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConsoleApiError);
    expect((error as ConsoleApiError).code).toBe('invalid_body');
    expect((error as ConsoleApiError).problemsOf('allowedOrigins')).toEqual(body.error.details);
    expect((error as ConsoleApiError).problemsOf('allowed')).toEqual([]);
    expect(signedOut).not.toHaveBeenCalled();

    answer = json(401, { error: { code: 'console_session_expired', message: 'Sign in again.' } });
    await expect(http.request('GET', '/x')).rejects.toMatchObject({ code: 'console_session_expired', signedOut: true });
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('says so when the service cannot be reached', async () => {
    const http = new ConsoleHttp({ baseUrl: '', fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(http.request('GET', '/x')).rejects.toMatchObject({ code: 'connection_error', status: 0 });
  });
});

describe('withQuery', () => {
  it('keeps strings and numbers that are set, and leaves out the rest', () => {
    expect(withQuery('/a', {})).toBe('/a');
    expect(withQuery('/a', { projectId: 'p 1', environment: '', from: undefined, limit: 5 })).toBe(
      '/a?projectId=p+1&limit=5',
    );
  });
});
