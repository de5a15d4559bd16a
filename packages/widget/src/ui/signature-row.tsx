import { useState } from 'preact/hooks';

/** Who signs the clinician's documents: the display name of their profile, their e-mail until then. */
export interface Signature {
  displayName: string | null;
  email: string;
}

/**
 * The clinician's name on letters and forms, set once (kept by the service for every later visit)
 * and changeable; until it is set, documents are signed with their e-mail.
 */
export function SignatureRow({
  signature,
  busy,
  onSave,
}: {
  signature: Signature;
  busy: boolean;
  onSave: (displayName: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(signature.displayName ?? '');
  if (signature.displayName !== null && !editing) {
    return (
      <p class="signature">
        Letters are signed <strong>{signature.displayName}</strong>.{' '}
        <button
          type="button"
          class="button button-small"
          onClick={() => {
            setName(signature.displayName ?? '');
            setEditing(true);
          }}
        >
          Change name
        </button>
      </p>
    );
  }
  return (
    <SignatureForm
      name={name}
      onName={setName}
      hint={
        signature.displayName === null
          ? `Saved for your later visits too. Until you add it, letters are signed ${signature.email}.`
          : 'Saved for your later visits too.'
      }
      busy={busy}
      onSave={() => {
        onSave(name.trim());
        setEditing(false);
      }}
      onCancel={editing ? () => setEditing(false) : null}
    />
  );
}

function SignatureForm({
  name,
  onName,
  hint,
  busy,
  onSave,
  onCancel,
}: {
  name: string;
  onName: (name: string) => void;
  hint: string;
  busy: boolean;
  onSave: () => void;
  onCancel: (() => void) | null;
}) {
  return (
    <form
      class="signature-form"
      aria-label="Your name on letters"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim() !== '') onSave();
      }}
    >
      <label class="field">
        <span>Your name on letters</span>
        <input
          type="text"
          maxLength={200}
          autoComplete="name"
          required
          value={name}
          aria-describedby="signature-help"
          onInput={(event) => onName(event.currentTarget.value)}
          placeholder="e.g. Dr. Ana Rivera"
        />
        <span id="signature-help" class="muted">
          {hint}
        </span>
      </label>
      <div class="buttons">
        <button type="submit" class="button button-small" disabled={busy || name.trim() === ''}>
          Save name
        </button>
        {onCancel !== null && (
          <button type="button" class="button button-small" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
