import type { WidgetController } from '../controller/widget-controller.js';
import type { ActiveEncounter, Notice, Workspace } from '../controller/widget-state.js';
import type { PatientSummary } from '../controller/patient-summary.js';
import { ConsentPanel } from './consent-panel.js';
import { DocumentsPanel } from './documents-panel.js';
import { useStore } from './hooks.js';
import { MicrophoneNotice } from './microphone-notice.js';
import { NotePanel } from './note-panel.js';
import { PatientHeader } from './patient-header.js';
import { RecorderPanel } from './recorder-panel.js';
import { MismatchScreen, PatientProblems, PhaseScreen, WaitingScreen } from './screens.js';
import { TranscriptPanel } from './transcript-panel.js';

function statusLine(online: boolean, { recorder, busy }: Workspace): string {
  if (!online) return 'Offline';
  if (recorder.connection === 'reconnecting') return 'Reconnecting…';
  switch (recorder.status) {
    case 'recording':
      return 'Recording';
    case 'paused':
      return 'Recording paused';
    case 'stopping':
      return 'Finishing the transcript';
    case 'starting':
      return 'Starting';
    case 'idle':
      return busy === 'generating' ? 'Writing the note' : 'Ready';
  }
}

export function App({ controller }: { controller: WidgetController }) {
  const { phase, online, notice, patientProblems } = useStore(controller.store);
  return (
    <div class="widget">
      <header class="topbar">
        <h1 class="brand">Chartwright scribe</h1>
        <p class={`status ${online ? '' : 'status-offline'}`} role="status" aria-live="polite">
          {phase.kind === 'ready' ? statusLine(online, phase.workspace) : ''}
        </p>
      </header>
      {!online && (
        <p class="callout callout-warning" role="alert">
          You are offline. A recording in progress continues and is sent when the connection is back.
        </p>
      )}
      {notice !== null && <NoticeCallout notice={notice} onDismiss={() => controller.dismissNotice()} />}
      {phase.kind === 'ready' && patientProblems.length > 0 && (
        <PatientProblems problems={patientProblems} onAsk={() => controller.requestPatientContext()} />
      )}
      <main class="content">
        {phase.kind === 'ready' ? (
          <WorkspaceView controller={controller} workspace={phase.workspace} />
        ) : (
          <PhaseScreen phase={phase.kind} onRetry={() => void controller.start()} />
        )}
      </main>
    </div>
  );
}

function NoticeCallout({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div class={`callout callout-${notice.kind === 'error' ? 'error' : 'info'}`} role="alert">
      <p>{notice.message}</p>
      <button type="button" class="button button-small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

function WorkspaceView({ controller, workspace }: { controller: WidgetController; workspace: Workspace }) {
  const { encounter } = workspace;
  if (encounter?.status === 'mismatched') return <MismatchScreen />;
  if (!encounter?.patient) return <WaitingScreen onAsk={() => controller.requestPatientContext()} />;
  return (
    <EncounterView controller={controller} workspace={workspace} encounter={encounter} patient={encounter.patient} />
  );
}

interface EncounterViewProps {
  controller: WidgetController;
  workspace: Workspace;
  encounter: ActiveEncounter;
  patient: PatientSummary;
}

/** The transcript, its corrections and role swaps going to the controller. */
function TranscriptView({
  controller,
  encounter,
  busy,
}: {
  controller: WidgetController;
  encounter: ActiveEncounter;
  busy: boolean;
}) {
  return (
    <TranscriptPanel
      lines={encounter.transcript}
      partial={encounter.partial}
      busy={busy}
      actions={{
        correct: (lineId, correction) => controller.correctTranscript(lineId, correction),
        swap: (lineId) => void controller.swapSpeakerRoles(lineId),
      }}
    />
  );
}

function EncounterView({ controller, workspace, encounter, patient }: EncounterViewProps) {
  const { busy, recorder } = workspace;
  const hasTranscript = encounter.transcript.length > 0 || recorder.status !== 'idle';
  return (
    <div class="workspace">
      <div class="column">
        <PatientHeader patient={patient} />
        <MicrophoneNotice state={workspace.microphone} />
        {encounter.consent === null ? (
          <ConsentPanel
            busy={busy === 'consent'}
            onConfirm={(method, note) => void controller.recordConsent(method, note)}
          />
        ) : (
          <RecorderPanel
            recorder={recorder}
            consent={encounter.consent}
            recognizer={workspace.widgetSession.recognizer}
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
        <TranscriptView controller={controller} encounter={encounter} busy={busy !== null} />
        <NotePanel
          note={encounter.note}
          draft={encounter.noteDraft}
          busy={busy === 'generating' || busy === 'sending_note' ? busy : null}
          canGenerate={hasTranscript && busy === null}
          sentRevision={encounter.sentNoteRevision}
          actions={{
            generate: () => void controller.generateNote(),
            edit: (key, text) => controller.editNoteSection(key, text),
            send: () => void controller.sendNote(),
          }}
        />
        <DocumentsPanel
          documents={encounter.documents}
          busy={busy}
          canCreate={encounter.note !== null}
          sent={encounter.sentDocuments}
          signature={workspace.widgetSession.clinician}
          actions={{
            create: (kind, options) => void controller.createDocument(kind, options),
            send: (documentId, edit) => void controller.sendDocument(documentId, edit),
            restore: (documentId) => void controller.restoreDocumentEdit(documentId),
            saveName: (displayName) => void controller.saveDisplayName(displayName),
          }}
        />
      </div>
    </div>
  );
}
