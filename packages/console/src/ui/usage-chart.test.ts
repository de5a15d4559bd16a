import type { UsageDay } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import { dailyTotals, metricValue } from './usage-chart.js';

const day = (projectId: string, environment: 'test' | 'live', date: string, figures: Partial<UsageDay>): UsageDay => ({
  projectId,
  environment,
  day: date,
  restRequests: 0,
  notesGenerated: 0,
  realtimeAudioSeconds: 0,
  widgetTokens: 0,
  ...figures,
});

describe('usage figures', () => {
  it('shows realtime audio in minutes, to a tenth', () => {
    expect(metricValue(day('p', 'test', '2026-01-01', { realtimeAudioSeconds: 95 }), 'realtimeAudioSeconds')).toBe(1.6);
    expect(metricValue(day('p', 'test', '2026-01-01', { restRequests: 7 }), 'restRequests')).toBe(7);
  });

  it('adds every project environment up per day, oldest day first', () => {
    const rows = [
      day('p1', 'live', '2026-01-02', { restRequests: 5 }),
      day('p1', 'test', '2026-01-01', { restRequests: 2 }),
      day('p2', 'live', '2026-01-02', { restRequests: 1 }),
    ];
    expect(dailyTotals(rows, 'restRequests')).toEqual([
      { day: '2026-01-01', value: 2 },
      { day: '2026-01-02', value: 6 },
    ]);
  });
});
