import type { ErrorDetail } from '@chartwright/protocol';

import type { ConsoleApiError } from '../api/console-api-error.js';
import { Field } from './fields.js';

/** The origins a text area holds, one a line, blank lines left out. */
export const originsOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The service's problems with `allowedOrigins`, each naming the line it is about (`allowedOrigins[1]` is line 2). */
function originProblems(error: ConsoleApiError | null): ErrorDetail[] {
  return (error?.problemsOf('allowedOrigins') ?? []).map((problem) => {
    const index = /^allowedOrigins\[(\d+)\]/.exec(problem.path)?.[1];
    return index === undefined ? problem : { ...problem, message: `line ${Number(index) + 1}: ${problem.message}` };
  });
}

export interface OriginsFieldProps {
  value: string;
  onInput: (value: string) => void;
  error: ConsoleApiError | null;
}

/** The exact origins allowed to embed a partner's widget, one a line, with the service's verdict on each. */
export function OriginsField({ value, onInput, error }: OriginsFieldProps) {
  return (
    <Field
      id="partner-origins"
      label="Allowed origins"
      hint="One a line, exactly as the EMR’s pages are served: https://emr.example.com (scheme, host and port if not the default; no paths or wildcards)."
      problems={originProblems(error)}
    >
      {(aria) => (
        <textarea
          id="partner-origins"
          rows={4}
          spellcheck={false}
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
          {...aria}
        />
      )}
    </Field>
  );
}
