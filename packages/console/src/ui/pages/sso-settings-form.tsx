import type { Organisation, PutSsoRequest } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import type { ConsoleApiError } from '../../api/console-api-error.js';
import { useConsole } from '../console-context.js';
import { CopyField } from '../copy-field.js';
import { TextInput } from '../fields.js';
import { useSubmit } from '../hooks.js';
import { ErrorNotice } from '../notices.js';

const FIELDS = ['issuer', 'clientId', 'clientSecret', 'passwordSignIn'];

export interface SsoSettingsFormProps {
  organisation: Organisation;
  onSaved: () => void;
  onSwitchOff: () => void;
}

/**
 * An owner's single sign-on settings: the redirect URI to register at the provider, then the
 * provider's issuer, client id and secret. The secret is write-only: the service never shows it
 * back, so every save takes it again.
 */
export function SsoSettingsForm({ organisation, onSaved, onSwitchOff }: SsoSettingsFormProps) {
  const { api } = useConsole();
  const on = organisation.sso !== null;
  const [draft, setDraft] = useState<PutSsoRequest>({
    issuer: organisation.sso?.issuer ?? '',
    clientId: organisation.sso?.clientId ?? '',
    clientSecret: '',
    passwordSignIn: organisation.sso?.passwordSignIn ?? true,
  });
  const [saved, setSaved] = useState(false);
  const { busy, error, onSubmit } = useSubmit(
    () => api.configureSso({ ...draft, issuer: draft.issuer.trim(), clientId: draft.clientId.trim() }),
    () => {
      setDraft({ ...draft, clientSecret: '' });
      setSaved(true);
      onSaved();
    },
  );
  return (
    <form
      class="panel inline-form"
      aria-labelledby="sso-settings-title"
      onSubmit={(event) => {
        setSaved(false);
        onSubmit(event);
      }}
      noValidate
    >
      <h2 id="sso-settings-title">Single sign-on settings</h2>
      <p id="sso-redirect-help">
        At your identity provider, register a confidential web client with this redirect URI and the scopes{' '}
        <code>openid email profile</code>.
      </p>
      <CopyField
        label="Redirect URI"
        what="redirect URI"
        value={organisation.ssoRedirectUri}
        describedBy="sso-redirect-help"
      />
      <ProviderFields draft={draft} onDraft={setDraft} error={error} on={on} />
      <ErrorNotice error={error} fields={FIELDS} />
      <div class="buttons">
        <button type="submit" class="button button-primary" disabled={busy}>
          {on ? 'Save single sign-on' : 'Switch on single sign-on'}
        </button>
        {on && (
          <button type="button" class="button button-danger" onClick={onSwitchOff}>
            Switch off single sign-on
          </button>
        )}
      </div>
      <p class="status-line" role="status">
        {saved ? 'Saved: the provider answered, and members can sign in with it.' : ''}
      </p>
    </form>
  );
}

interface ProviderFieldsProps {
  draft: PutSsoRequest;
  onDraft: (draft: PutSsoRequest) => void;
  error: ConsoleApiError | null;
  /** Single sign-on is on already: a change takes the secret again. */
  on: boolean;
}

/** The provider's issuer, the console's client there, and whether members keep their passwords. */
function ProviderFields({ draft, onDraft, error, on }: ProviderFieldsProps) {
  const set = (field: 'issuer' | 'clientId' | 'clientSecret') => (value: string) =>
    onDraft({ ...draft, [field]: value });
  return (
    <>
      <TextInput
        id="sso-issuer"
        label="Issuer URL"
        hint="The provider’s issuer, such as https://login.example.com (https; http only for a provider on this machine)."
        value={draft.issuer}
        onInput={set('issuer')}
        problems={error?.problemsOf('issuer')}
      />
      <TextInput
        id="sso-client-id"
        label="Client id"
        value={draft.clientId}
        onInput={set('clientId')}
        problems={error?.problemsOf('clientId')}
      />
      <TextInput
        id="sso-client-secret"
        label="Client secret"
        type="password"
        hint={
          on
            ? 'Give it again to save a change: it is stored sealed and never shown back.'
            : 'Stored sealed and never shown back.'
        }
        value={draft.clientSecret}
        onInput={set('clientSecret')}
        problems={error?.problemsOf('clientSecret')}
      />
      <PasswordSignInChoice
        value={draft.passwordSignIn}
        onChange={(passwordSignIn) => onDraft({ ...draft, passwordSignIn })}
      />
    </>
  );
}

/** Whether members may still sign in with a password; owners always may. */
function PasswordSignInChoice({ value, onChange }: { value: boolean; onChange: (value: boolean) => void }) {
  return (
    <div class="field">
      <label class="choice">
        <input
          type="checkbox"
          checked={value}
          aria-describedby="sso-password-hint"
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
        Members may also sign in with a password
      </label>
      <span id="sso-password-hint" class="hint">
        Owners always may, so an outage at the provider cannot lock the organisation out.
      </span>
    </div>
  );
}
