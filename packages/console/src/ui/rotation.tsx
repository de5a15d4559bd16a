import { DEFAULT_GRACE_SECONDS, GRACE_CHOICES } from './format.js';

/** The grace period of a rotation: how long the old key or secret keeps working beside the new one. */
export function GraceSelect({ value, onChange }: { value: number; onChange: (seconds: number) => void }) {
  return (
    <div class="field">
      <label for="grace-period">Old one keeps working for</label>
      <select id="grace-period" value={String(value)} onChange={(event) => onChange(Number(event.currentTarget.value))}>
        {GRACE_CHOICES.map(({ seconds, label }) => (
          <option key={seconds} value={String(seconds)}>
            {label}
            {seconds === DEFAULT_GRACE_SECONDS ? ' (default)' : ''}
          </option>
        ))}
      </select>
      <span class="hint">Long enough to deploy the new one everywhere the old one is used.</span>
    </div>
  );
}
