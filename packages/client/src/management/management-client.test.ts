import { describe, expect, it } from 'vitest';

import { ChartwrightError, PermissionDeniedError } from '../errors.js';
import { CLIENT_VERSION } from '../core/version.js';
import { recordingFetch, unanswered } from '../test-support/server.js';
import { ManagementClient, type ManagementClientOptions } from './management-client.js';

// Transport behaviour only, with a fake fetch; what the service answers is in management.test.ts.
const ADMIN_TOKEN = 'cw_admin_0123456789abcdefghijklmnopqrstuv';
const BASE_URL = 'https://chartwright.example.org';

function construct(options: unknown): unknown {
  try {
    return new ManagementClient(options as ManagementClientOptions);
  } catch (error) {
    return error;
  }
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }),
  );
}

/** A management client whose every attempt `answer` settles, by attempt number. */
function client(
  answer: (attempt: number, init: RequestInit) => Promise<Response>,
  options: Partial<ManagementClientOptions> = {},
) {
  const recorded = recordingFetch((attempt, init) => answer(attempt, init));
  const management = new ManagementClient({
    adminToken: ADMIN_TOKEN,
    baseUrl: BASE_URL,
    fetch: recorded.fetch,
    ...options,
  });
  return { management, attempts: recorded.attempts };
}

/** What Node's fetch throws when nothing listens at the address: the request never left. */
function refused(): Promise<Response> {
  return Promise.reject(
    new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
  );
}

/** A connection reset after the request was sent: the service may have acted on it. */
function reset(): Promise<Response> {
  return Promise.reject(
    new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }),
  );
}

const serviceError = (status: number, code: string, headers: Record<string, string> = {}) =>
  json({ error: { code, type: 'api_error', message: 'Try again.', requestId: 'req_1' } }, status, headers);

describe('constructing a ManagementClient', () => {
  it.each(['sk_test_abcdefghijklmnop', 'sk_live_abcdefghijklmnop', 'svc_rt_abcdefghijklmnop'])(
    'refuses the project credential %s with the service’s code, without echoing it',
    (credential) => {
      const error = construct({ adminToken: credential, baseUrl: BASE_URL });
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect(error).toMatchObject({ status: 403, code: 'project_credential_not_allowed' });
      expect((error as Error).message).toMatch(/cw_admin_/);
      expect((error as Error).message).not.toContain(credential);
    },
  );

  it('refuses anything that is not an admin token, and reports every bad option at once', () => {
    const error = construct({ adminToken: 'Bearer something', timeout: 0, maxRetries: -1 });
    expect(error).toBeInstanceOf(ChartwrightError);
    expect(error).toMatchObject({ code: 'invalid_client_options' });
    const { message } = error as Error;
    for (const name of [
      'adminToken: must be an organisation admin token (cw_admin_…)',
      'baseUrl: is required',
      'timeout:',
      'maxRetries:',
    ]) {
      expect(message).toContain(name);
    }
    expect(message).not.toContain('something');
    expect(construct(undefined)).toMatchObject({
      code: 'invalid_client_options',
      message: expect.stringContaining('adminToken: is required'),
    });
  });

  it('strips a trailing slash from baseUrl', () => {
    expect(new ManagementClient({ adminToken: ADMIN_TOKEN, baseUrl: `${BASE_URL}//` }).baseUrl).toBe(BASE_URL);
  });
});

describe('requests', () => {
  it('send the admin token, the library’s headers, the method, the path and the JSON body', async () => {
    const { management, attempts } = client(() => json({ id: 'ptn_1' }), { defaultHeaders: { 'x-team': 'ops' } });
    await management.partners.update('prj 1', 'ptn/1', { allowedOrigins: ['https://emr.example.com'] });
    const [attempt] = attempts;
    expect(attempt).toMatchObject({
      method: 'PATCH',
      url: `${BASE_URL}/api/v1/projects/prj%201/partners/ptn%2F1`,
      body: JSON.stringify({ allowedOrigins: ['https://emr.example.com'] }),
    });
    expect(Object.fromEntries(attempt!.headers)).toMatchObject({
      authorization: `Bearer ${ADMIN_TOKEN}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'x-team': 'ops',
      'x-chartwright-client': `chartwright-client-js/${CLIENT_VERSION} node/${process.version}`,
    });
  });

  it('put the parameters given in the query string, and leave the undefined ones out', async () => {
    const { management, attempts } = client(() => json([]));
    await management.keys.list('prj_1', { environment: 'live' });
    await management.usage.list({ projectId: 'prj_1', from: '2026-11-01' });
    await management.auditEvents.list({ action: 'revoke', limit: 50, since: undefined });
    await management.projects.list();
    expect(attempts.map((attempt) => attempt.url.slice(BASE_URL.length))).toEqual([
      '/api/v1/projects/prj_1/keys?environment=live',
      '/api/v1/usage?projectId=prj_1&from=2026-11-01',
      '/api/v1/audit-events?action=revoke&limit=50',
      '/api/v1/projects',
    ]);
  });

  it('fail before any request when an id is empty', async () => {
    const { management, attempts } = client(() => json({}));
    await expect(management.keys.rotate('prj_1', '')).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('keyId'),
    });
    await expect(management.keys.list('')).rejects.toBeInstanceOf(ChartwrightError);
    await expect(management.partners.revoke('prj_1', undefined as unknown as string)).rejects.toThrow(/partnerId/);
    await expect(management.usage.list('prj_1' as never)).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(attempts).toHaveLength(0);
  });

  it('return an export’s CSV as text, asking for CSV', async () => {
    const csv = 'projectId,environment,day\nprj_1,test,2026-11-27\n';
    const { management, attempts } = client(() =>
      Promise.resolve(new Response(csv, { headers: { 'content-type': 'text/csv; charset=utf-8' } })),
    );
    await expect(management.usage.exportCsv({ environment: 'test' })).resolves.toBe(csv);
    expect(attempts[0]!.headers.get('accept')).toBe('text/csv');
    expect(attempts[0]!.url).toBe(`${BASE_URL}/api/v1/usage/export?environment=test`);
  });
});

describe('retries', () => {
  it('retry a read after a 5xx, as every call of the library', async () => {
    const { management, attempts } = client((attempt) =>
      attempt === 1 ? serviceError(503, 'service_unavailable', { 'retry-after-ms': '0' }) : json([]),
    );
    await expect(management.projects.list()).resolves.toEqual([]);
    expect(attempts).toHaveLength(2);
  });

  it('retry a create after any failure a retry may mend, with one Idempotency-Key on every attempt', async () => {
    const issued = { key: { id: 'key_1' }, secret: 'sk_live_x' };
    const failures: [string, (init: RequestInit) => Promise<Response>][] = [
      ['a 503', () => serviceError(503, 'service_unavailable', { 'retry-after-ms': '0' })],
      ['a 409', () => serviceError(409, 'idempotency_key_in_use', { 'retry-after-ms': '0' })],
      ['a 429', () => serviceError(429, 'rate_limited', { 'retry-after-ms': '0' })],
      ['a reset connection', reset],
      ['a refused connection', refused],
      ['a timeout', unanswered],
    ];
    for (const [, failure] of failures) {
      const { management, attempts } = client((attempt, init) => (attempt === 1 ? failure(init) : json(issued, 201)), {
        timeout: 20,
      });
      await expect(management.keys.create('prj_1', { environment: 'live' })).resolves.toEqual(issued);
      const [first, second] = attempts.map((attempt) => attempt.headers.get('idempotency-key'));
      expect(attempts).toHaveLength(2);
      expect(first).toMatch(/^[0-9a-f-]{36}$/);
      expect(second).toBe(first);
    }
  });

  it('send a new key with every create, and the caller’s own when given', async () => {
    const { management, attempts } = client(() => json({ id: 'prj_1' }, 201));
    await management.projects.create({ name: 'Clinic' });
    await management.keys.rotate('prj_1', 'key_1');
    await management.partners.create(
      'prj_1',
      { environment: 'test', name: 'EMR', allowedOrigins: ['https://emr.example.com'] },
      { idempotencyKey: 'partner-emr-1' },
    );
    await management.partners.rotateSecret('prj_1', 'ptn_1');
    await management.projects.list();
    const keys = attempts.map((attempt) => attempt.headers.get('idempotency-key'));
    expect(new Set(keys.slice(0, 4)).size).toBe(4);
    expect(keys[2]).toBe('partner-emr-1');
    expect(keys[4]).toBeNull();
  });

  it('retry a create’s 409 only while its Idempotency-Key is in use: any other conflict is its answer', async () => {
    const issued = { key: { id: 'key_1' }, secret: 'sk_live_x' };
    const busy = client((attempt) =>
      attempt === 1 ? serviceError(409, 'idempotency_key_in_use', { 'retry-after-ms': '0' }) : json(issued, 201),
    );
    await expect(busy.management.keys.create('prj_1', { environment: 'live' })).resolves.toEqual(issued);
    expect(busy.attempts).toHaveLength(2);
    for (const code of ['idempotency_key_reused', 'api_key_not_active']) {
      const { management, attempts } = client(() => serviceError(409, code, { 'retry-after-ms': '0' }));
      await expect(management.keys.rotate('prj_1', 'key_1')).rejects.toMatchObject({ status: 409, code });
      expect(attempts).toHaveLength(1);
    }
  });
});

describe('auditEvents.iterate', () => {
  it('yields every record of every page, asking for the next page with the cursor and the same filters', async () => {
    const event = (id: string) => ({ id });
    const pages: Record<string, unknown> = {
      '': { data: [event('aud_3'), event('aud_2')], nextCursor: '2' },
      '2': { data: [event('aud_1')], nextCursor: null },
    };
    const { management, attempts } = client((attempt) => json(pages[attempt === 1 ? '' : '2']));
    const ids: string[] = [];
    for await (const record of management.auditEvents.iterate({ resourceType: 'api_key', limit: 2 }))
      ids.push(record.id);
    expect(ids).toEqual(['aud_3', 'aud_2', 'aud_1']);
    expect(attempts.map((attempt) => attempt.url.slice(BASE_URL.length))).toEqual([
      '/api/v1/audit-events?resourceType=api_key&limit=2',
      '/api/v1/audit-events?resourceType=api_key&limit=2&cursor=2',
    ]);
  });

  it('fetches no page the loop does not reach', async () => {
    const { management, attempts } = client(() => json({ data: [{ id: 'aud_9' }, { id: 'aud_8' }], nextCursor: '8' }));
    for await (const record of management.auditEvents.iterate()) {
      expect(record.id).toBe('aud_9');
      break;
    }
    expect(attempts).toHaveLength(1);
  });
});
