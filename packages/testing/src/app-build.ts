import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';

import type { Harness } from './harness.js';

/** The build's script, with a gzip copy beside it as Vite's build leaves it. */
export const BUILT_SCRIPT = { file: 'index-Yo1wLI0K.js', text: 'document.title = "built";\n' };
/** The build's stylesheet, without a gzip copy: it goes out plain whatever the browser accepts. */
export const BUILT_STYLE = { file: 'index-CvM_PX9O.css', text: 'body { margin: 0; }\n' };

/** The index.html of the `app` ('widget', 'console') the server serves at `/<app>`. */
export const builtIndex = (app: string): string => `<!doctype html>
<html lang="en">
  <head>
    <title>Chartwright ${app}</title>
    <script type="module" crossorigin src="/${app}/assets/${BUILT_SCRIPT.file}"></script>
  </head>
  <body><div id="app"></div></body>
</html>
`;

/** A build of `app` as Vite lays it out, in a new temporary folder (the caller removes it): its path. */
export function writeAppBuild(app: string): string {
  const appDir = mkdtempSync(join(tmpdir(), `chartwright-${app}-build-`));
  mkdirSync(join(appDir, 'assets'));
  writeFileSync(join(appDir, 'index.html'), builtIndex(app));
  writeFileSync(join(appDir, 'assets', BUILT_SCRIPT.file), BUILT_SCRIPT.text);
  writeFileSync(join(appDir, 'assets', `${BUILT_SCRIPT.file}.gz`), gzipSync(BUILT_SCRIPT.text));
  writeFileSync(join(appDir, 'assets', BUILT_STYLE.file), BUILT_STYLE.text);
  return appDir;
}

/** Each directive of the response's CSP with its sources; a directive given twice fails the test. */
export function cspOf(response: LightMyRequestResponse): Map<string, string[]> {
  const csp = response.headers['content-security-policy'] ?? '';
  const entries = csp.split(';').map((entry): [string, string[]] => {
    const [name = '', ...sources] = entry.trim().split(/\s+/);
    return [name, sources];
  });
  const directives = new Map(entries);
  expect(directives.size, csp).toBe(entries.length);
  return directives;
}

/** The headers every answer of an app's page carries: HTML, never cached, sending no Referer, never sniffed. */
export function expectAppPageHeaders(response: LightMyRequestResponse): void {
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

/**
 * The tests `/<app>/assets/{file}` passes for either app, on the harness `current()` returns (made
 * by the caller's hooks, with the build of `writeAppBuild(app)`).
 */
export function builtAssetTests(app: string, current: () => Harness): void {
  const asset = (file: string, headers: Record<string, string> = {}) =>
    current().app.inject({ method: 'GET', url: `/${app}/assets/${file}`, headers });

  it('serves the build’s files with their type, cached for a year (their names change with their content)', async () => {
    const script = await asset(BUILT_SCRIPT.file);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.body).toBe(BUILT_SCRIPT.text);
    expect((await asset(BUILT_STYLE.file)).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('sends the build’s gzip copy to a browser that accepts gzip, and the plain file otherwise', async () => {
    const compressed = await asset(BUILT_SCRIPT.file, { 'accept-encoding': 'gzip, deflate, br' });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['vary']).toBe('accept-encoding');
    expect(gunzipSync(compressed.rawPayload).toString('utf8')).toBe(BUILT_SCRIPT.text);
    const plain = await asset(BUILT_STYLE.file, { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BUILT_STYLE.text);
  });

  it('answers 404 for a file the build does not have, and for any name that is not a plain asset name', async () => {
    for (const file of [
      'index-missing.js',
      `${BUILT_SCRIPT.file}.gz`,
      'index.html',
      '..%2Findex.html',
      '%2E%2E%2F%2E%2E%2Fpackage.json',
      'a.exe',
    ]) {
      const response = await asset(file);
      expect(response.statusCode, file).toBe(404);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('route_not_found');
    }
  });
}
