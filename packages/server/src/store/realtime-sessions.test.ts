import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openTestDatabase, TEST_DIALECTS, type TestDatabase } from '@chartwright/testing/databases.js';
import type { RealtimeSessionRow, TranscriptSegmentRow } from './realtime-sessions.js';
import { createRepositories, type Repositories } from './repositories.js';

/** Larger than 2^31: bigint columns must come back as exact numbers. */
const T0 = 1767225600000;

function session(id: string, overrides: Partial<RealtimeSessionRow> = {}): RealtimeSessionRow {
  return {
    id,
    project_id: 'proj_a',
    environment: 'test',
    credential_kind: 'api_key',
    api_key_id: 'key_1',
    partner_id: null,
    encounter_id: null,
    resume_token_hash: `resume_hash_${id}`,
    audio_format: JSON.stringify({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 }),
    language: 'en-US',
    created_at: T0,
    last_seen_at: T0,
    ended_at: null,
    end_reason: null,
    audio_ms: 0,
    committed_ms: null,
    cepstral_means: null,
    ...overrides,
  };
}

function segment(sessionId: string, seq: number, overrides: Partial<TranscriptSegmentRow> = {}): TranscriptSegmentRow {
  return {
    session_id: sessionId,
    seq,
    id: `seg_${String(seq).padStart(6, '0')}`,
    text: `utterance ${seq}`,
    start_ms: seq * 1000,
    end_ms: seq * 1000 + 800,
    channel: 0,
    speaker: 'unknown',
    speaker_label: null,
    words: JSON.stringify([{ word: 'utterance', startMs: seq * 1000, endMs: seq * 1000 + 400 }]),
    provisional: 0,
    created_at: T0 + seq,
    ...overrides,
  };
}

describe.each(TEST_DIALECTS)('realtime session repositories on %s', (dialect) => {
  let testDb: TestDatabase;
  let repos: Repositories;

  beforeEach(async () => {
    testDb = await openTestDatabase(dialect);
    repos = createRepositories(testDb.database);
    await repos.projects.insert({ id: 'proj_a', name: 'Clinic', created_at: T0, organisation_id: 'org_a' });
    await repos.apiKeys.insert({
      id: 'key_1',
      project_id: 'proj_a',
      environment: 'test',
      name: 'default',
      secret_hash: 'key_hash',
      hint: 'sk_test_…abcd',
      created_at: T0,
      expires_at: null,
      revoked_at: null,
      replaced_by: null,
      created_by_kind: null,
      created_by_id: null,
      created_by_label: null,
      last_used_at: null,
    });
  });

  afterEach(async () => {
    await testDb.dispose();
  });

  describe('RealtimeSessionsRepository', () => {
    it('inserts and gets a session with its fields intact', async () => {
      const row = session('rts_1', { audio_ms: 2 ** 33 });
      await repos.realtimeSessions.insert(row);
      expect(await repos.realtimeSessions.get('rts_1')).toEqual(row);
      expect(await repos.realtimeSessions.get('rts_missing')).toBeUndefined();
    });

    it('marks a session ended, then reopens it for a resume', async () => {
      await repos.realtimeSessions.insert(session('rts_1'));
      await repos.realtimeSessions.markEnded('rts_1', {
        endedAt: T0 + 5000,
        reason: 'credential_expired',
        audioMs: 4200,
        committedMs: [3900, 4100],
        cepstralMeans: [[50.5, -1.25], null],
      });
      expect(await repos.realtimeSessions.get('rts_1')).toMatchObject({
        ended_at: T0 + 5000,
        last_seen_at: T0 + 5000,
        end_reason: 'credential_expired',
        audio_ms: 4200,
        committed_ms: '[3900,4100]',
        cepstral_means: '[[50.5,-1.25],null]',
      });
      await repos.realtimeSessions.reopen('rts_1', T0 + 9000);
      expect(await repos.realtimeSessions.get('rts_1')).toMatchObject({
        ended_at: null,
        end_reason: null,
        last_seen_at: T0 + 9000,
        audio_ms: 4200,
      });
    });

    it('records a lost socket: last seen, the audio transcribed and how far each channel was committed', async () => {
      await repos.realtimeSessions.insert(session('rts_1'));
      await repos.realtimeSessions.interrupted('rts_1', T0 + 1000, {
        audioMs: 1500,
        committedMs: [900],
        cepstralMeans: [[48.25, 3.5]],
      });
      expect(await repos.realtimeSessions.get('rts_1')).toMatchObject({
        last_seen_at: T0 + 1000,
        audio_ms: 1500,
        committed_ms: '[900]',
        cepstral_means: '[[48.25,3.5]]',
      });
    });

    it('refuses two sessions with the same resume token hash, and an unknown credential kind', async () => {
      await repos.realtimeSessions.insert(session('rts_1', { resume_token_hash: 'same' }));
      await expect(repos.realtimeSessions.insert(session('rts_2', { resume_token_hash: 'same' }))).rejects.toThrow();
      const odd = session('rts_3', { credential_kind: 'cookie' as never });
      await expect(repos.realtimeSessions.insert(odd)).rejects.toThrow();
    });
  });

  describe('TranscriptSegmentsRepository', () => {
    beforeEach(async () => {
      await repos.realtimeSessions.insert(session('rts_1'));
      await repos.realtimeSessions.insert(session('rts_2'));
    });

    it('lists a session’s segments in seq order, all or after a seq', async () => {
      for (const seq of [3, 1, 2]) await repos.transcriptSegments.insert(segment('rts_1', seq));
      await repos.transcriptSegments.insert(segment('rts_2', 1, { speaker: 'patient', channel: 1, words: null }));

      expect(await repos.transcriptSegments.listAfter('rts_1')).toEqual([1, 2, 3].map((seq) => segment('rts_1', seq)));
      expect((await repos.transcriptSegments.listAfter('rts_1', 1)).map((row) => row.id)).toEqual([
        'seg_000002',
        'seg_000003',
      ]);
      expect(await repos.transcriptSegments.listAfter('rts_1', 3)).toEqual([]);
      expect(await repos.transcriptSegments.listAfter('rts_2')).toEqual([
        segment('rts_2', 1, { speaker: 'patient', channel: 1, words: null }),
      ]);
    });

    it('replaces or keeps the provisional segments of one session, as a resume decides', async () => {
      await repos.transcriptSegments.insert(segment('rts_1', 1));
      await repos.transcriptSegments.insert(segment('rts_1', 2, { provisional: 1 }));
      await repos.transcriptSegments.insert(segment('rts_2', 1, { provisional: 1 }));
      await repos.transcriptSegments.settleProvisional('rts_1', 'replace');
      expect((await repos.transcriptSegments.listAfter('rts_1')).map((row) => row.seq)).toEqual([1]);
      expect(await repos.transcriptSegments.listAfter('rts_2')).toEqual([segment('rts_2', 1, { provisional: 1 })]);
      await repos.transcriptSegments.settleProvisional('rts_2', 'keep');
      expect(await repos.transcriptSegments.listAfter('rts_2')).toEqual([segment('rts_2', 1)]);
    });

    it('stores a live final with the session’s cepstral means, or neither when the segment is refused', async () => {
      await repos.transcriptSegments.insert(segment('rts_1', 1), [[1.5, -0.25], null]);
      expect(await repos.transcriptSegments.listAfter('rts_1')).toEqual([segment('rts_1', 1)]);
      expect(JSON.parse((await repos.realtimeSessions.get('rts_1'))?.cepstral_means ?? 'null')).toEqual([
        [1.5, -0.25],
        null,
      ]);
      expect((await repos.realtimeSessions.get('rts_2'))?.cepstral_means).toBeNull();
      await expect(repos.transcriptSegments.insert(segment('rts_1', 1, { id: 'seg_other' }), [[9]])).rejects.toThrow();
      expect(JSON.parse((await repos.realtimeSessions.get('rts_1'))?.cepstral_means ?? 'null')).toEqual([
        [1.5, -0.25],
        null,
      ]);
    });

    it('refuses a second segment with the same seq or id, and one for an unknown session', async () => {
      await repos.transcriptSegments.insert(segment('rts_1', 1));
      await expect(repos.transcriptSegments.insert(segment('rts_1', 1, { id: 'seg_other' }))).rejects.toThrow();
      await expect(repos.transcriptSegments.insert(segment('rts_1', 2, { id: 'seg_000001' }))).rejects.toThrow();
      await expect(repos.transcriptSegments.insert(segment('rts_missing', 1))).rejects.toThrow();
      expect(await repos.transcriptSegments.listAfter('rts_1')).toEqual([segment('rts_1', 1)]);
    });

    it('deletes a session’s segments with the session', async () => {
      await repos.transcriptSegments.insert(segment('rts_1', 1));
      await repos.transcriptSegments.insert(segment('rts_2', 1));
      await testDb.database.db.deleteFrom('realtime_sessions').where('id', '=', 'rts_1').execute();
      expect(await repos.transcriptSegments.listAfter('rts_1')).toEqual([]);
      expect(await repos.transcriptSegments.listAfter('rts_2')).toHaveLength(1);
    });
  });
});
