import { ChartwrightError, RealtimeError } from '@chartwright/client';

import { WidgetApiError } from '../api/widget-api-error.js';
import type { WidgetStore } from './context.js';
import type { Busy, StartRetryCause } from './widget-state.js';

/** What the clinician reads about a failed call; the service's message names the problem without PHI. */
export function describe(error: unknown): string {
  if (error instanceof WidgetApiError) {
    // connection_error: the request never reached the service, or its answer never came back.
    return error.code === 'connection_error'
      ? 'The Chartwright service cannot be reached. Check the connection and try again.'
      : error.message;
  }
  return 'Something went wrong. Try again.';
}

/**
 * Why a recording did not start, for the clinician: a realtime session that could not open says so
 * in words about transcription rather than as a generic failure. The client library retries a
 * refusal for capacity before giving up, so when it reaches here the service has been full for a while.
 */
export function describeRecordingStart(error: unknown): string {
  if (!(error instanceof RealtimeError)) return describe(error);
  switch (startFailureCause(error)) {
    case 'capacity':
      return 'Transcription is at capacity right now, so the recording did not start. Try again in a minute.';
    case 'unavailable':
      return 'Transcription is not available on this service right now, so the recording did not start.';
    case 'unreachable':
      return 'The recording did not start: the transcription service could not be reached. Check the connection and try again.';
  }
}

/** Why a realtime session did not start, from one attempt's failure or from the client's last word. */
export function startFailureCause(error: unknown): StartRetryCause {
  // After its retries the client reports connection_failed, with the service's last refusal as its cause.
  const refusal = error instanceof RealtimeError && error.cause instanceof RealtimeError ? error.cause : error;
  const code = refusal instanceof ChartwrightError ? refusal.code : '';
  if (code === 'at_capacity' || code === 'tenant_at_capacity') return 'capacity';
  if (code === 'recognizer_unavailable') return 'unavailable';
  return 'unreachable';
}

/**
 * Runs one of the clinician's actions: `busy` says what is in flight (for progress, and to disable
 * the buttons it concerns) and an earlier notice goes; a failure becomes an error notice, in
 * `explain`'s words when the action has better ones for some errors.
 */
export async function whileBusy(
  store: WidgetStore,
  busy: Busy,
  action: () => Promise<void>,
  explain: (error: unknown) => string = describe,
): Promise<void> {
  store.dispatch({ type: 'busy', busy });
  try {
    await action();
  } catch (error) {
    store.dispatch({ type: 'failed', message: explain(error) });
  } finally {
    store.dispatch({ type: 'settled' });
  }
}
