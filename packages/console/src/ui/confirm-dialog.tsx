import type { ComponentChildren } from 'preact';

import { Dialog } from './dialog.js';
import { useAction } from './hooks.js';
import { ErrorNotice } from './notices.js';

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

/**
 * Asks before a change that cannot be undone. Cancel comes first and has focus, so Enter on an
 * opened dialog never destroys anything.
 */
export function ConfirmDialog({ title, confirmLabel, action, onDone, onClose, children }: ConfirmDialogProps) {
  const { busy, error, run } = useAction();
  const confirm = async () => {
    if ((await run(action)) !== null) onDone();
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <div class="dialog-body">{children}</div>
      <ErrorNotice error={error} />
      <div class="buttons dialog-buttons">
        <button type="button" class="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" class="button button-danger" disabled={busy} onClick={() => void confirm()}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
