// Plain values, apart from the schemas: the browser client imports them without bundling zod.

/** Subprotocol the server selects; browsers send it with their credential as `auth.<credential>`. */
export const REALTIME_SUBPROTOCOL = 'chartwright.realtime.v1';
/** Prefix of the subprotocol entry that carries a credential (browsers cannot set headers). */
export const REALTIME_AUTH_SUBPROTOCOL_PREFIX = 'auth.';

export const AUDIO_ENCODINGS = ['pcm_s16le', 'pcm_f32le'] as const;
export type AudioEncoding = (typeof AUDIO_ENCODINGS)[number];

/**
 * The rate (Hz) of the 16-bit mono PCM the service's recognizers take. Audio at another rate is
 * resampled by the service; a client that can choose sends this one and saves it the work.
 */
export const RECOGNIZER_SAMPLE_RATE = 16_000;

export const REALTIME_LIMITS = Object.freeze({
  minSampleRate: 8000,
  maxSampleRate: 48_000,
  maxVocabularyTerms: 100,
  maxVocabularyTermLength: 50,
} as const);

/** Why a session ended, as its `ended` event and its stored record say. */
export const REALTIME_END_REASONS = [
  'stopped',
  'idle_timeout',
  'session_limit',
  'credential_expired',
  'server_shutdown',
  'error',
] as const;
export type RealtimeEndReason = (typeof REALTIME_END_REASONS)[number];
