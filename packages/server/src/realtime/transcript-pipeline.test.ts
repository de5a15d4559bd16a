import type { RealtimeServerEvent, TranscriptSegment } from '@chartwright/protocol';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

import { ManualClock } from '../clock.js';
import type { TranscriptSegmentRow, TranscriptSegmentsRepository } from '../store/realtime-sessions.js';
import { LogCapture } from '@chartwright/testing/harness.js';
import { TranscriptPipeline } from './transcript-pipeline.js';

const segment = (seq: number, text = 'go forward'): TranscriptSegment => ({
  id: `seg_00000${seq}`,
  text,
  startMs: 0,
  endMs: 500,
  channel: 0,
  speaker: 'unknown',
});

/** A segments table whose inserts wait until released, and fail when told to. */
function slowSegments(failing: ReadonlySet<number> = new Set()) {
  const stored: TranscriptSegmentRow[] = [];
  const waiting: (() => void)[] = [];
  const repository = {
    insert: (row: TranscriptSegmentRow) =>
      new Promise<void>((resolve, reject) => {
        waiting.push(() => {
          if (failing.has(row.seq)) reject(new Error(`insert ${row.seq} failed`));
          else {
            stored.push(row);
            resolve();
          }
        });
      }),
  } as unknown as TranscriptSegmentsRepository;
  const release = async () => {
    for (let i = 0; i < 20; i++) {
      waiting.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { repository, stored, release };
}

function pipeline(segments: TranscriptSegmentsRepository) {
  const sent: RealtimeServerEvent[] = [];
  const logs = new LogCapture();
  let failures = 0;
  const stored: number[] = [];
  const finals = new TranscriptPipeline({
    segments,
    clock: new ManualClock(),
    logger: pino({ level: 'info' }, logs),
    send: (event) => sent.push(event),
    failed: () => failures++,
    stored: (seq) => stored.push(seq),
  });
  return { finals, sent, stored, logs, failures: () => failures };
}

describe('TranscriptPipeline', () => {
  it('sends each final only once it is stored, in order', async () => {
    const table = slowSegments();
    const { finals, sent } = pipeline(table.repository);
    finals.add('rts_1', 1, segment(1), false);
    finals.add('rts_1', 2, segment(2), false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
    await table.release();
    expect(table.stored.map((row) => [row.seq, row.id, row.session_id])).toEqual([
      [1, 'seg_000001', 'rts_1'],
      [2, 'seg_000002', 'rts_1'],
    ]);
    expect(sent).toEqual([
      { type: 'final', segment: segment(1) },
      { type: 'final', segment: segment(2) },
    ]);
  });

  it('stores a provisional segment marked so and never sends it; reports each stored seq', async () => {
    const table = slowSegments();
    const { finals, sent, stored } = pipeline(table.repository);
    finals.add('rts_1', 1, segment(1), false);
    finals.add('rts_1', 2, segment(2), true);
    await table.release();
    expect(table.stored.map((row) => [row.seq, row.provisional])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(sent).toEqual([{ type: 'final', segment: segment(1) }]);
    expect(stored).toEqual([1, 2]);
  });

  it('stores and sends nothing after a segment could not be stored, says so once, and logs no transcript', async () => {
    const table = slowSegments(new Set([2]));
    const { finals, sent, logs, failures } = pipeline(table.repository);
    for (const seq of [1, 2, 3]) finals.add('rts_1', seq, segment(seq, 'chest pain since Tuesday'), false);
    await table.release();
    expect(sent.map((event) => (event.type === 'final' ? event.segment.id : event.type))).toEqual(['seg_000001']);
    expect(table.stored).toHaveLength(1);
    expect(failures()).toBe(1);
    expect(logs.text).toContain('realtime segment not stored');
    expect(logs.text).toContain('seg_000002');
    expect(logs.text).not.toContain('chest pain');
  });

  it('is drained only once every final, also one added while it drains, is stored and sent', async () => {
    const table = slowSegments();
    const { finals, sent } = pipeline(table.repository);
    finals.add('rts_1', 1, segment(1), false);
    let drained = false;
    const draining = finals.drained().then(() => (drained = true));
    finals.add('rts_1', 2, segment(2), false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    await table.release();
    await draining;
    expect(sent).toHaveLength(2);
  });
});
