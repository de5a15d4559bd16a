import { describe, expect, it } from 'vitest';

import { sampleValue } from '@chartwright/testing/metrics.js';

import { Metrics } from './metrics.js';

describe('Metrics', () => {
  it('prefixes every name, and reads values at each scrape, at once or after a wait', async () => {
    const metrics = new Metrics();
    let depth = 3;
    metrics.gauge({ name: 'queue_depth', help: 'Jobs waiting.', read: (record) => record(depth) });
    metrics.counter({
      name: 'jobs_total',
      help: 'Jobs by outcome.',
      labelNames: ['outcome'],
      read: async (record) => {
        await Promise.resolve();
        record(depth * 2, { outcome: 'done' });
      },
    });
    expect(sampleValue(await metrics.render(), 'chartwright_queue_depth')).toBe(3);
    depth = 5;
    const text = await metrics.render();
    expect(sampleValue(text, 'chartwright_queue_depth')).toBe(5);
    expect(sampleValue(text, 'chartwright_jobs_total', { outcome: 'done' })).toBe(10);
  });

  it('leaves a metric whose read fails empty, and serves the others', async () => {
    const metrics = new Metrics();
    metrics.gauge({
      name: 'queue_depth',
      help: 'Jobs waiting, from a store that is down.',
      labelNames: ['kind'],
      read: async (record) => {
        record(1, { kind: 'note' });
        await Promise.reject(new Error('the store is down'));
      },
    });
    metrics.counter({ name: 'notes_total', help: 'Notes.' }).inc(2);
    const text = await metrics.render();
    expect(sampleValue(text, 'chartwright_queue_depth', { kind: 'note' })).toBeUndefined();
    expect(sampleValue(text, 'chartwright_notes_total')).toBe(2);
  });
});
