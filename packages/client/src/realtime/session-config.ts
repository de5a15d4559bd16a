import type { AudioFormat } from '@chartwright/protocol';

/** A session's settings, as `connect()` resolved them from the options and their defaults. */
export interface RealtimeSessionConfig {
  url: string;
  format: AudioFormat;
  language: string;
  interimResults: boolean;
  vocabulary: readonly string[] | undefined;
  tokenRefreshMarginMs: number;
  maxBufferedAudioMs: number;
  maxReconnectAttempts: number;
}
