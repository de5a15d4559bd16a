/** Codes of the realtime `error` event, declared once. Clients branch on these, never on messages. */
export const REALTIME_ERROR_CODES = Object.freeze({
  invalid_message: 'A text frame was not JSON, or not a valid message; the message names the field.',
  unknown_message_type: 'The message type is not one the server knows.',
  audio_before_start: 'Audio arrived before the start message declared its format.',
  already_started: 'A second start message arrived on a started session.',
  unsupported_encoding: 'The audio encoding is not supported.',
  unsupported_language: 'No recognizer serves this language.',
  misaligned_audio: 'A binary frame is not a whole number of samples for the declared format.',
  frame_too_large: 'A frame is larger than the session’s maxFrameBytes.',
  resume_failed: 'The session cannot be resumed (unknown, expired, or the token does not match).',
  at_capacity: 'This instance runs as many sessions as it may; retry shortly or on another instance.',
  tenant_at_capacity:
    'The project environment, or the key (or partner) behind the credential, has as many sessions open on this instance as it may; end one or retry shortly.',
  recognizer_unavailable: 'The speech recognizer is not installed or not running.',
  recognizer_overloaded: 'Audio arrives faster than the recognizer keeps up; the session is closed cleanly.',
  recognizer_crashed: 'The recognizer process carrying this session failed; resume the session.',
  idle_timeout: 'No audio or keepalive arrived within the idle timeout.',
  session_limit: 'The session reached its maximum length.',
  credential_expired: 'The credential that opened the socket expired or was revoked.',
  internal_error: 'An unexpected server error.',
} as const);
export type RealtimeErrorCode = keyof typeof REALTIME_ERROR_CODES;

/** WebSocket close codes the server uses, with what each means. */
export const REALTIME_CLOSE_CODES = Object.freeze({
  normal: 1000,
  goingAway: 1001,
  policyViolation: 1008,
  messageTooBig: 1009,
  internalError: 1011,
  tryAgainLater: 1013,
  idleTimeout: 4000,
  sessionLimit: 4001,
  credentialExpired: 4002,
  invalidMessage: 4003,
  overloaded: 4004,
} as const);
