import { RealtimeError } from '@chartwright/client';
import { describe as suite, expect, it } from 'vitest';

import { WidgetApiError } from '../api/widget-api-error.js';
import { describeRecordingStart } from './notices.js';

/** As the client library gives up on a start it retried: its own code, the service's refusal as the cause. */
const afterRetries = (code: string) =>
  new RealtimeError('The realtime session could not start after 16 attempts: …', 'connection_failed', true, {
    cause: new RealtimeError('The service refused.', code, true),
  });

suite('what the clinician reads when a recording does not start', () => {
  it('says transcription is at capacity when the service kept refusing for capacity', () => {
    for (const code of ['at_capacity', 'tenant_at_capacity']) {
      expect(describeRecordingStart(afterRetries(code))).toBe(
        'Transcription is at capacity right now, so the recording did not start. Try again in a minute.',
      );
    }
    expect(describeRecordingStart(new RealtimeError('Full.', 'at_capacity', true))).toMatch(
      /^Transcription is at capacity/,
    );
  });

  it('says transcription is unavailable when the service has no recognizer', () => {
    expect(describeRecordingStart(new RealtimeError('No recognizer.', 'recognizer_unavailable', true))).toBe(
      'Transcription is not available on this service right now, so the recording did not start.',
    );
  });

  it('says the transcription service could not be reached otherwise, and leaves other failures to their own words', () => {
    expect(describeRecordingStart(afterRetries('connection_failed'))).toMatch(/could not be reached/);
    expect(describeRecordingStart(new WidgetApiError('No encounter with this id.', 'encounter_not_found', 404))).toBe(
      'No encounter with this id.',
    );
  });
});
