import { ChartwrightError, RealtimeError } from '@chartwright/client';
import { describe as suite, expect, it } from 'vitest';

import { WidgetApiError } from '../api/widget-api-error.js';
import { describeRecordingStart, startFailureCause } from './notices.js';

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

suite('why a start is tried again, for the recorder while it waits', () => {
  it('reads one attempt’s refusal and the client’s last word alike', () => {
    expect(startFailureCause(new RealtimeError('Full.', 'at_capacity', true))).toBe('capacity');
    expect(startFailureCause(new RealtimeError('Share used.', 'tenant_at_capacity', true))).toBe('capacity');
    expect(startFailureCause(afterRetries('at_capacity'))).toBe('capacity');
    expect(startFailureCause(new RealtimeError('No recognizer.', 'recognizer_unavailable', true))).toBe('unavailable');
    expect(startFailureCause(new ChartwrightError('Draining.', 'service_unavailable'))).toBe('unreachable');
    expect(startFailureCause(new RealtimeError('Closed.', 'connection_failed', false))).toBe('unreachable');
  });
});
