/** A page's main action, above what it acts on: "Create key", "Invite member". */
export function PageAction({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <div class="buttons">
      <button type="button" class="button button-primary" onClick={onClick}>
        {label}
      </button>
    </div>
  );
}

export interface RowButtonProps {
  /** What it does, as shown: "Revoke". */
  label: string;
  /** The rest of its accessible name, which says which record: "backend", "of Devi Developer". */
  record: string;
  danger?: boolean;
  onClick: () => void;
}

/** An action on one record, in its table row. */
export function RowButton({ label, record, danger = false, onClick }: RowButtonProps) {
  return (
    <button
      type="button"
      class={danger ? 'button button-small button-danger' : 'button button-small'}
      onClick={onClick}
    >
      {label}
      <span class="visually-hidden"> {record}</span>
    </button>
  );
}
