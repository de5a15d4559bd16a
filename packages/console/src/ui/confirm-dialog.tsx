import type { ComponentChildren } from 'preact';

import { DialogForm } from './dialog.js';
import { useSubmit } from './hooks.js';

export interface ConfirmDialogProps {
  title: string;
  /** The button that does it: "Revoke key", "Remove member". */
  confirmLabel: string;
  /** Does it; the dialog closes once it has succeeded. */
  action: () => Promise<unknown>;
  onDone: () => void;
  onClose: () => void;
  /** What will happen, in plain words. */
  children: ComponentChildren;
}

/** Asks before a change that cannot be undone. */
export function ConfirmDialog({ title, confirmLabel, action, onDone, onClose, children }: ConfirmDialogProps) {
  const form = useSubmit(action, onDone);
  return (
    <DialogForm title={title} onClose={onClose} {...form} submitLabel={confirmLabel} danger>
      <div class="dialog-body">{children}</div>
    </DialogForm>
  );
}
