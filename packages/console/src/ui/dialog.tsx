import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';

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

/** Moves focus to the element once it is shown: the first thing to read when a dialog's content changes. */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useLayoutEffect(() => ref.current?.focus(), []);
  return ref;
}

/** A dialog form's buttons: Cancel, and the submit button (disabled while it runs). */
export function FormButtons({
  busy,
  submitLabel,
  onClose,
}: {
  busy: boolean;
  submitLabel: string;
  onClose: () => void;
}) {
  return (
    <div class="buttons dialog-buttons">
      <button type="button" class="button" onClick={onClose}>
        Cancel
      </button>
      <button type="submit" class="button button-primary" disabled={busy}>
        {submitLabel}
      </button>
    </div>
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
