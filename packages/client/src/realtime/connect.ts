import { AUDIO_ENCODINGS, REALTIME_LIMITS, realtimeWsUrl } from '@chartwright/protocol';

import type { ClientContext } from '../core/context.js';
import { RealtimeCredentials } from './credentials.js';
import { RealtimeError } from './errors.js';
import { REALTIME_DEFAULTS, type RealtimeConnectOptions } from './options.js';
import { RealtimeSession } from './session.js';

function invalid(field: string, problem: string): RealtimeError {
  return new RealtimeError(`${field}: ${problem}`, 'invalid_realtime_options', true);
}

const isCount = (value: number) => Number.isInteger(value) && value >= 0;

function check(options: RealtimeConnectOptions): void {
  if (!(AUDIO_ENCODINGS as readonly string[]).includes(options.encoding)) {
    throw invalid('encoding', `must be one of ${AUDIO_ENCODINGS.join(', ')}.`);
  }
  const { minSampleRate, maxSampleRate } = REALTIME_LIMITS;
  if (
    !Number.isInteger(options.sampleRate) ||
    options.sampleRate < minSampleRate ||
    options.sampleRate > maxSampleRate
  ) {
    throw invalid('sampleRate', `must be a whole number of Hz from ${minSampleRate} to ${maxSampleRate}.`);
  }
  if (options.channels !== undefined && !([1, 2] as number[]).includes(options.channels)) {
    throw invalid('channels', 'must be 1 or 2.');
  }
  if (typeof options.token === 'string' && options.token.trim() === '') throw invalid('token', 'is empty.');
  if (options.tokenRefreshMarginMs !== undefined && !isCount(options.tokenRefreshMarginMs)) {
    throw invalid('tokenRefreshMarginMs', 'must be a whole number of milliseconds, 0 or more.');
  }
  if (
    options.maxBufferedAudioMs !== undefined &&
    !(isCount(options.maxBufferedAudioMs) && options.maxBufferedAudioMs > 0)
  ) {
    throw invalid('maxBufferedAudioMs', 'must be a whole number of milliseconds above 0.');
  }
  if (options.maxReconnectAttempts !== undefined && !isCount(options.maxReconnectAttempts)) {
    throw invalid('maxReconnectAttempts', 'must be a whole number, 0 or more.');
  }
  if (options.onRetrying !== undefined && typeof options.onRetrying !== 'function') {
    throw invalid('onRetrying', 'must be a function.');
  }
}

/**
 * Opens a realtime transcription session: resolves once the service has started it (`started`),
 * rejects with why it could not (an `AuthenticationError` for a refused credential where the
 * runtime shows it, a `RealtimeError` otherwise).
 */
export async function connectRealtime(
  context: ClientContext,
  options: RealtimeConnectOptions,
): Promise<RealtimeSession> {
  check(options);
  const session = new RealtimeSession(context, new RealtimeCredentials(options.token, context), {
    url: options.url ?? realtimeWsUrl(context.baseUrl),
    format: {
      encoding: options.encoding,
      sampleRate: options.sampleRate,
      channels: options.channels ?? REALTIME_DEFAULTS.channels,
    },
    language: options.language ?? REALTIME_DEFAULTS.language,
    interimResults: options.interimResults ?? REALTIME_DEFAULTS.interimResults,
    vocabulary: options.vocabulary,
    tokenRefreshMarginMs: options.tokenRefreshMarginMs ?? REALTIME_DEFAULTS.tokenRefreshMarginMs,
    maxBufferedAudioMs: options.maxBufferedAudioMs ?? REALTIME_DEFAULTS.maxBufferedAudioMs,
    maxReconnectAttempts: options.maxReconnectAttempts ?? REALTIME_DEFAULTS.maxReconnectAttempts,
  });
  if (options.onRetrying !== undefined) session.on('retrying', options.onRetrying);
  await session.open();
  return session;
}
