import type { ErrorBody, RealtimeSessionResource, WidgetTranscript } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { hashSecret } from '../auth/secrets.js';
import type { RealtimeSessionRow } from '../store/realtime-sessions.js';
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { openWidget, widgetCall } from '@chartwright/testing/widget-encounters.js';
import { Deletion } from '../retention/deletion.js';
import { ResumeLookup } from './resume-lookup.js';
import { RealtimeSessionArchive } from './session-archive.js';
import { RESUME_WINDOW_MS } from './stored-session.js';

const DAY_MS = 86_400_000;

/**
 * Reading realtime sessions back, deleting them and the retention sweep, on every test database.
 * Sessions here are stored rows, as a socket stores them; realtime.int.test.ts covers the same
 * routes after a real streamed session.
 */
describe.each(TEST_DIALECTS)('realtime sessions after the fact (%s)', (dialect) => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ dialect, config: { realtime: { ...(await baseRealtime()), retentionDays: 7 } } });
  });
  afterEach(async () => {
    await h.close();
  });

  async function baseRealtime() {
    const { testConfig } = await import('../config/config.js');
    return testConfig().realtime;
  }

  async function storeSession(id: string, overrides: Partial<RealtimeSessionRow> = {}): Promise<void> {
    const now = h.clock.now();
    await h.repositories.realtimeSessions.insert({
      id,
      project_id: h.project.id,
      environment: 'test',
      credential_kind: 'api_key',
      api_key_id: h.project.testKeyId,
      partner_id: null,
      encounter_id: null,
      resume_token_hash: `hash-${id}`,
      audio_format: JSON.stringify({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 }),
      language: 'en-GB',
      created_at: now,
      last_seen_at: now,
      ended_at: null,
      end_reason: null,
      audio_ms: 0,
      committed_ms: null,
      cepstral_means: null,
      ...overrides,
    });
    for (const [seq, text] of ['good morning', '', 'my knee hurts'].entries()) {
      await h.repositories.transcriptSegments.insert({
        session_id: id,
        seq: seq + 1,
        id: `seg_00000${seq + 1}`,
        text,
        start_ms: seq * 1000,
        end_ms: seq * 1000 + 800,
        channel: seq % 2,
        speaker: seq % 2 === 0 ? 'clinician' : 'patient',
        speaker_label: `S${(seq % 2) + 1}`,
        words: seq === 0 ? JSON.stringify([{ word: 'good', startMs: 0, endMs: 300 }]) : null,
        provisional: 0,
        created_at: now,
      });
    }
  }

  const get = (id: string, key = h.project.testKey) =>
    h.request({ method: 'GET', url: `/api/v1/realtime/sessions/${id}`, key });

  it('returns the session and its segments in order, with the joined text', async () => {
    await storeSession('rts_a', { audio_ms: 2800 });
    const response = await get('rts_a');
    expect(response.statusCode).toBe(200);
    const session = response.json<RealtimeSessionResource>();
    expect(session).toMatchObject({
      id: 'rts_a',
      status: 'open',
      endReason: null,
      resumable: true,
      language: 'en-GB',
      audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 },
      audioMs: 2800,
      endedAt: null,
      text: 'good morning my knee hurts',
    });
    expect(session.segments.map((segment) => [segment.id, segment.speaker, segment.channel])).toEqual([
      ['seg_000001', 'clinician', 0],
      ['seg_000002', 'patient', 1],
      ['seg_000003', 'clinician', 0],
    ]);
    expect(session.segments[0]?.words).toEqual([{ word: 'good', startMs: 0, endMs: 300 }]);
    expect(session.segments[1]).not.toHaveProperty('words');
    // Display text and labels are read back with every segment; nothing was corrected.
    expect(session.segments.map((segment) => [segment.speakerLabel, segment.display])).toEqual([
      ['S1', 'Good morning.'],
      ['S2', ''],
      ['S1', 'My knee hurts.'],
    ]);
    expect(session.segments[0]?.displayTokens).toEqual([
      { text: 'Good', wordStart: 0, wordEnd: 1 },
      { text: 'morning.', wordStart: 1, wordEnd: 2 },
    ]);
    expect(session.speakerRoles).toEqual({});
    expect(session.segments[0]).not.toHaveProperty('revision');
  });

  it('says whether the session can still be resumed', async () => {
    await storeSession('rts_lost');
    await storeSession('rts_stopped', { ended_at: h.clock.now(), end_reason: 'stopped' });
    await storeSession('rts_idle', { ended_at: h.clock.now(), end_reason: 'idle_timeout' });
    expect((await get('rts_stopped')).json()).toMatchObject({
      status: 'ended',
      endReason: 'stopped',
      resumable: false,
    });
    expect((await get('rts_idle')).json()).toMatchObject({
      status: 'ended',
      endReason: 'idle_timeout',
      resumable: true,
    });
    h.clock.advance(RESUME_WINDOW_MS + 1);
    expect((await get('rts_lost')).json()).toMatchObject({ status: 'open', resumable: false });
    expect((await get('rts_idle')).json()).toMatchObject({ resumable: false });
  });

  it('keeps sessions to their project environment', async () => {
    await storeSession('rts_sandbox');
    const live = await get('rts_sandbox', h.project.liveKey);
    expect(live.statusCode).toBe(404);
    expect(live.json<ErrorBody>().error).toMatchObject({
      code: 'realtime_session_not_found',
      message: "No realtime session rts_sandbox exists for this key's project environment.",
    });
    const other = await h.projects.create('Another clinic');
    const otherKey = await h.keys.create({ projectId: other.id, environment: 'test' });
    expect((await get('rts_sandbox', otherKey.secret)).statusCode).toBe(404);
    const deleted = await h.request({
      method: 'DELETE',
      url: '/api/v1/realtime/sessions/rts_sandbox',
      key: otherKey.secret,
    });
    expect(deleted.statusCode).toBe(404);
    expect((await get('rts_sandbox')).statusCode).toBe(200);
    expect((await get('rts_never')).statusCode).toBe(404);
  });

  it('keeps a partner widget’s encounter sessions from every key of the environment, sandbox included', async () => {
    const partner = await h.createPartner();
    const widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
    await storeSession('rts_widget', {
      credential_kind: 'realtime_token',
      api_key_id: null,
      partner_id: partner.id,
      encounter_id: widget.sessionId,
      resume_token_hash: hashSecret('rsm_widget'),
    });
    for (const key of [h.project.testKey, h.project.liveKey]) {
      const read = await get('rts_widget', key);
      expect(read.statusCode).toBe(404);
      expect(read.json<ErrorBody>().error.code).toBe('realtime_session_not_found');
      const deleted = await h.request({ method: 'DELETE', url: '/api/v1/realtime/sessions/rts_widget', key });
      expect(deleted.statusCode).toBe(404);
      expect(deleted.json<ErrorBody>().error.code).toBe('realtime_session_not_found');
    }
    // Nor can a key continue it, and so replay its transcript, with its resume token.
    const lookup = (principal: Principal) =>
      new ResumeLookup(
        {
          store: {
            sessions: h.repositories.realtimeSessions,
            segments: h.repositories.transcriptSegments,
            corrections: h.repositories.transcriptCorrections,
          },
          clock: h.clock,
          maxSessionSeconds: h.config.realtime.maxSessionSeconds,
          settled: () => Promise.resolve(),
        },
        principal,
      ).find({ sessionId: 'rts_widget', resumeToken: 'rsm_widget', lastAckedAudioMs: 0 });
    const scope = { projectId: h.project.id, environment: 'test' } as const;
    const keyPrincipal: Principal = { kind: 'api_key', ...scope, apiKeyId: h.project.testKeyId, expiresAt: null };
    const tokenPrincipal = (encounterId: string | null): Principal => ({
      kind: 'realtime_token',
      ...scope,
      tokenId: 'rtt_x',
      issuer: encounterId === null ? { kind: 'api_key', id: h.project.testKeyId } : { kind: 'partner', id: partner.id },
      encounterId,
      expiresAt: h.clock.now() + 60_000,
    });
    expect(await lookup(keyPrincipal)).toEqual(expect.any(String));
    expect(await lookup(tokenPrincipal(null))).toEqual(expect.any(String));
    expect(await lookup(tokenPrincipal(widget.sessionId))).toEqual({ sessionId: 'rts_widget' });
    // The widget API still reads it, for the encounter's clinician.
    const transcript = await widgetCall(
      h,
      widget.token,
      'GET',
      `/api/widget/encounters/${widget.sessionId}/transcript`,
    );
    expect(transcript.statusCode, transcript.body).toBe(200);
    expect(transcript.json<WidgetTranscript>().realtimeSessions.map((session) => session.id)).toEqual(['rts_widget']);
  });

  it('stops serving a session at the end of its retention and the sweep deletes it with its segments', async () => {
    await storeSession('rts_old', { ended_at: h.clock.now(), end_reason: 'stopped' });
    h.clock.advance(DAY_MS);
    await storeSession('rts_new');
    h.clock.advance(6 * DAY_MS - 1);
    expect((await get('rts_old')).json()).toMatchObject({
      expiresAt: new Date(h.clock.now() + 1).toISOString(),
    });
    h.clock.advance(1);
    expect((await get('rts_old')).statusCode).toBe(404);
    expect((await h.retention.sweep()).realtime_sessions).toBe(1);
    expect((await h.retention.sweep()).realtime_sessions).toBe(0);
    expect(await h.repositories.realtimeSessions.get('rts_old')).toBeUndefined();
    expect(await h.repositories.transcriptSegments.listAfter('rts_old')).toEqual([]);
    expect(await h.repositories.transcriptSegments.listAfter('rts_new')).toHaveLength(3);
    expect((await get('rts_new')).statusCode).toBe(200);
  });

  it('refuses to delete a session a socket of this instance is streaming', async () => {
    await storeSession('rts_live');
    const streaming = new RealtimeSessionArchive({
      store: {
        sessions: h.repositories.realtimeSessions,
        segments: h.repositories.transcriptSegments,
        corrections: h.repositories.transcriptCorrections,
      },
      clock: h.clock,
      config: h.config.realtime,
      isStreaming: (id) => id === 'rts_live',
      deletion: new Deletion({ repositories: h.repositories, database: h.database, liveAudio: null }),
    });
    await expect(streaming.delete({ projectId: h.project.id, environment: 'test' }, 'rts_live')).rejects.toMatchObject({
      code: 'realtime_session_active',
    });
    expect(await h.repositories.transcriptSegments.listAfter('rts_live')).toHaveLength(3);
  });
});
