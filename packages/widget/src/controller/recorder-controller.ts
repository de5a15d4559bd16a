import {
  MicrophoneError,
  MicrophonePermissionError,
  type ChartwrightError,
  type RealtimeTokenGrant,
} from '@chartwright/client';
import type { ConsentMethod } from '@chartwright/protocol';

import { WidgetApiError } from '../api/widget-api-error.js';
import type { ControllerContext } from './context.js';
import { describeRecordingStart, startFailureCause, whileBusy } from './notices.js';
import { Recording, type RecordingHandlers } from './recording.js';
import { activeEncounterOf, canRecord, transcriptLineOf, workspaceOf } from './widget-state.js';

const MICROPHONE_NOT_ALLOWED_MESSAGE =
  'microphone: the widget’s iframe may not use the microphone; embed it with allow="microphone"';

/**
 * Recording the encounter: consent first, the microphone and what keeps it from working, and the
 * recording itself (a realtime session fed by the microphone) with its transcript lines.
 */
export class RecorderController {
  private recording: Recording | null = null;

  constructor(private readonly context: ControllerContext) {}

  async recordConsent(method: ConsentMethod, note: string): Promise<void> {
    const { store, api } = this.context;
    const encounter = activeEncounterOf(store.state);
    if (encounter === null) return;
    await whileBusy(store, 'consent', async () => {
      const consent = await api.recordConsent(encounter.encounterId, {
        method,
        ...(note.trim() === '' ? {} : { note: note.trim() }),
      });
      store.dispatch({ type: 'consent_recorded', consent });
    });
  }

  /** Tells the EMR at once when the frame may not use the microphone, before anyone presses Record. */
  checkMicrophonePolicy(): void {
    const policy = this.context.env.microphonePolicy();
    if (policy === 'blocked') this.microphoneBlockedByEmbedder();
    else this.context.store.dispatch({ type: 'microphone', microphone: policy });
  }

  /** Opens the realtime session and the microphone; the caller runs it in turn with encounter changes. */
  async start(): Promise<void> {
    const { env, store } = this.context;
    const encounterId = activeEncounterOf(store.state)?.encounterId;
    if (!canRecord(store.state) || encounterId === undefined) return;
    store.dispatch({ type: 'recording_starting' });
    try {
      // Minted here rather than by the realtime session, so a refusal (no consent, offline) is reported at once, not retried.
      let first: RealtimeTokenGrant | null = await this.realtimeToken(encounterId);
      this.recording = await Recording.start({
        baseUrl: env.baseUrl,
        // Bound to this encounter: a reconnect after a patient switch still files audio under its own patient.
        token: () =>
          (first === null ? this.realtimeToken(encounterId) : Promise.resolve(first)).finally(() => (first = null)),
        input: env.audio,
        ...(env.WebSocket === undefined ? {} : { WebSocket: env.WebSocket }),
        handlers: this.handlers(),
      });
      store.dispatch({ type: 'recording_started', at: env.monotonicNow() });
    } catch (error) {
      store.dispatch({ type: 'recording_not_started' });
      this.cannotRecord(error);
    }
  }

  pause(): void {
    if (this.recording === null || workspaceOf(this.context.store.state)?.recorder.status !== 'recording') return;
    this.recording.pause();
    this.context.store.dispatch({ type: 'recording_paused', at: this.context.env.monotonicNow() });
  }

  resume(): void {
    if (this.recording === null || workspaceOf(this.context.store.state)?.recorder.status !== 'paused') return;
    this.recording.resume();
    this.context.store.dispatch({ type: 'recording_resumed', at: this.context.env.monotonicNow() });
  }

  /** Releases the microphone and waits for the last finals: after it, the transcript is complete. */
  async stop(): Promise<void> {
    const recording = this.recording;
    if (recording === null) return;
    this.recording = null;
    this.context.store.dispatch({ type: 'recording_stopping', at: this.context.env.monotonicNow() });
    await recording.stop();
    this.context.store.dispatch({ type: 'recording_stopped' });
  }

  private handlers(): RecordingHandlers {
    const { store } = this.context;
    return {
      partial: (text) => store.dispatch({ type: 'partial', text }),
      final: (segment, realtimeSessionId) =>
        store.dispatch({ type: 'final', line: transcriptLineOf(realtimeSessionId, segment) }),
      level: (level) => store.dispatch({ type: 'level', level }),
      connection: (connection) => store.dispatch({ type: 'connection', connection }),
      startRetrying: ({ attempt, of, error }) =>
        store.dispatch({ type: 'recording_start_retrying', retry: { cause: startFailureCause(error), attempt, of } }),
      failed: (error) => void this.recordingFailed(error),
      audioDropped: () => {
        if (store.state.notice !== null) return;
        store.dispatch({
          type: 'failed',
          message:
            'The connection has been lost for too long: new audio is not kept until it is back. The recording so far is safe.',
        });
      },
    };
  }

  private async realtimeToken(encounterId: string): Promise<RealtimeTokenGrant> {
    const minted = await this.context.api.realtimeToken(encounterId);
    // The service's expiry on the local clock, so the realtime session refreshes it on time whatever the skew.
    return {
      token: minted.token,
      expiresAt: new Date(Date.parse(minted.expiresAt) - this.context.env.boot.clockOffsetMs),
    };
  }

  private microphoneBlockedByEmbedder(): void {
    if (workspaceOf(this.context.store.state)?.microphone === 'blocked_by_embedder') return;
    this.context.store.dispatch({ type: 'microphone', microphone: 'blocked_by_embedder' });
    this.context.postError('MICROPHONE_NOT_ALLOWED', [MICROPHONE_NOT_ALLOWED_MESSAGE]);
  }

  private cannotRecord(error: unknown): void {
    const { env, store } = this.context;
    if (error instanceof MicrophonePermissionError) {
      if (env.microphonePolicy() === 'blocked') this.microphoneBlockedByEmbedder();
      else store.dispatch({ type: 'microphone', microphone: 'denied' });
      return;
    }
    if (error instanceof MicrophoneError) {
      store.dispatch({ type: 'microphone', microphone: 'unavailable' });
      return;
    }
    if (error instanceof WidgetApiError && error.code === 'consent_required') {
      store.dispatch({ type: 'consent_required' });
      return;
    }
    store.dispatch({ type: 'failed', message: describeRecordingStart(error) });
  }

  private async recordingFailed(error: ChartwrightError): Promise<void> {
    const deviceLost = error.code === 'microphone_ended';
    await this.stop();
    this.context.store.dispatch({
      type: 'recording_lost',
      deviceLost,
      message: deviceLost
        ? 'The microphone stopped. What was recorded until then is kept.'
        : 'The recording stopped: the connection could not be restored. What was recorded until then is kept.',
    });
  }
}
