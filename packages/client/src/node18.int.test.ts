import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAdminToken, setUpOwner } from '@chartwright/testing/console.js';

import { NODE18 } from './test-support/node18.js';
import { startTestServer, type TestServer } from './test-support/server.js';

const compat = join(dirname(fileURLToPath(import.meta.url)), '..', 'compat');
const run = promisify(execFile);

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer();
  adminToken = (await createAdminToken(await setUpOwner(server.harness), 'auditor')).secret;
});
afterAll(async () => {
  await server.close();
});

describe.each([
  ['import (ESM)', 'node18-esm.mjs'],
  ['require (CJS)', 'node18-cjs.cjs'],
])('the built package on Node 18 through %s', (_label, script) => {
  it('lists templates, creates notes (from segments too, retrieved with facts), maps errors, refuses a temporary token without a request, and manages with an admin token', async () => {
    const { stdout } = await run(NODE18, [join(compat, script)], {
      env: {
        CHARTWRIGHT_BASE_URL: server.baseUrl,
        CHARTWRIGHT_API_KEY: server.harness.project.testKey,
        CHARTWRIGHT_ADMIN_TOKEN: adminToken,
      },
    });
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(report['node']).toMatch(/^v18\./);
    expect(report['templateIds']).toContain('soap');
    expect(report['note']).toEqual({ object: 'note', templateId: 'soap', hasCreatedAt: true });
    // The "no" heard at 0.4 is flagged; every note is verified; the facts come when asked.
    expect(report['concise']).toEqual({
      style: 'concise',
      flags: ['low_confidence_word'],
      verified: true,
      facts: true,
    });
    expect(report['unknownKey']).toEqual({
      name: 'AuthenticationError',
      isChartwrightError: true,
      isAuthenticationError: true,
      isPermissionDeniedError: false,
      status: 401,
      code: 'invalid_api_key',
      hasRequestId: true,
    });
    expect(report['temporaryToken']).toEqual({
      name: 'PermissionDeniedError',
      isChartwrightError: true,
      isAuthenticationError: false,
      isPermissionDeniedError: true,
      status: 403,
      code: 'temporary_token_not_allowed',
      hasRequestId: false,
      fetchCalls: 0,
    });
    // The management client: an admin token reads the organisation; a project key never leaves.
    expect(report['management']).toEqual({
      projectIds: [server.harness.project.id],
      auditPage: { records: 1, hasNextCursor: true },
      projectKey: {
        name: 'PermissionDeniedError',
        isChartwrightError: true,
        isAuthenticationError: false,
        isPermissionDeniedError: true,
        status: 403,
        code: 'project_credential_not_allowed',
        hasRequestId: false,
      },
    });
  });
});
