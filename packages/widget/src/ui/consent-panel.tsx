import type { ConsentMethod } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

// Keyed by the protocol's type, so a method added there fails the type check here. Only the type is
// imported: the module holding CONSENT_METHODS would bring every encounter API schema into the bundle.
const METHOD_LABELS: Record<ConsentMethod, string> = {
  verbal: 'Verbal',
  written: 'Written',
  electronic: 'Electronic',
};
const METHODS = Object.keys(METHOD_LABELS) as ConsentMethod[];

/** Asked once per encounter, before the first recording; the service refuses audio without it. */
export function ConsentPanel({
  busy,
  onConfirm,
}: {
  busy: boolean;
  onConfirm: (method: ConsentMethod, note: string) => void;
}) {
  const [method, setMethod] = useState<ConsentMethod>('verbal');
  const [note, setNote] = useState('');
  return (
    <form
      class="panel consent"
      aria-labelledby="consent-title"
      onSubmit={(event) => {
        event.preventDefault();
        onConfirm(method, note);
      }}
    >
      <h2 id="consent-title">Consent to record</h2>
      <p>Confirm the patient agreed to this visit being recorded and transcribed.</p>
      <fieldset>
        <legend>How was consent given?</legend>
        <div class="choices">
          {METHODS.map((value) => (
            <label key={value} class="choice">
              <input
                type="radio"
                name="consent-method"
                value={value}
                checked={method === value}
                onChange={() => setMethod(value)}
              />
              {METHOD_LABELS[value]}
            </label>
          ))}
        </div>
      </fieldset>
      <label class="field">
        <span>Note (optional)</span>
        <input
          type="text"
          maxLength={1000}
          value={note}
          onInput={(event) => setNote(event.currentTarget.value)}
          placeholder="e.g. daughter present"
        />
      </label>
      <button type="submit" class="button button-primary" disabled={busy}>
        {busy ? 'Saving…' : 'Patient consents to recording'}
      </button>
    </form>
  );
}
