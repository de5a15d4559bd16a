import type { ErrorDetail } from '@chartwright/protocol';
import type { ComponentChildren } from 'preact';

export interface FieldProps {
  /** The control's id, for its label. */
  id: string;
  label: string;
  hint?: string;
  /** The service's problems with this field, shown under it and tied to the control. */
  problems?: readonly ErrorDetail[];
  /** Renders the control with the attributes that tie it to its hint and problems. */
  children: (aria: { 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ComponentChildren;
}

/** A labelled form control with its hint and the service's validation problems. */
export function Field({ id, label, hint, problems = [], children }: FieldProps) {
  const described = [hint === undefined ? null : `${id}-hint`, problems.length > 0 ? `${id}-problems` : null]
    .filter((part) => part !== null)
    .join(' ');
  return (
    <div class="field">
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
  hint?: string;
  problems?: readonly ErrorDetail[];
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
    <Field
      id={id}
      label={label}
      {...(hint === undefined ? {} : { hint })}
      {...(problems === undefined ? {} : { problems })}
    >
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
