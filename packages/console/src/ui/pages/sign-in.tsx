import type { ConsoleSession } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import type { ConsoleApi } from '../../api/console-api.js';
import { AuthFrame } from '../auth-frame.js';
import { useAction } from '../hooks.js';
import { TextInput } from '../fields.js';
import { ErrorNotice } from '../notices.js';

export interface SignInPageProps {
  api: ConsoleApi;
  onSignedIn: (session: ConsoleSession) => void;
  /** Why the person is here, when it is not their choice (their session ended). */
  reason?: string;
}

export function SignInPage({ api, onSignedIn, reason }: SignInPageProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const session = await run(() => api.signIn({ email: email.trim(), password }));
    if (session !== null) onSignedIn(session);
  };
  return (
    <AuthFrame title="Sign in">
      {reason !== undefined && <p class="callout callout-info">{reason}</p>}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextInput
          id="sign-in-email"
          label="E-mail"
          type="email"
          autoComplete="username"
          value={email}
          onInput={setEmail}
        />
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
    </AuthFrame>
  );
}
