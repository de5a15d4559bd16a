import { CONSOLE_PASSWORD_MIN_LENGTH, type ConsoleLink, type ConsoleSession } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import type { ConsoleApi } from '../../api/console-api.js';
import type { ConsoleApiError } from '../../api/console-api-error.js';
import { AuthFrame } from '../auth-frame.js';
import { formatTime, ROLE_LABELS } from '../format.js';
import { useResource, useSubmit } from '../hooks.js';
import { TextInput } from '../fields.js';
import { ErrorNotice } from '../notices.js';

export interface LinkPageProps {
  api: ConsoleApi;
  /** The token from the link's fragment (`#/setup/<token>`, `#/invitation/<token>`). */
  token: string;
  onSignedIn: (session: ConsoleSession) => void;
}

const PASSWORD_HINT = `At least ${CONSOLE_PASSWORD_MIN_LENGTH} characters; a passphrase of a few words is best.`;

/** A one-time link's page: what the link is for first (the service checks it), then its form. */
function LinkPage(props: LinkPageProps & { kind: ConsoleLink['kind']; title: string }) {
  const { api, token, kind, title } = props;
  const link = useResource(() => api.inspectLink(token), token);
  if (link.data === null) {
    return (
      <AuthFrame title={link.error === null ? title : 'This link does not work'}>
        {link.error === null ? <p>Checking the link…</p> : <BrokenLink error={link.error} kind={kind} />}
      </AuthFrame>
    );
  }
  if (link.data.kind !== kind) {
    return (
      <AuthFrame title="This link does not work">
        <p>
          This is not {kind === 'setup' ? 'a setup' : 'an invitation'} link. Open the link exactly as you received it.
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={title}>
      {kind === 'setup' ? <SetupForm {...props} link={link.data} /> : <InvitationForm {...props} link={link.data} />}
    </AuthFrame>
  );
}

function BrokenLink({ error, kind }: { error: ConsoleApiError; kind: ConsoleLink['kind'] }) {
  if (error.code !== 'console_link_invalid') return <ErrorNotice error={error} />;
  return (
    <p>
      {kind === 'setup'
        ? 'The setup link is unknown, already used or more than an hour old. The operator prints a new one with `npx chartwright console setup-link`.'
        : 'The invitation is unknown, already accepted, cancelled or expired. Ask an owner of the organisation for a new one.'}
    </p>
  );
}

export const SetupPage = (props: LinkPageProps) => <LinkPage {...props} kind="setup" title="Set up the console" />;
export const InvitationPage = (props: LinkPageProps) => (
  <LinkPage {...props} kind="invitation" title="Join the organisation" />
);

interface FormProps extends LinkPageProps {
  link: ConsoleLink;
}

function PasswordField({
  value,
  onInput,
  error,
}: {
  value: string;
  onInput: (value: string) => void;
  error: ConsoleApiError | null;
}) {
  return (
    <TextInput
      id="link-password"
      label="Password"
      type="password"
      autoComplete="new-password"
      hint={PASSWORD_HINT}
      value={value}
      onInput={onInput}
      problems={error?.problemsOf('password')}
    />
  );
}

function SetupForm({ api, token, onSignedIn }: FormProps) {
  const [values, setValues] = useState({ organisationName: '', name: '', email: '', password: '' });
  const set = (field: keyof typeof values) => (value: string) =>
    setValues((previous) => ({ ...previous, [field]: value }));
  const { busy, error, onSubmit } = useSubmit(
    () => api.completeSetup({ token, ...values, email: values.email.trim() }),
    onSignedIn,
  );
  return (
    <form onSubmit={onSubmit} noValidate>
      <p>You are the organisation’s first owner. There is no default password: choose yours now.</p>
      <TextInput
        id="setup-organisation"
        label="Organisation name"
        autoComplete="organization"
        value={values.organisationName}
        onInput={set('organisationName')}
        problems={error?.problemsOf('organisationName')}
      />
      <TextInput
        id="setup-name"
        label="Your name"
        autoComplete="name"
        value={values.name}
        onInput={set('name')}
        problems={error?.problemsOf('name')}
      />
      <TextInput
        id="setup-email"
        label="E-mail"
        type="email"
        autoComplete="username"
        value={values.email}
        onInput={set('email')}
        problems={error?.problemsOf('email')}
      />
      <PasswordField value={values.password} onInput={set('password')} error={error} />
      <ErrorNotice error={error} fields={['organisationName', 'name', 'email', 'password']} />
      <button type="submit" class="button button-primary" disabled={busy}>
        Create the owner and sign in
      </button>
    </form>
  );
}

function InvitationForm({ api, token, onSignedIn, link }: FormProps) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(() => api.acceptInvitation({ token, name, password }), onSignedIn);
  return (
    <form onSubmit={onSubmit} noValidate>
      <dl class="facts">
        <dt>Organisation</dt>
        <dd>{link.organisationName}</dd>
        <dt>E-mail</dt>
        <dd>{link.email}</dd>
        <dt>Role</dt>
        <dd>{ROLE_LABELS[link.role]}</dd>
        <dt>Link valid until</dt>
        <dd>{formatTime(link.expiresAt)}</dd>
      </dl>
      <TextInput
        id="invitation-name"
        label="Your name"
        autoComplete="name"
        value={name}
        onInput={setName}
        problems={error?.problemsOf('name')}
      />
      <PasswordField value={password} onInput={setPassword} error={error} />
      <ErrorNotice error={error} fields={['name', 'password']} />
      <button type="submit" class="button button-primary" disabled={busy}>
        Join and sign in
      </button>
    </form>
  );
}
