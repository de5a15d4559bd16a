import type { WidgetPhase } from '../controller/widget-state.js';

/** Every phase but `ready` is a screen saying why the widget cannot work. */
export type ScreenPhase = Exclude<WidgetPhase['kind'], 'ready'>;

const SCREENS: Record<ScreenPhase, { title: string; text: string }> = {
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

export function PhaseScreen({ phase, onRetry }: { phase: ScreenPhase; onRetry: () => void }) {
  const screen = SCREENS[phase];
  return (
    <section class="screen" aria-labelledby="screen-title">
      <h2 id="screen-title">{screen.title}</h2>
      <p>{screen.text}</p>
      {phase === 'unreachable' && (
        <button type="button" class="button button-primary" onClick={onRetry}>
          Try again
        </button>
      )}
    </section>
  );
}

export function MismatchScreen() {
  return (
    <section class="screen" aria-labelledby="mismatch-title">
      <h2 id="mismatch-title">This visit belongs to another patient</h2>
      <p>The EMR opened this visit for a different patient. Reopen the scribe from the current patient’s chart.</p>
    </section>
  );
}

export function WaitingScreen({ onAsk }: { onAsk: () => void }) {
  return (
    <section class="screen" aria-labelledby="waiting-title">
      <h2 id="waiting-title">Waiting for the patient</h2>
      <p>The scribe starts once your EMR has sent the patient’s details.</p>
      <button type="button" class="button" onClick={onAsk}>
        Ask the EMR again
      </button>
    </section>
  );
}

/** `patient.allergies[0].name` as "Patient › allergies 1 › name". */
function fieldName(path: string): string {
  return path
    .replace(/\[(\d+)\]/g, (_, index: string) => ` ${Number(index) + 1}`)
    .split('.')
    .map((part, index) => (index === 0 ? (FIELD_ROOTS[part] ?? part) : part))
    .join(' › ');
}

const FIELD_ROOTS: Readonly<Record<string, string>> = {
  patient: 'Patient',
  context: 'Clinical context',
  appointment: 'Appointment',
  noteConfig: 'Note sections',
  message: 'The message',
};

/**
 * The EMR sent patient details the widget refused (it told the EMR with WIDGET_ERROR): the clinician
 * is told too, field by field, so they know why the patient does not show and whom to ask.
 */
export function PatientProblems({ problems, onAsk }: { problems: readonly string[]; onAsk: () => void }) {
  return (
    <section class="callout callout-error" role="alert" aria-labelledby="patient-problems-title">
      <h2 id="patient-problems-title" class="callout-title">
        The EMR sent patient details the scribe cannot use
      </h2>
      <p>The patient was not updated. Your EMR was told what is wrong; if it persists, tell your EMR’s support:</p>
      <ul>
        {problems.map((problem) => {
          const colon = problem.indexOf(': ');
          return colon < 0 ? (
            <li key={problem}>{problem}</li>
          ) : (
            <li key={problem}>
              <strong>{fieldName(problem.slice(0, colon))}</strong>: {problem.slice(colon + 2)}
            </li>
          );
        })}
      </ul>
      <button type="button" class="button button-small" onClick={onAsk}>
        Ask the EMR again
      </button>
    </section>
  );
}
