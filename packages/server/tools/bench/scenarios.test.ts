import { describe, expect, it } from 'vitest';

import { UsageError } from '@chartwright/server/internal/cli/usage.js';
import { SCENARIOS, selectScenarios } from './scenarios.js';

const names = (only: string | undefined) => selectScenarios(SCENARIOS, only).map((scenario) => scenario.name);

describe('BENCH_ONLY', () => {
  it('runs every scenario when unset or empty', () => {
    expect(names(undefined)).toEqual(SCENARIOS.map((scenario) => scenario.name));
    expect(names(' , ')).toHaveLength(SCENARIOS.length);
  });

  it('runs the scenarios a part of whose name it gives, with their baselines, in the usual order', () => {
    expect(names('widget')).toEqual([
      'bare Fastify: GET templates',
      'GET /api/v1/templates (key auth)',
      'POST /api/widget/token (partner key)',
    ]);
    expect(names('Neighbour Posting, 4 streams')).toEqual([
      'realtime, 1 stream at 1× (end of speech → final)',
      'realtime, 4 streams at 1× (end of speech → final)',
      'isolation: 16 realtime streams, neighbour quiet',
      'isolation: 16 realtime streams, neighbour posting 15k-word notes',
    ]);
  });

  it('names the scenarios when it matches none', () => {
    expect(() => names('nothing like this')).toThrow(UsageError);
    expect(() => names('nothing like this')).toThrow(/bare Fastify: GET templates/);
  });
});
