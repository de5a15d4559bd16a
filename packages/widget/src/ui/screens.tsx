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
