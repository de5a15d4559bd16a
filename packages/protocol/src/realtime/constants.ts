// Plain values, apart from the schemas: the browser client imports them without bundling zod.

/** Subprotocol the server selects; browsers send it with their credential as `auth.<credential>`. */
export const REALTIME_SUBPROTOCOL = 'chartwright.realtime.v1';
/** Prefix of the subprotocol entry that carries a credential (browsers cannot set headers). */
export const REALTIME_AUTH_SUBPROTOCOL_PREFIX = 'auth.';

export const AUDIO_ENCODINGS = ['pcm_s16le', 'pcm_f32le'] as const;
export type AudioEncoding = (typeof AUDIO_ENCODINGS)[number];

export const REALTIME_LIMITS = Object.freeze({
  minSampleRate: 8000,
  maxSampleRate: 48_000,
  maxVocabularyTerms: 100,
  maxVocabularyTermLength: 50,
} as const);
