import type { z } from 'zod';

import { integer } from './env-values.js';

/** The realtime WebSocket: admission, limits, the recognizer's workers (docs/configuration.md). */
export interface RealtimeConfig {
  /** Open realtime sockets this instance serves at once; more are answered `at_capacity`. */
  readonly maxSessions: number;
  /**
   * Open sockets of one project environment on this instance, and of one credential (an sk_ key,
   * or the key or partner that minted the realtime tokens); more are answered `tenant_at_capacity`.
   */
  readonly maxSessionsPerProject: number;
  readonly maxSessionsPerKey: number;
  readonly maxSessionSeconds: number;
  /** A socket that sends no audio and no message for this long is closed (4000). */
  readonly idleTimeoutSeconds: number;
  /** Largest frame (binary or text) a session accepts. */
  readonly maxFrameBytes: number;
  /** Recognizer worker processes; 0 = one per CPU core. */
  readonly recognizerWorkers: number;
  /**
   * The share of the recognizer workers' CPU (percent) that open streams may need, by the real-time
   * factor the workers measured; a socket that would take more is answered `at_capacity`. 0: no
   * such check (maxSessions alone).
   */
  readonly recognizerMaxLoadPercent: number;
  /** How often an open session checks that its credential was not revoked (closing with 4002 if so). */
  readonly credentialCheckSeconds: number;
  /** How long a session and its transcript are kept after its last activity. */
  readonly retentionDays: number;
}

/** The realtime environment variables, part of the service's (config.ts). */
export const REALTIME_ENV = {
  REALTIME_MAX_SESSIONS: integer(1, 100_000).default(64),
  REALTIME_MAX_SESSIONS_PER_PROJECT: integer(1, 100_000).default(32),
  REALTIME_MAX_SESSIONS_PER_KEY: integer(1, 100_000).default(16),
  REALTIME_MAX_SESSION_SECONDS: integer(10, 24 * 3600).default(4 * 3600),
  REALTIME_IDLE_TIMEOUT_SECONDS: integer(5, 3600).default(30),
  REALTIME_MAX_FRAME_BYTES: integer(1024, 16 * 1024 * 1024).default(256 * 1024),
  REALTIME_RECOGNIZER_WORKERS: integer(0, 1024).default(0),
  REALTIME_RECOGNIZER_MAX_LOAD_PERCENT: integer(0, 100).default(80),
  REALTIME_CREDENTIAL_CHECK_SECONDS: integer(1, 300).default(5),
  REALTIME_RETENTION_DAYS: integer(1, 3650).default(30),
};

type RealtimeEnv = z.output<z.ZodObject<typeof REALTIME_ENV>>;

export function realtimeConfig(values: RealtimeEnv): RealtimeConfig {
  return Object.freeze({
    maxSessions: values.REALTIME_MAX_SESSIONS,
    maxSessionsPerProject: values.REALTIME_MAX_SESSIONS_PER_PROJECT,
    maxSessionsPerKey: values.REALTIME_MAX_SESSIONS_PER_KEY,
    maxSessionSeconds: values.REALTIME_MAX_SESSION_SECONDS,
    idleTimeoutSeconds: values.REALTIME_IDLE_TIMEOUT_SECONDS,
    maxFrameBytes: values.REALTIME_MAX_FRAME_BYTES,
    recognizerWorkers: values.REALTIME_RECOGNIZER_WORKERS,
    recognizerMaxLoadPercent: values.REALTIME_RECOGNIZER_MAX_LOAD_PERCENT,
    credentialCheckSeconds: values.REALTIME_CREDENTIAL_CHECK_SECONDS,
    retentionDays: values.REALTIME_RETENTION_DAYS,
  });
}
