import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { lintOpenApi } from '../../../../scripts/lint-openapi.mjs';

interface Document {
  paths: Record<string, Record<string, { parameters?: unknown[] }>>;
  components: { schemas: Record<string, unknown> };
}

/**
 * Redocly CLI's recommended rules (redocly.yaml) on the document the service serves: SDK generators
 * and validators take it as it is. `npm run lint` lints the default configuration's document the
 * same way (scripts/lint-openapi.mjs).
 */
describe('the OpenAPI document the service serves, linted by Redocly', () => {
  let h: Harness;
  let folder: string;
  let served: Document;

  beforeAll(async () => {
    h = await createHarness();
    folder = mkdtempSync(join(tmpdir(), 'chartwright-openapi-lint-'));
    served = (await h.request({ method: 'GET', url: '/api/v1/openapi.json' })).json<Document>();
  });
  afterAll(async () => {
    await h.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const lint = (document: Document, name: string) => {
    const path = join(folder, `${name}.json`);
    writeFileSync(path, JSON.stringify(document));
    return lintOpenApi(path);
  };

  it('has no error and no warning', () => {
    expect(lint(served, 'served')).toEqual([]);
  });

  it('would report an undeclared path parameter (an error) and an unused schema (a warning)', () => {
    const broken = structuredClone(served);
    const retrieve = broken.paths['/api/v1/notes/{id}']?.['get'];
    if (retrieve === undefined) throw new Error('GET /api/v1/notes/{id} is not documented');
    retrieve.parameters = (retrieve.parameters ?? []).filter(
      (parameter) => (parameter as { in: string }).in !== 'path',
    );
    broken.components.schemas['Unused'] = { type: 'string' };
    const problems = lint(broken, 'broken');
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ruleId: 'path-parameters-defined', severity: 'error' }),
        expect.objectContaining({
          ruleId: 'no-unused-components',
          severity: 'warn',
          pointer: '#/components/schemas/Unused',
        }),
      ]),
    );
  });
});
