import type { RealtimeServerEvent, TranscriptSegment } from '@chartwright/protocol';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

import { ManualClock } from '../clock.js';
import type { TranscriptSegmentRow, TranscriptSegmentsRepository } from '../store/realtime-sessions.js';
import type { TranscriptCorrectionsRepository } from '../store/transcript-corrections.js';
import { LogCapture } from '@chartwright/testing/harness.js';
import { createRepositories } from '../store/repositories.js';
import { openTestDatabase } from '@chartwright/testing/databases.js';
import { withDisplay } from './segment-view.js';
import { TranscriptPipeline } from './transcript-pipeline.js';

const segment = (seq: number, text = 'go forward'): TranscriptSegment =>
  withDisplay({ id: `seg_00000${seq}`, text, startMs: 0, endMs: 500, channel: 0, speaker: 'unknown' });

/** No roles swapped: finals go out as recognised. */
const noCorrections = { roles: () => Promise.resolve(new Map()) } as unknown as TranscriptCorrectionsRepository;

const SESSION_ROW = {
  project_id: 'proj_1',
  environment: 'test',
  credential_kind: 'api_key',
  api_key_id: null,
  partner_id: null,
  encounter_id: null,
  audio_format: JSON.stringify({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 }),
  language: 'en-US',
  created_at: 1,
  last_seen_at: 1,
  ended_at: null,
  end_reason: null,
  audio_ms: 0,
  committed_ms: null,
  cepstral_means: null,
} as const;

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
    corrections: noCorrections,
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

  it('stores a final as recognised and sends it with the role the clinician swapped for its voice', async () => {
    const opened = await openTestDatabase('sqlite');
    try {
      const repositories = createRepositories(opened.database);
      await repositories.projects.insert({ id: 'proj_1', name: 'Clinic', created_at: 1, organisation_id: 'org_1' });
      await repositories.realtimeSessions.insert({ ...SESSION_ROW, id: 'rts_1', resume_token_hash: 'hash-1' });
      await repositories.transcriptCorrections.setRoles([
        { session_id: 'rts_1', speaker_label: 'S1', speaker: 'patient', clinician_id: 'cln_1', updated_at: 1 },
      ]);
      const sent: RealtimeServerEvent[] = [];
      const finals = new TranscriptPipeline({
        segments: repositories.transcriptSegments,
        corrections: repositories.transcriptCorrections,
        clock: new ManualClock(),
        logger: pino({ level: 'silent' }),
        send: (event) => sent.push(event),
        failed: () => undefined,
        stored: () => undefined,
      });
      const said = withDisplay({ ...segment(1), speaker: 'clinician', speakerLabel: 'S1' });
      finals.add('rts_1', 1, said, false);
      finals.add('rts_1', 2, withDisplay({ ...segment(2), channel: 1, speaker: 'patient', speakerLabel: 'S2' }), false);
      await finals.drained();
      expect(sent).toEqual([
        { type: 'final', segment: { ...said, speaker: 'patient' } },
        { type: 'final', segment: expect.objectContaining({ speaker: 'patient', speakerLabel: 'S2' }) as unknown },
      ]);
      const stored = await repositories.transcriptSegments.listAfter('rts_1');
      expect(stored.map((row) => [row.speaker, row.speaker_label])).toEqual([
        ['clinician', 'S1'],
        ['patient', 'S2'],
      ]);
    } finally {
      await opened.dispose();
    }
  });
});
