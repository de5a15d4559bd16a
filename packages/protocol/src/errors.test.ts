import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { ERROR_CODES, ERROR_TYPES } from './errors.js';

const errorsDoc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

/** The `| \`code\` | status |` rows of docs/errors.md's code table. */
function documentedStatuses(): Map<string, number> {
  const rows = new Map<string, number>();
  for (const match of errorsDoc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)) {
    rows.set(match[1] ?? '', Number(match[2]));
  }
  return rows;
}

describe('error codes', () => {
  it('are each documented in docs/errors.md with their status', () => {
    const documented = documentedStatuses();
    for (const [code, spec] of Object.entries(ERROR_CODES)) {
      expect(documented.get(code), code).toBe(spec.status);
    }
  });

  it('take their status from their type', () => {
    for (const spec of Object.values(ERROR_CODES)) expect(spec.status).toBe(ERROR_TYPES[spec.type]);
  });
});
