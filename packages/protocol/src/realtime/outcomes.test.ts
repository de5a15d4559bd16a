import { describe, expect, it } from 'vitest';

import { REALTIME_END_REASONS } from './constants.js';
import { REALTIME_CLOSE_CODES, REALTIME_ERROR_CODES, type RealtimeErrorCode } from './errors.js';
import {
  isResumableEndReason,
  realtimeCloseOutcome,
  realtimeErrorOutcome,
  REALTIME_ERROR_OUTCOMES,
  type RealtimeFatalErrorCode,
} from './outcomes.js';

const codes = Object.keys(REALTIME_ERROR_CODES) as RealtimeErrorCode[];
const where = (test: (code: RealtimeErrorCode) => boolean) => codes.filter(test).sort();

describe('realtime outcomes', () => {
  it('has an outcome for every error code', () => {
    expect(Object.keys(REALTIME_ERROR_OUTCOMES).sort()).toEqual([...codes].sort());
  });

  it('drops the frame or message, and carries on, for the codes of a bad frame or a refused start', () => {
    expect(where((code) => !REALTIME_ERROR_OUTCOMES[code].fatal)).toEqual(
      [
        'already_started',
        'audio_before_start',
        'frame_too_large',
        'invalid_message',
        'misaligned_audio',
        'resume_failed',
        'unknown_message_type',
        'unsupported_encoding',
        'unsupported_language',
      ].sort(),
    );
  });

  it.each([
    ['at_capacity', REALTIME_CLOSE_CODES.tryAgainLater, 'error'],
    ['tenant_at_capacity', REALTIME_CLOSE_CODES.tryAgainLater, 'error'],
    ['recognizer_unavailable', REALTIME_CLOSE_CODES.internalError, 'error'],
    ['recognizer_overloaded', REALTIME_CLOSE_CODES.overloaded, 'error'],
    ['recognizer_crashed', REALTIME_CLOSE_CODES.internalError, 'error'],
    ['idle_timeout', REALTIME_CLOSE_CODES.idleTimeout, 'idle_timeout'],
    ['session_limit', REALTIME_CLOSE_CODES.sessionLimit, 'session_limit'],
    ['credential_expired', REALTIME_CLOSE_CODES.credentialExpired, 'credential_expired'],
    ['internal_error', REALTIME_CLOSE_CODES.internalError, 'error'],
  ] as const)('ends the session after a fatal %s with close code %i and reason %s', (code, closeCode, endReason) => {
    expect(REALTIME_ERROR_OUTCOMES[code]).toMatchObject({ fatal: true, closeCode, endReason });
  });

  it('names the codes that end a session in a type of their own', () => {
    const fatal: RealtimeFatalErrorCode[] = ['session_limit', 'internal_error'];
    // @ts-expect-error: a dropped frame's code never ends a session
    const dropped: RealtimeFatalErrorCode = 'invalid_message';
    expect(fatal.map((code) => REALTIME_ERROR_OUTCOMES[code].fatal)).toEqual([true, true]);
    expect(REALTIME_ERROR_OUTCOMES[dropped].fatal).toBe(false);
  });

  it('calls only a session limit and an engine that cannot serve beyond resuming', () => {
    const final = where((code) => {
      const outcome = REALTIME_ERROR_OUTCOMES[code];
      return outcome.fatal && !outcome.resumable;
    });
    expect(final).toEqual(['recognizer_overloaded', 'recognizer_unavailable', 'session_limit']);
  });

  it('lets a start be sent again after a refused resume, a full instance, or a failure on the service’s side', () => {
    expect(where((code) => REALTIME_ERROR_OUTCOMES[code].retryStart)).toEqual(
      ['at_capacity', 'internal_error', 'recognizer_crashed', 'resume_failed', 'tenant_at_capacity'].sort(),
    );
  });

  it('knows no outcome for a code of a newer protocol', () => {
    expect(realtimeErrorOutcome('shiny_new_code')).toBeUndefined();
    expect(realtimeErrorOutcome('toString')).toBeUndefined();
    expect(realtimeErrorOutcome('session_limit')).toBe(REALTIME_ERROR_OUTCOMES.session_limit);
  });

  it.each([
    [REALTIME_CLOSE_CODES.normal, 'resume'],
    [REALTIME_CLOSE_CODES.goingAway, 'resume'],
    [REALTIME_CLOSE_CODES.policyViolation, 'final'],
    [REALTIME_CLOSE_CODES.messageTooBig, 'final'],
    [REALTIME_CLOSE_CODES.internalError, 'resume'],
    [REALTIME_CLOSE_CODES.tryAgainLater, 'resume'],
    [REALTIME_CLOSE_CODES.idleTimeout, 'resume'],
    [REALTIME_CLOSE_CODES.sessionLimit, 'resume'],
    [REALTIME_CLOSE_CODES.credentialExpired, 'renew_credential'],
    [REALTIME_CLOSE_CODES.invalidMessage, 'final'],
    [REALTIME_CLOSE_CODES.overloaded, 'resume'],
    [1006, 'resume'],
    [4999, 'resume'],
  ])('answers close code %i with %s', (code, outcome) => {
    expect(realtimeCloseOutcome(code)).toBe(outcome);
  });

  it('resumes no session that was stopped or reached its limit, and any other', () => {
    expect(REALTIME_END_REASONS.filter((reason) => !isResumableEndReason(reason))).toEqual([
      'stopped',
      'session_limit',
    ]);
    expect(isResumableEndReason('a_reason_of_a_newer_protocol')).toBe(true);
  });
});
