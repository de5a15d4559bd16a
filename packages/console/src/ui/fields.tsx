import type { ErrorDetail } from '@chartwright/protocol';
import type { ComponentChildren } from 'preact';

export interface FieldProps {
  /** The control's id, for its label. */
  id: string;
  label: string;
  hint?: string | undefined;
  /** The service's problems with this field, shown under it and tied to the control. */
  problems?: readonly ErrorDetail[] | undefined;
  /** Label and control side by side (a choice in a panel's head). */
  inline?: boolean | undefined;
  /** Renders the control with the attributes that tie it to its hint and problems. */
  children: (aria: { 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ComponentChildren;
}

/** A labelled form control with its hint and the service's validation problems. */
export function Field({ id, label, hint, problems = [], inline = false, children }: FieldProps) {
  const described = [hint === undefined ? null : `${id}-hint`, problems.length > 0 ? `${id}-problems` : null]
    .filter((part) => part !== null)
    .join(' ');
  return (
    <div class={inline ? 'field field-inline' : 'field'}>
      <label for={id}>{label}</label>
      {children({
        ...(described === '' ? {} : { 'aria-describedby': described }),
        ...(problems.length > 0 ? { 'aria-invalid': true } : {}),
      })}
      {hint !== undefined && (
        <span id={`${id}-hint`} class="hint">
          {hint}
        </span>
      )}
      {problems.length > 0 && (
        <span id={`${id}-problems`} class="field-error">
          {problems.map((problem) => problem.message).join('; ')}
        </span>
      )}
    </div>
  );
}

export interface TextInputProps {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string | undefined;
  problems?: readonly ErrorDetail[] | undefined;
  type?: 'text' | 'email' | 'password' | 'number' | 'date' | 'datetime-local';
  autoComplete?: string;
}

/** A labelled text input, controlled. */
export function TextInput({
  id,
  label,
  value,
  onInput,
  hint,
  problems,
  type = 'text',
  autoComplete = 'off',
}: TextInputProps) {
  return (
    <Field id={id} label={label} hint={hint} problems={problems}>
      {(aria) => (
        <input
          id={id}
          type={type}
          autoComplete={autoComplete}
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
          {...aria}
        />
      )}
    </Field>
  );
}

export interface SelectProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** `[value, label]` pairs, in their order; `value` among them. */
  options: readonly (readonly [string, string])[];
  hint?: string | undefined;
  inline?: boolean | undefined;
}

/** A labelled drop-down list, controlled. */
export function Select({ id, label, value, onChange, options, hint, inline }: SelectProps) {
  return (
    <Field id={id} label={label} hint={hint} inline={inline}>
      {(aria) => (
        <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)} {...aria}>
          {options.map(([choice, text]) => (
            <option key={choice} value={choice}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
