import type { RecognizerInfo, WidgetConsent } from '@chartwright/protocol';

import type { RecorderState, StartRetry, StartRetryCause } from '../controller/widget-state.js';
import { elapsedMs } from '../controller/widget-state.js';
import { formatElapsed, meterLevel, spokenElapsed } from './format.js';
import { useTicker } from './hooks.js';

export interface RecorderActions {
  record: () => void;
  pause: () => void;
  resume: () => void;
  stop: () => void;
}

const STATUS_TEXT: Record<RecorderState['status'], string> = {
  idle: 'Not recording',
  starting: 'Starting the microphone…',
  recording: 'Recording',
  paused: 'Paused',
  stopping: 'Finishing the transcript…',
};

/** Why the recording is still starting, while the client library tries again. */
const START_RETRY_TEXT: Record<StartRetryCause, string> = {
  capacity: 'Transcription is at capacity: waiting for a free place',
  unavailable: 'Transcription is not available right now: trying again',
  unreachable: 'The transcription service cannot be reached: trying again',
};

function StartRetryNotice({ retry }: { retry: StartRetry }) {
  return (
    <p class="callout callout-warning" role="status">
      {START_RETRY_TEXT[retry.cause]} (attempt {retry.attempt} of {retry.of})…
    </p>
  );
}

const CONSENT_METHODS: Record<WidgetConsent['method'], string> = {
  verbal: 'verbal',
  written: 'written',
  electronic: 'electronic',
};

/** The consent the recording rests on, in view the whole time the recorder is. */
function ConsentStatus({ consent }: { consent: WidgetConsent }) {
  const at = new Date(consent.recordedAt);
  const time = Number.isNaN(at.getTime())
    ? ''
    : ` at ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
  return (
    <p class="consent-status">
      ✓ Patient consented to recording ({CONSENT_METHODS[consent.method]}
      {time}){consent.note === null || consent.note === '' ? '' : ` — ${consent.note}`}
    </p>
  );
}

/**
 * Which recognizer transcribes the visit. The embedded one (PocketSphinx) mishears far more than a
 * Whisper-class server, so the clinician is told to review its transcript.
 */
function RecognizerNotice({ recognizer }: { recognizer: RecognizerInfo }) {
  switch (recognizer.kind) {
    case 'embedded':
      return (
        <p class="callout callout-warning">
          Transcribed by the built-in recognizer ({recognizer.name}), meant for trying the scribe out: it mishears many
          words. Review the transcript before you rely on it.
        </p>
      );
    case 'transcription_server':
      return <p>Transcribed by {recognizer.name}.</p>;
    case 'none':
      return null;
  }
}

export function RecorderPanel({
  recorder,
  consent,
  recognizer,
  canRecord,
  actions,
}: {
  recorder: RecorderState;
  consent: WidgetConsent;
  recognizer: RecognizerInfo;
  canRecord: boolean;
  actions: RecorderActions;
}) {
  const now = useTicker(recorder.status === 'recording');
  const elapsed = elapsedMs(recorder, now);
  return (
    <section class="panel recorder" aria-labelledby="recorder-title">
      <h2 id="recorder-title" class="visually-hidden">
        Recorder
      </h2>
      <div class="recorder-row">
        <span class={`recorder-dot recorder-dot-${recorder.status}`} aria-hidden="true" />
        <span class="recorder-status">{STATUS_TEXT[recorder.status]}</span>
        <time class="recorder-time" aria-label={`Recorded ${spokenElapsed(elapsed)}`}>
          {formatElapsed(elapsed)}
        </time>
      </div>
      <ConsentStatus consent={consent} />
      <RecognizerNotice recognizer={recognizer} />
      <meter
        class="level"
        aria-label="Microphone level"
        min={0}
        max={1}
        value={recorder.status === 'recording' ? meterLevel(recorder.level) : 0}
      />
      {recorder.status === 'starting' && recorder.startRetry !== null && (
        <StartRetryNotice retry={recorder.startRetry} />
      )}
      {recorder.connection === 'reconnecting' && (
        <p class="callout callout-warning" role="status">
          Connection lost. Recording continues on this device and is sent as soon as the connection is back.
        </p>
      )}
      <RecorderButtons status={recorder.status} canRecord={canRecord} actions={actions} />
    </section>
  );
}

/** Record unless a recording runs (usable once idle); Pause or Resume, and Stop, while one does. */
function RecorderButtons({
  status,
  canRecord,
  actions,
}: {
  status: RecorderState['status'];
  canRecord: boolean;
  actions: RecorderActions;
}) {
  const active = status === 'recording' || status === 'paused';
  return (
    <div class="buttons">
      {!active && (
        <button
          type="button"
          class="button button-record"
          onClick={actions.record}
          disabled={!canRecord || status !== 'idle'}
        >
          Record
        </button>
      )}
      {status === 'recording' && (
        <button type="button" class="button" onClick={actions.pause}>
          Pause
        </button>
      )}
      {status === 'paused' && (
        <button type="button" class="button" onClick={actions.resume}>
          Resume
        </button>
      )}
      {active && (
        <button type="button" class="button button-primary" onClick={actions.stop}>
          Stop
        </button>
      )}
    </div>
  );
}
