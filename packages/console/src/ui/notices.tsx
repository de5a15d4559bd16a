import type { ConsoleApiError } from '../api/console-api-error.js';

/** What a failed call means for the person, beyond the service's message. */
const ADVICE: Partial<Record<ConsoleApiError['code'], string>> = {
  role_forbidden: 'Your role does not allow this; an owner can change it under Members.',
  rate_limited: 'Wait a minute, then try again.',
  connection_error: 'Check the connection, then try again.',
  sso_required: 'Choose “Sign in with single sign-on” below and give your work e-mail address.',
  sso_not_available: 'Check the address, or sign in with a password: your organisation may not use single sign-on.',
};

/**
 * A failed call, announced when it appears. Field problems are shown under their fields instead
 * (`fields` names the form's fields), so only the others are listed here.
 */
export function ErrorNotice({ error, fields = [] }: { error: ConsoleApiError | null; fields?: readonly string[] }) {
  if (error === null) return null;
  const others = error.details.filter((detail) => !fields.some((field) => error.problemsOf(field).includes(detail)));
  const advice = ADVICE[error.code];
  return (
    <div class="callout callout-error" role="alert">
      <p>{error.details.length > 0 && others.length === 0 ? 'Check the fields marked above.' : error.message}</p>
      {others.length > 0 && (
        <ul>
          {others.map((detail) => (
            <li key={detail.path}>{detail.path === '' ? detail.message : `${detail.path}: ${detail.message}`}</li>
          ))}
        </ul>
      )}
      {advice !== undefined && <p>{advice}</p>}
    </div>
  );
}
