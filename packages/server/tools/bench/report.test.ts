import { describe, expect, it } from 'vitest';

import { detailLines, type ScenarioResult } from './report.js';

const result = (name: string, detail: string | undefined, problems: string[] = []): ScenarioResult => ({
  scenario: { name, measure: () => Promise.reject(new Error('not run here')) },
  measurement: {
    responses: 1,
    seconds: 1,
    requestsPerSecond: 1,
    p50Ms: 1,
    p95Ms: 1,
    p99Ms: 1,
    problems,
    ...(detail === undefined ? {} : { detail }),
  },
});

describe('the lines under the bench table', () => {
  it("name each scenario's detail, and leave out scenarios without one or whose run failed", () => {
    expect(
      detailLines([
        result('plain', undefined),
        result('realtime, 16 streams', 'recognizer real-time factor 0.075'),
        result('realtime, broken', 'recognizer real-time factor 0.1', ['socket error']),
      ]),
    ).toEqual(['realtime, 16 streams: recognizer real-time factor 0.075']);
  });
});
