import type { WidgetController } from '../controller/widget-controller.js';
import type { WidgetPhase, WidgetState } from '../controller/widget-state.js';
import { ConsentPanel } from './consent-panel.js';
import { DocumentsPanel } from './documents-panel.js';
import { useStore } from './hooks.js';
import { MicrophoneNotice } from './microphone-notice.js';
import { NotePanel } from './note-panel.js';
import { PatientHeader } from './patient-header.js';
import { RecorderPanel } from './recorder-panel.js';
import { TranscriptPanel } from './transcript-panel.js';

/** What the widget says when it cannot work, by phase. */
const SCREENS: Partial<Record<WidgetPhase, { title: string; text: string }>> = {
  starting: { title: 'Opening the scribe…', text: 'Checking your session with Chartwright.' },
  unauthorized: {
    title: 'This scribe link is not valid',
    text: 'Close it and open the scribe again from the patient’s chart in your EMR.',
  },
  expired: {
    title: 'Your session has expired',
    text: 'Your EMR is reopening the scribe. If nothing happens, reopen it from the patient’s chart. Nothing recorded is lost.',
  },
  unreachable: {
    title: 'Chartwright cannot be reached',
    text: 'Check the network connection, then try again.',
  },
  closed: {
    title: 'Scribe closed',
    text: 'The recording was saved and the microphone released.',
  },
};

function statusLine(state: WidgetState): string {
  if (!state.online) return 'Offline';
  if (state.recorder.connection === 'reconnecting') return 'Reconnecting…';
  switch (state.recorder.status) {
    case 'recording':
      return 'Recording';
    case 'paused':
      return 'Recording paused';
    case 'stopping':
      return 'Finishing the transcript';
    case 'starting':
      return 'Starting';
    case 'idle':
      return state.busy === 'generating' ? 'Writing the note' : 'Ready';
  }
}

export function App({ controller }: { controller: WidgetController }) {
  const state = useStore(controller.store);
  const screen = SCREENS[state.phase];
  return (
    <div class="widget">
      <header class="topbar">
        <h1 class="brand">Chartwright scribe</h1>
        <p class={`status ${state.online ? '' : 'status-offline'}`} role="status" aria-live="polite">
          {state.phase === 'ready' ? statusLine(state) : ''}
        </p>
      </header>
      {!state.online && (
        <p class="callout callout-warning" role="alert">
          You are offline. A recording in progress continues and is sent when the connection is back.
        </p>
      )}
      {state.notice !== null && (
        <div class={`callout callout-${state.notice.kind === 'error' ? 'error' : 'info'}`} role="alert">
          <p>{state.notice.message}</p>
          <button type="button" class="button button-small" onClick={() => controller.dismissNotice()}>
            Dismiss
          </button>
        </div>
      )}
      <main class="content">
        {screen !== undefined ? (
          <section class="screen" aria-labelledby="screen-title">
            <h2 id="screen-title">{screen.title}</h2>
            <p>{screen.text}</p>
            {state.phase === 'unreachable' && (
              <button type="button" class="button button-primary" onClick={() => void controller.start()}>
                Try again
              </button>
            )}
          </section>
        ) : (
          <Workspace controller={controller} state={state} />
        )}
      </main>
    </div>
  );
}

function Workspace({ controller, state }: { controller: WidgetController; state: WidgetState }) {
  if (state.patientMismatch) {
    return (
      <section class="screen" aria-labelledby="mismatch-title">
        <h2 id="mismatch-title">This visit belongs to another patient</h2>
        <p>The EMR opened this visit for a different patient. Reopen the scribe from the current patient’s chart.</p>
      </section>
    );
  }
  if (state.patient === null) {
    return (
      <section class="screen" aria-labelledby="waiting-title">
        <h2 id="waiting-title">Waiting for the patient</h2>
        <p>The scribe starts once your EMR has sent the patient’s details.</p>
        <button type="button" class="button" onClick={() => controller.requestPatientContext()}>
          Ask the EMR again
        </button>
      </section>
    );
  }
  const recording = state.recorder.status !== 'idle';
  const hasTranscript = state.transcript.length > 0 || recording;
  return (
    <div class="workspace">
      <div class="column">
        <PatientHeader patient={state.patient} />
        <MicrophoneNotice state={state.microphone} />
        {state.consent === null ? (
          <ConsentPanel
            busy={state.busy === 'consent'}
            onConfirm={(method, note) => void controller.recordConsent(method, note)}
          />
        ) : (
          <RecorderPanel
            recorder={state.recorder}
            canRecord={controller.canRecord}
            actions={{
              record: () => void controller.startRecording(),
              pause: () => controller.pauseRecording(),
              resume: () => controller.resumeRecording(),
              stop: () => void controller.stopRecording(),
            }}
          />
        )}
      </div>
      <div class="column">
        <TranscriptPanel lines={state.transcript} partial={state.partial} />
        <NotePanel
          note={state.note}
          draft={state.noteDraft}
          busy={state.busy === 'generating' || state.busy === 'sending_note' ? state.busy : null}
          canGenerate={hasTranscript && state.busy === null}
          sentRevision={state.sentNoteRevision}
          actions={{
            generate: () => void controller.generateNote(),
            edit: (key, text) => controller.editNoteSection(key, text),
            send: () => void controller.sendNote(),
          }}
        />
        <DocumentsPanel
          documents={state.documents}
          busy={state.busy}
          canCreate={state.note !== null}
          sent={state.sentDocuments}
          actions={{
            create: (kind, options) => void controller.createDocument(kind, options),
            send: (documentId, edit) => void controller.sendDocument(documentId, edit),
          }}
        />
      </div>
    </div>
  );
}
