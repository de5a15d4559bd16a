import { Select } from './fields.js';
import { DEFAULT_GRACE_SECONDS, GRACE_CHOICES } from './format.js';

const OPTIONS = GRACE_CHOICES.map(
  ({ seconds, label }) => [String(seconds), seconds === DEFAULT_GRACE_SECONDS ? `${label} (default)` : label] as const,
);

/** The grace period of a rotation: how long the old key or secret keeps working beside the new one. */
export function GraceSelect({ value, onChange }: { value: number; onChange: (seconds: number) => void }) {
  return (
    <Select
      id="grace-period"
      label="Old one keeps working for"
      hint="Long enough to deploy the new one everywhere the old one is used."
      value={String(value)}
      onChange={(seconds) => onChange(Number(seconds))}
      options={OPTIONS}
    />
  );
}
