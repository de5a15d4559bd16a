import type { ConsoleSession, ErrorDetail, SsoError } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import type { ConsoleApi } from '../../api/console-api.js';
import { AuthFrame } from '../auth-frame.js';
import { useSubmit } from '../hooks.js';
import { TextInput } from '../fields.js';
import { ErrorNotice } from '../notices.js';

/** Why a single sign-on came back refused, and what the person can do about it. */
const SSO_ERROR_MESSAGES: Readonly<Record<SsoError, string>> = {
  denied: 'Single sign-on was cancelled or refused at your identity provider. Try again, or sign in with a password.',
  expired: 'That single sign-on took too long or had already been used. Start it again.',
  not_a_member:
    'Your identity provider signed you in with an e-mail address that is not a member of the organisation. Sign in there with your work account, or ask an owner to invite that address.',
  email_not_verified:
    'Your identity provider has not verified your e-mail address, so the console cannot sign you in with it. Verify it there, then try again.',
  provider_error:
    'Your identity provider could not be reached or gave an answer the console cannot use. Try again later, or sign in with a password.',
};

export interface SignInPageProps {
  api: ConsoleApi;
  onSignedIn: (session: ConsoleSession) => void;
  /** Why the person is here, when it is not their choice (their session ended). */
  reason?: string;
  /** Why the single sign-on they just tried failed, as the service's callback said. */
  ssoError?: SsoError;
}

interface FormProps {
  api: ConsoleApi;
  email: string;
  onEmail: (email: string) => void;
}

/** Signing in with a password or the organisation's identity provider; the latter first when back from a failed one. */
export function SignInPage({ api, onSignedIn, reason, ssoError }: SignInPageProps) {
  const [email, setEmail] = useState('');
  const [withSso, setWithSso] = useState(ssoError !== undefined);
  return (
    <AuthFrame title="Sign in">
      {reason !== undefined && <p class="callout callout-info">{reason}</p>}
      {ssoError !== undefined && (
        <p class="callout callout-error" role="alert">
          {SSO_ERROR_MESSAGES[ssoError]}
        </p>
      )}
      {withSso ? (
        <SsoForm api={api} email={email} onEmail={setEmail} />
      ) : (
        <PasswordForm api={api} email={email} onEmail={setEmail} onSignedIn={onSignedIn} />
      )}
      <div class="auth-alternative">
        <button type="button" class="button" onClick={() => setWithSso(!withSso)}>
          {withSso ? 'Sign in with a password' : 'Sign in with single sign-on'}
        </button>
      </div>
    </AuthFrame>
  );
}

/** The address both ways of signing in start from, kept when switching between them. */
function EmailField(props: Omit<FormProps, 'api'> & { problems?: readonly ErrorDetail[] | undefined }) {
  return (
    <TextInput
      id="sign-in-email"
      label="E-mail"
      type="email"
      autoComplete="username"
      value={props.email}
      onInput={props.onEmail}
      problems={props.problems}
    />
  );
}

function PasswordForm({ api, email, onEmail, onSignedIn }: FormProps & Pick<SignInPageProps, 'onSignedIn'>) {
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(() => api.signIn({ email: email.trim(), password }), onSignedIn);
  return (
    <form onSubmit={onSubmit} noValidate>
      <EmailField email={email} onEmail={onEmail} />
      <TextInput
        id="sign-in-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onInput={setPassword}
      />
      <ErrorNotice error={error} />
      <button type="submit" class="button button-primary" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}

/** The e-mail address names the organisation; the service answers with its provider's sign-in page. */
function SsoForm({ api, email, onEmail }: FormProps) {
  const [leaving, setLeaving] = useState(false);
  const { busy, error, onSubmit } = useSubmit(
    () => api.startSso({ email: email.trim() }),
    ({ authorizationUrl }) => {
      setLeaving(true);
      window.location.assign(authorizationUrl);
    },
  );
  return (
    <form onSubmit={onSubmit} noValidate>
      <p>Your organisation’s identity provider signs you in; the console needs only your work e-mail address.</p>
      <EmailField email={email} onEmail={onEmail} problems={error?.problemsOf('email')} />
      <ErrorNotice error={error} fields={['email']} />
      <button type="submit" class="button button-primary" disabled={busy || leaving}>
        Continue to your identity provider
      </button>
      <p class="status-line" role="status">
        {leaving ? 'Taking you to your identity provider…' : ''}
      </p>
    </form>
  );
}
