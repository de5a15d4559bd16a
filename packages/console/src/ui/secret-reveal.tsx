import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

import { CopyButton } from './copy-button.js';
import { useFocusOnMount } from './dialog.js';

export interface SecretRevealProps {
  /** What the secret is: "API key", "X-Partner-Key", "Invitation link". */
  label: string;
  secret: string;
  /** Why it matters and where it may go; read with the field. */
  children: ComponentChildren;
}

/**
 * A secret the service shows this once: read-only, selected on focus, with a Copy button and the
 * warning tied to the field, which gets focus so a screen reader reads both at once.
 */
export function SecretReveal({ label, secret, children }: SecretRevealProps) {
  const id = useId();
  const field = useFocusOnMount<HTMLInputElement>();
  return (
    <div class="secret">
      <div class="callout callout-warning" id={`${id}-warning`}>
        {children}
      </div>
      <label for={id}>{label} (shown once)</label>
      <div class="secret-row">
        <input
          ref={field}
          id={id}
          class="secret-value"
          type="text"
          readOnly
          value={secret}
          spellcheck={false}
          autoComplete="off"
          aria-describedby={`${id}-warning`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={secret} label={`Copy the ${label}`} selectText={() => field.current?.select()} />
      </div>
    </div>
  );
}
