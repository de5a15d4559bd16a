import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  builtAssetTests,
  builtIndex,
  cspOf,
  expectAppPageHeaders,
  writeAppBuild,
} from '@chartwright/testing/app-build.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { testConfig } from '../config/config.js';

let appDir: string;
beforeAll(() => {
  appDir = writeAppBuild('console');
});
afterAll(() => rmSync(appDir, { recursive: true, force: true }));

let h: Harness;
afterEach(async () => {
  await h.close();
});

describe('GET /console', () => {
  beforeEach(async () => {
    h = await createHarness({ config: { console: { ...testConfig().console, appDir } } });
  });

  it('serves the app’s page, never cached and sending no Referer', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/console' });
    expect(response.statusCode).toBe(200);
    expectAppPageHeaders(response);
    expect(response.body).toBe(builtIndex('console'));
  });

  it('lets the page run only its own files, talk only to the service, and be framed by no one', async () => {
    const csp = cspOf(await h.app.inject({ method: 'GET', url: '/console' }));
    expect(Object.fromEntries(csp)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'frame-ancestors': ["'none'"],
      'form-action': ["'self'"],
      'base-uri': ["'none'"],
      'object-src': ["'none'"],
    });
  });

  it('needs no credential: the app asks the API who is signed in', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/console', headers: { cookie: 'cw_console=forged' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /console without a build', () => {
  beforeEach(async () => {
    h = await createHarness({ config: { console: { ...testConfig().console, appDir: join(appDir, 'missing') } } });
  });

  it('says how to build the app, framed by no one, and logs why', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/console' });
    expect(response.statusCode).toBe(503);
    expectAppPageHeaders(response);
    expect(cspOf(response).get('frame-ancestors')).toEqual(["'none'"]);
    expect(cspOf(response).get('default-src')).toEqual(["'none'"]);
    expect(response.body).toContain('npm run build -w @chartwright/console');
    expect(h.logs.text).toContain('the console app is not built');
  });
});

describe('GET /console/assets/{file}', () => {
  beforeEach(async () => {
    h = await createHarness({ config: { console: { ...testConfig().console, appDir } } });
  });

  builtAssetTests('console', () => h);
});
