import type { RealtimeSessionResource, TranscriptSegment, WidgetNote, WidgetTranscript } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import {
  expectWidgetError,
  openWidget,
  storeRealtimeSession,
  widgetCall,
  type OpenWidget,
} from '@chartwright/testing/widget-encounters.js';

/** A visit as a two-channel recording stores it: lower case, unpunctuated, the clinician on S1. */
const RECOGNISED = [
  ['clinician', 'what medicines do you take'],
  ['patient', 'i take lisinopril ten milligrams every morning'],
  ['clinician', 'any chest pain'],
  ['patient', 'no chest pain'],
] as const;

describe.each(TEST_DIALECTS)('the clinician’s transcript corrections on %s', (dialect) => {
  let h: Harness;
  let partner: { id: string; partnerKey: string };
  let widget: OpenWidget;
  beforeEach(async () => {
    h = await createHarness({ dialect });
    partner = await h.createPartner();
    widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
    await storeRealtimeSession(h, partner.id, widget.sessionId, RECOGNISED, { id: 'rts_visit', stereo: true });
  });
  afterEach(async () => {
    await h.close();
  });

  const encounter = `/api/widget/encounters/{sessionId}`;
  const url = (suffix: string, sessionId = widget.sessionId) => encounter.replace('{sessionId}', sessionId) + suffix;
  const segmentUrl = (segmentId: string, realtimeSessionId = 'rts_visit') =>
    url(`/realtime-sessions/${realtimeSessionId}/segments/${segmentId}`);
  const swapUrl = (realtimeSessionId = 'rts_visit') => url(`/realtime-sessions/${realtimeSessionId}/speaker-swaps`);
  const transcript = async () =>
    (await widgetCall(h, widget.token, 'GET', url('/transcript'))).json<WidgetTranscript>();

  it('reads every segment with its display text and speaker label', async () => {
    const [session] = (await transcript()).realtimeSessions;
    expect(session?.segments.map((segment) => [segment.speaker, segment.speakerLabel, segment.display])).toEqual([
      ['clinician', 'S1', 'What medicines do you take?'],
      ['patient', 'S2', 'I take lisinopril 10 mg every morning.'],
      ['clinician', 'S1', 'Any chest pain?'],
      ['patient', 'S2', 'No chest pain.'],
    ]);
    expect(session?.speakerRoles).toEqual({});
  });

  it('stores a correction as a revision, keeps the recognised segment, and writes the note from the correction', async () => {
    const corrected = await widgetCall(h, widget.token, 'PUT', segmentUrl('seg_000002'), {
      text: ' i take losartan fifty milligrams every morning ',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json<TranscriptSegment>()).toMatchObject({
      id: 'seg_000002',
      text: 'i take losartan fifty milligrams every morning',
      display: 'I take losartan 50 mg every morning.',
      speaker: 'patient',
      speakerLabel: 'S2',
      revision: 1,
      original: { text: 'i take lisinopril ten milligrams every morning', speaker: 'patient' },
    });

    // A second correction, of the speaker alone, keeps the corrected text.
    const again = await widgetCall(h, widget.token, 'PUT', segmentUrl('seg_000002'), { speaker: 'unknown' });
    expect(again.json<TranscriptSegment>()).toMatchObject({
      text: 'i take losartan fifty milligrams every morning',
      speaker: 'unknown',
      revision: 2,
      original: { speaker: 'patient' },
    });
    await widgetCall(h, widget.token, 'PUT', segmentUrl('seg_000002'), { speaker: 'patient' });

    const read = await transcript();
    expect(read.text).toContain('Patient: I take losartan 50 mg every morning.');
    expect(read.text).not.toContain('lisinopril');
    expect(read.realtimeSessions[0]?.segments[1]).toMatchObject({ revision: 3, speaker: 'patient' });
    // What the recognizer gave is stored as it was.
    const stored = await h.repositories.transcriptSegments.listAfter('rts_visit');
    expect(stored[1]?.text).toBe('i take lisinopril ten milligrams every morning');
    expect(stored[1]?.speaker).toBe('patient');

    const generated = await widgetCall(h, widget.token, 'POST', url('/notes'), {});
    expect(generated.statusCode, generated.body).toBe(201);
    const note = generated.json<WidgetNote>();
    expect(note.note).toMatch(/losartan/i);
    expect(note.note).not.toMatch(/lisinopril/i);
    expect(note.transcript).toBe(read.text);
  });

  it('swaps clinician and patient across the session in one call, a segment’s own correction first', async () => {
    await widgetCall(h, widget.token, 'PUT', segmentUrl('seg_000004'), { speaker: 'patient' });
    const swapped = await widgetCall(h, widget.token, 'POST', swapUrl(), { speakerLabel: 'S1' });
    expect(swapped.statusCode, swapped.body).toBe(200);
    const session = swapped.json<RealtimeSessionResource>();
    expect(session.speakerRoles).toEqual({ S1: 'patient', S2: 'clinician' });
    expect(session.segments.map((segment) => segment.speaker)).toEqual(['patient', 'clinician', 'patient', 'patient']);
    expect((await transcript()).text.split('\n')[0]).toBe('Patient: What medicines do you take?');

    // Swapping back from the other label restores the recogniser's roles.
    const back = await widgetCall(h, widget.token, 'POST', swapUrl(), { speakerLabel: 'S2' });
    expect(back.json<RealtimeSessionResource>().speakerRoles).toEqual({ S1: 'clinician', S2: 'patient' });
    expect((await transcript()).realtimeSessions[0]?.segments.map((segment) => segment.speaker)).toEqual([
      'clinician',
      'patient',
      'clinician',
      'patient',
    ]);
  });

  it('refuses bad corrections naming the field, and unknown segments, sessions, labels and encounters', async () => {
    const put = (segmentId: string, body: unknown, realtimeSessionId?: string) =>
      widgetCall(h, widget.token, 'PUT', segmentUrl(segmentId, realtimeSessionId), body);
    expectWidgetError(await put('seg_000001', {}), 400, 'invalid_body', ['']);
    expectWidgetError(await put('seg_000001', { text: '  ' }), 400, 'invalid_body', ['text']);
    expectWidgetError(await put('seg_000001', { speaker: 'nurse' }), 400, 'invalid_body', ['speaker']);
    expectWidgetError(await put('seg_000001', { text: 'x'.repeat(5001) }), 400, 'invalid_body', ['text']);
    expectWidgetError(await put('seg_000001', { text: 'ok', words: [] }), 400, 'invalid_body', ['words']);
    expectWidgetError(await put('seg_000009', { text: 'ok' }), 404, 'transcript_segment_not_found');
    expectWidgetError(await put('segment-1', { text: 'ok' }), 404, 'transcript_segment_not_found');
    expectWidgetError(await put('seg_000001', { text: 'ok' }, 'rts_other'), 404, 'realtime_session_not_found');

    const swap = (body: unknown) => widgetCall(h, widget.token, 'POST', swapUrl(), body);
    expectWidgetError(await swap({}), 400, 'invalid_body', ['speakerLabel']);
    expectWidgetError(await swap({ speakerLabel: 'S7' }), 404, 'speaker_label_not_found');

    // Another clinician of the same partner reaches neither the encounter nor its realtime session.
    const other = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1', emrUserId: 'emr-user-2' });
    expectWidgetError(
      await widgetCall(h, other.token, 'PUT', segmentUrl('seg_000001'), { text: 'ok' }),
      404,
      'encounter_not_found',
    );
    expectWidgetError(
      await widgetCall(
        h,
        other.token,
        'PUT',
        url('/realtime-sessions/rts_visit/segments/seg_000001', other.sessionId),
        {
          text: 'ok',
        },
      ),
      404,
      'realtime_session_not_found',
    );
    expect(await h.repositories.transcriptCorrections.latestRevisions('rts_visit')).toEqual(new Map());
  });

  it('has no role to swap for a voice that is neither clinician nor patient', async () => {
    await h.repositories.transcriptSegments.insert({
      session_id: 'rts_visit',
      seq: 5,
      id: 'seg_000005',
      text: 'i am her daughter',
      start_ms: 9000,
      end_ms: 9800,
      channel: 0,
      speaker: 'unknown',
      speaker_label: 'S3',
      words: null,
      provisional: 0,
      created_at: h.clock.now(),
    });
    expectWidgetError(
      await widgetCall(h, widget.token, 'POST', swapUrl(), { speakerLabel: 'S3' }),
      409,
      'speaker_role_unknown',
    );
  });
});
