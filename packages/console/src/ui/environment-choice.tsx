import type { Environment } from '@chartwright/protocol';

import { ENVIRONMENT_LABELS } from './format.js';

export interface EnvironmentChoiceProps {
  value: Environment;
  onChange: (environment: Environment) => void;
  /** The environments the member's role may make credentials for. */
  environments: readonly Environment[];
}

/** Which environment a new key or partner belongs to: radio buttons, only those the role permits. */
export function EnvironmentChoice({ value, onChange, environments }: EnvironmentChoiceProps) {
  return (
    <fieldset>
      <legend>Environment</legend>
      <div class="choices">
        {environments.map((choice) => (
          <label key={choice} class="choice">
            <input
              type="radio"
              name="environment"
              value={choice}
              checked={value === choice}
              onChange={() => onChange(choice)}
            />
            {ENVIRONMENT_LABELS[choice]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
