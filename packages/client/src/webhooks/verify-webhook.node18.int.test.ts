import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { NODE18 } from '../test-support/node18.js';

const run = promisify(execFile);
const BUILT = (format: 'esm' | 'cjs') => fileURLToPath(new URL(`../../dist/${format}/index.js`, import.meta.url));

/** Signs a body as the service does, verifies it and a tampered copy, and prints what came of both. */
const SCRIPT = (load: string) => `
${load}
const { createHmac } = require('node:crypto');
const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'note.ready', environment: 'test',
  created_at: '2026-05-01T12:00:00.000Z', data: { note: { id: 'note_1', template_id: 'soap' } } });
const t = Math.floor(Date.now() / 1000);
const headers = { 'chartwright-signature': 't=' + t + ',v1=' + createHmac('sha256', 'whsec_k').update(t + '.' + body).digest('hex') };
(async () => {
  const event = await verifyWebhook(body, headers, 'whsec_k');
  const tampered = await verifyWebhook(body.replace('soap', 'soaq'), headers, 'whsec_k').catch((error) => error.code);
  process.stdout.write(JSON.stringify({ node: process.version, templateId: event.data.note.templateId, tampered }));
})();
`;

describe('verifyWebhook on Node 18, which has no global Web Crypto', () => {
  it.each([
    ['require (CJS)', `const { verifyWebhook } = require(${JSON.stringify(BUILT('cjs'))});`, 'commonjs'],
    ['import (ESM)', `const { verifyWebhook } = await import(${JSON.stringify(BUILT('esm'))});`, 'module'],
  ])('verifies through %s', async (_label, load, inputType) => {
    // In a module, `require` and top-level await come from createRequire and an async wrapper.
    const script =
      inputType === 'module'
        ? `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${SCRIPT(load)}`
        : SCRIPT(load);
    const { stdout } = await run(NODE18, ['--input-type', inputType, '-e', script]);
    expect(JSON.parse(stdout)).toEqual({
      node: expect.stringMatching(/^v18\./) as unknown,
      templateId: 'soap',
      tampered: 'webhook_signature_invalid',
    });
  });
});
