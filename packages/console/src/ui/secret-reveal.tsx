import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

import { CopyField } from './copy-field.js';
import { Dialog, DoneButton } from './dialog.js';

export interface SecretRevealProps {
  /** What the secret is: "API key", "X-Partner-Key", "Invitation link". */
  label: string;
  secret: string;
  /** Why it matters and where it may go; read with the field. */
  children: ComponentChildren;
}

/**
 * A secret the service shows this once, with the warning tied to the field, which gets focus so a
 * screen reader reads both at once.
 */
function SecretReveal({ label, secret, children }: SecretRevealProps) {
  const warning = useId();
  return (
    <>
      <div class="callout callout-warning" id={warning}>
        {children}
      </div>
      <CopyField label={`${label} (shown once)`} what={label} value={secret} describedBy={warning} focus />
    </>
  );
}

export interface SecretDialogProps extends SecretRevealProps {
  title: string;
  onClose: () => void;
  /** Read after the secret: when the one it replaces stops working. */
  after?: ComponentChildren;
}

/** A dialog's last step: the secret just made, and Done. */
export function SecretDialog({ title, onClose, label, secret, children, after }: SecretDialogProps) {
  return (
    <Dialog title={title} onClose={onClose}>
      <SecretReveal label={label} secret={secret}>
        {children}
      </SecretReveal>
      {after}
      <DoneButton onClose={onClose} />
    </Dialog>
  );
}
