import { useId } from 'preact/hooks';

import { CopyButton } from './copy-button.js';
import { useFocusOnMount } from './hooks.js';

export interface CopyFieldProps {
  /** The field's visible label. */
  label: string;
  /** What the value is, for the Copy button's name ("Copy the <what>"). */
  what: string;
  value: string;
  /** The id of text read with the field (a warning, an instruction). */
  describedBy?: string;
  /** Takes focus when shown, so a screen reader reads the field and its description at once. */
  focus?: boolean;
}

/** A value to copy somewhere else: read-only, selected on focus, with a Copy button. */
export function CopyField({ label, what, value, describedBy, focus = false }: CopyFieldProps) {
  const id = useId();
  const field = useFocusOnMount<HTMLInputElement>(focus);
  return (
    <div class="copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input
          ref={field}
          id={id}
          class="copy-value"
          type="text"
          readOnly
          value={value}
          spellcheck={false}
          autoComplete="off"
          {...(describedBy === undefined ? {} : { 'aria-describedby': describedBy })}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={value} label={`Copy the ${what}`} selectText={() => field.current?.select()} />
      </div>
    </div>
  );
}
