import type { Organisation } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { ConfirmDialog } from '../confirm-dialog.js';
import { useConsole } from '../console-context.js';
import { formatTime } from '../format.js';
import { useResource } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { Loaded } from '../loaded.js';
import { Panel } from '../panel.js';
import { SsoSettingsForm } from './sso-settings-form.js';

/** The organisation and how its members sign in; owners switch single sign-on on, change it, or off. */
export function OrganisationPage() {
  const { api, can } = useConsole();
  const organisation = useResource(() => api.organisation(), 'organisation');
  const [confirmingOff, setConfirmingOff] = useState(false);
  const manage = can('organisation:manage');
  return (
    <>
      <PageTitle title="Organisation" />
      <Loaded resource={organisation}>
        {(data) => (
          <>
            <SignInSummary organisation={data} />
            {manage ? (
              <SsoSettingsForm
                organisation={data}
                onSaved={organisation.reload}
                onSwitchOff={() => setConfirmingOff(true)}
              />
            ) : (
              <p class="muted">Only owners change how members sign in.</p>
            )}
          </>
        )}
      </Loaded>
      {confirmingOff && (
        <ConfirmDialog
          title="Switch off single sign-on?"
          confirmLabel="Switch off single sign-on"
          action={() => api.removeSso()}
          onDone={() => {
            setConfirmingOff(false);
            organisation.reload();
          }}
          onClose={() => setConfirmingOff(false)}
        >
          <p>
            Members sign in with their passwords again. The provider’s settings and client secret are deleted: switching
            single sign-on on again takes them again.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** What every member may know: the organisation, and whether its identity provider signs them in. */
function SignInSummary({ organisation }: { organisation: Organisation }) {
  const { sso } = organisation;
  return (
    <Panel title={organisation.name}>
      <dl class="facts">
        <dt>Single sign-on</dt>
        <dd>
          {sso === null ? (
            'Off: members sign in with their passwords'
          ) : (
            <span class="status status-active">On (OpenID Connect)</span>
          )}
        </dd>
        {sso !== null && (
          <>
            <dt>Identity provider</dt>
            <dd>{sso.issuer}</dd>
            <dt>Client id</dt>
            <dd>
              <code>{sso.clientId}</code>
            </dd>
            <dt>Redirect URI</dt>
            <dd>{sso.redirectUri}</dd>
            <dt>Password sign-in</dt>
            <dd>
              {sso.passwordSignIn
                ? 'Members may also sign in with a password'
                : 'Owners only; members sign in with single sign-on'}
            </dd>
            <dt>Last changed</dt>
            <dd>{formatTime(sso.updatedAt)}</dd>
          </>
        )}
      </dl>
    </Panel>
  );
}
