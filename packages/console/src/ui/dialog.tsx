import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';

import type { ConsoleApiError } from '../api/console-api-error.js';
import { ErrorNotice } from './notices.js';

export interface DialogProps {
  title: string;
  /** Escape, or the dialog's own close or cancel button: the owner unmounts it. */
  onClose: () => void;
  children: ComponentChildren;
}

/**
 * A modal dialog on the native <dialog>: showModal() keeps focus inside it and makes the page behind
 * inert, and Escape closes it. Mounted open; when it goes, focus returns to what had it before, so
 * a keyboard user is back on the button that opened it.
 */
export function Dialog({ title, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useLayoutEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog?.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected === true) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} class="dialog-title">
        {title}
      </h2>
      {children}
    </dialog>
  );
}

/** The button that closes a dialog once its result has been read. */
export function DoneButton({ onClose }: { onClose: () => void }) {
  return (
    <div class="buttons dialog-buttons">
      <button type="button" class="button button-primary" onClick={onClose}>
        Done
      </button>
    </div>
  );
}

export interface DialogFormProps extends DialogProps {
  /** From useSubmit(). */
  onSubmit: (event: Event) => void;
  busy: boolean;
  error: ConsoleApiError | null;
  /** The form's fields, whose problems are shown under them rather than in the error notice. */
  fields?: readonly string[];
  submitLabel: string;
  /** The submit button destroys something (Revoke, Remove). */
  danger?: boolean;
}

/**
 * A dialog that is one form: its fields, what went wrong, then Cancel and the submit button
 * (disabled while it runs). Cancel comes first and has focus when the dialog opens, so Enter on a
 * dialog just opened never destroys anything.
 */
export function DialogForm({
  title,
  onClose,
  onSubmit,
  busy,
  error,
  fields = [],
  submitLabel,
  danger = false,
  children,
}: DialogFormProps) {
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        {children}
        <ErrorNotice error={error} fields={fields} />
        <div class="buttons dialog-buttons">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class={danger ? 'button button-danger' : 'button button-primary'} disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
