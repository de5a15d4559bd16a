import { join } from 'node:path';

import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

import { importBoundaries } from './import-boundaries.js';

const root = join(import.meta.dirname, '..');

/** Lints `code` as if it were the file at `path` (repository-relative), with the boundary rule alone. */
async function problems(path: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { boundaries: importBoundaries },
        rules: { 'boundaries/imports': 'error' },
      },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('the import boundaries lint rule', () => {
  it.each([
    ['the service importing a tool', 'packages/server/src/notes/x.ts', "import { x } from '../../tools/bench/run.js';"],
    [
      'the service importing a tool by name',
      'packages/server/src/app.ts',
      "import '@chartwright/server/tools/speech/flite.js';",
    ],
    [
      'the recognizer importing the notes engine',
      'packages/server/src/asr/x.ts',
      "import { y } from '../notes/render.js';",
    ],
    [
      'the notes engine importing the recognizer',
      'packages/server/src/notes/x.ts',
      "export { z } from '../asr/wav.js';",
    ],
    [
      'runtime code importing test support',
      'packages/client/src/x.ts',
      "import { h } from '@chartwright/testing/harness.js';",
    ],
    [
      'a test reaching into another package',
      'packages/widget/src/x.test.ts',
      "await import('../../server/src/app.js');",
    ],
  ])('refuses %s', async (_name, path, code) => {
    expect(await problems(path, code)).toHaveLength(1);
  });

  it.each([
    ['a module of the same folder', 'packages/server/src/asr/x.ts', "import { y } from './wav.js';"],
    ['shared text code', 'packages/server/src/notes/x.ts', "import { y } from '../text/wer.js';"],
    [
      'a tool importing the service',
      'packages/server/tools/bench/x.ts',
      "import { y } from '@chartwright/server/internal/app.js';",
    ],
    [
      'a test importing test support and a tool',
      'packages/server/src/x.test.ts',
      "import '@chartwright/testing/speech.js';",
    ],
    [
      'encounters building on partners',
      'packages/server/src/encounters/x.ts',
      "import { y } from '../partners/guards.js';",
    ],
    ['another package by its name', 'packages/widget/src/x.ts', "import { y } from '@chartwright/client';"],
  ])('allows %s', async (_name, path, code) => {
    expect(await problems(path, code)).toEqual([]);
  });
});
