import { fileURLToPath, pathToFileURL } from 'node:url';

import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

interface ImportBoundary {
  files: string[];
  forbidden: string[];
  message: string;
}

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const { IMPORT_BOUNDARIES, importBoundaryConfigs } = (await import(
  pathToFileURL(`${root}eslint/import-boundaries.js`).href
)) as {
  IMPORT_BOUNDARIES: ImportBoundary[];
  importBoundaryConfigs: (boundaries?: ImportBoundary[]) => Linter.Config[];
};

/** ESLint with nothing but the boundaries and a TypeScript parser. */
function boundariesOnly(boundaries?: ImportBoundary[]): ESLint {
  return new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
      ...importBoundaryConfigs(boundaries),
    ],
  });
}

async function problems(eslint: ESLint, filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result?.messages ?? [];
}

describe('import boundaries', () => {
  const eslint = boundariesOnly();

  it('refuses an import of store/ from http/, by path or by package name, types included', async () => {
    for (const code of [
      "import { openDatabase } from '../store/database.js';",
      "import type { EncounterRow } from '../../store/encounters.js';",
      "export { createRepositories } from '@chartwright/server/internal/store/repositories.js';",
    ]) {
      const found = await problems(eslint, 'packages/server/src/http/example.ts', code);
      expect(found, code).toEqual([
        expect.objectContaining({ ruleId: 'no-restricted-imports', severity: 2 }) as unknown,
      ]);
      expect(found[0]?.message).toContain('http/ is plumbing');
    }
  });

  it('refuses an import of encounters/ from partners/, and lets encounters/ import partners/', async () => {
    const code = "import type { EncounterRow } from '../encounters/owned-encounter.js';";
    expect(await problems(eslint, 'packages/server/src/partners/example.ts', code)).toEqual([
      expect.objectContaining({
        ruleId: 'no-restricted-imports',
        message: expect.stringContaining('Encounters build on partners') as unknown,
      }) as unknown,
    ]);
    const back = "import type { WidgetSession } from '../partners/widget-sessions.js';";
    expect(await problems(eslint, 'packages/server/src/encounters/example.ts', back)).toEqual([]);
  });

  it('lets http/ import the rest, and the rest import store/', async () => {
    expect(
      await problems(eslint, 'packages/server/src/http/example.ts', "import { AppError } from '../errors.js';"),
    ).toEqual([]);
    expect(
      await problems(
        eslint,
        'packages/server/src/encounters/example.ts',
        "import { openDatabase } from '../store/database.js';",
      ),
    ).toEqual([]);
  });

  it('keeps every boundary of a file that several bind', async () => {
    const overlapping = boundariesOnly([
      ...IMPORT_BOUNDARIES,
      {
        files: ['packages/server/src/**'],
        forbidden: ['^(\\.\\./)+tools/'],
        message: 'runtime code never imports tools',
      },
    ]);
    const code = "import { openDatabase } from '../store/database.js';\nimport { run } from '../tools/run.js';";
    const inHttp = await problems(overlapping, 'packages/server/src/http/example.ts', code);
    expect(inHttp.map((problem) => problem.line)).toEqual([1, 2]);
    const elsewhere = await problems(overlapping, 'packages/server/src/notes/example.ts', code);
    expect(elsewhere.map((problem) => problem.line)).toEqual([2]);
  });

  it('is part of the repository’s lint configuration', async () => {
    const file = 'packages/server/src/http/route.ts';
    const config = (await new ESLint({ cwd: root }).calculateConfigForFile(file)) as Linter.Config;
    const [, expected] = importBoundaryConfigs()[0]?.rules?.['no-restricted-imports'] as [string, unknown];
    expect(config.rules?.['no-restricted-imports']).toEqual([2, expected]);
  });
});
