import type { ComponentChildren } from 'preact';

export interface FilterFormProps {
  /** The form's accessible name: "Audit log filters". */
  label: string;
  submitLabel: string;
  /** Applies the filters being edited (Enter in any field, or the submit button). */
  onApply: () => void;
  /** Beside the submit button: the CSV export of what is shown. */
  actions?: ComponentChildren;
  /** The filters' fields. */
  children: ComponentChildren;
}

/** A row of filters over a list, applied together. */
export function FilterForm({ label, submitLabel, onApply, actions, children }: FilterFormProps) {
  return (
    <form
      class="filters"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      {children}
      <div class="buttons filter-buttons">
        <button type="submit" class="button button-primary">
          {submitLabel}
        </button>
        {actions}
      </div>
    </form>
  );
}
