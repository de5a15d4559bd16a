import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

// The built package (dist), as npm would publish it.
describe('the published package', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(packageDir, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
  }, 60_000);

  it('passes publint with no error, warning or suggestion', async () => {
    const { messages, pkg } = await publint({ pkgDir: packageDir, pack: 'npm', level: 'suggestion' });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  });
});
