import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { SERVICE_VERSION } from './version.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What `npm pack` would put in the server's package (dist is built by `npm test` first). */
function packedFiles(): string[] {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const report = JSON.parse(
    execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageDir, encoding: 'utf8' }),
  ) as { files: { path: string }[] }[];
  return (report[0]?.files ?? []).map((file) => file.path);
}

describe('the server package', () => {
  const files = packedFiles();

  it('ships the service, its CLI and its models, and none of the dev-time tools', () => {
    expect(files).toContain('dist/main.js');
    expect(files).toContain('bin/chartwright.js');
    expect(files).toContain('models/manifest.json');
    for (const file of files) expect(file).toMatch(/^(dist|bin|models)\/|^package\.json$|^README\.md$/);
  });

  it('builds only what src/ holds into dist: no bench, evaluation or model builder', () => {
    const compiled = files.filter((file) => file.startsWith('dist/') && file.endsWith('.js'));
    expect(compiled.length).toBeGreaterThan(50);
    for (const file of compiled) {
      const source = join(packageDir, 'src', file.slice('dist/'.length).replace(/\.js$/, '.ts'));
      expect(existsSync(source), `${file} has no source in src/`).toBe(true);
    }
    expect(compiled.filter((file) => /\/(eval|bench|vocabulary)\/|build-cli|learn-weights/.test(file))).toEqual([]);
  });

  it('reports its package version (scripts/sync-versions.mjs sets it after `changeset version`)', () => {
    const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
    expect(SERVICE_VERSION).toBe(version);
  });
});
