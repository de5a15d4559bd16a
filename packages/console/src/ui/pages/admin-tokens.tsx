import { ADMIN_TOKEN_ROLES, type AdminToken, type AdminTokenRole, type IssuedAdminToken } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { ConfirmDialog } from '../confirm-dialog.js';
import { useConsole } from '../console-context.js';
import { Dialog, DoneButton, FormButtons } from '../dialog.js';
import { TextInput } from '../fields.js';
import { formatTime, ROLE_LABELS } from '../format.js';
import { useAction, useResource } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { ErrorNotice } from '../notices.js';
import { SecretReveal } from '../secret-reveal.js';
import { RoleChoice } from './member-dialogs.js';

/** Organisation admin tokens for automation (the CLI's --url, scripts): owners make and revoke them. */
export function AdminTokensPage() {
  const { api, can } = useConsole();
  const tokens = useResource(() => api.adminTokens(), 'admin-tokens');
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'revoke'; token: AdminToken } | null>(null);
  const manage = can('admin_tokens:manage');
  const close = () => setDialog(null);
  return (
    <>
      <PageTitle title="Admin tokens" />
      <p class="muted">
        Automation manages the organisation with these (Authorization: Bearer cw_admin_…), with the role each was given.
      </p>
      {manage && (
        <div class="buttons">
          <button type="button" class="button button-primary" onClick={() => setDialog({ kind: 'create' })}>
            Create admin token
          </button>
        </div>
      )}
      <ErrorNotice error={tokens.error} />
      {tokens.data !== null && (
        <TokenTable tokens={tokens.data} manage={manage} onRevoke={(token) => setDialog({ kind: 'revoke', token })} />
      )}
      {dialog?.kind === 'create' && <CreateTokenDialog onChanged={tokens.reload} onClose={close} />}
      {dialog?.kind === 'revoke' && (
        <ConfirmDialog
          title={`Revoke ${dialog.token.name}?`}
          confirmLabel="Revoke token"
          action={() => api.revokeAdminToken(dialog.token.id)}
          onDone={() => {
            close();
            tokens.reload();
          }}
          onClose={close}
        >
          <p>
            Requests with <code>{dialog.token.hint}</code> are refused from now on. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

function TokenTable(props: { tokens: readonly AdminToken[]; manage: boolean; onRevoke: (token: AdminToken) => void }) {
  const { tokens, manage, onRevoke } = props;
  if (tokens.length === 0) return <p>No admin tokens.</p>;
  return (
    <table class="records">
      <caption class="visually-hidden">Admin tokens</caption>
      <thead>
        <tr>
          {[
            'Name',
            'Role',
            'Token',
            'Created',
            'Created by',
            'Last used',
            'Status',
            ...(manage ? ['Actions'] : []),
          ].map((title) => (
            <th key={title} scope="col">
              {title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => (
          <tr key={token.id} class={token.status === 'active' ? undefined : 'record-ended'}>
            <th scope="row" data-label="Name">
              {token.name}
            </th>
            <td data-label="Role">{ROLE_LABELS[token.role]}</td>
            <td data-label="Token">
              <code>{token.hint}</code>
            </td>
            <td data-label="Created">{formatTime(token.createdAt)}</td>
            <td data-label="Created by">{token.createdBy.label}</td>
            <td data-label="Last used">{formatTime(token.lastUsedAt, 'Never')}</td>
            <td data-label="Status">
              {token.status === 'active' ? 'Active' : `Revoked ${formatTime(token.revokedAt, '')}`}
            </td>
            {manage && (
              <td data-label="Actions">
                {token.status === 'active' ? (
                  <button type="button" class="button button-small button-danger" onClick={() => onRevoke(token)}>
                    Revoke<span class="visually-hidden"> {token.name}</span>
                  </button>
                ) : (
                  '—'
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateTokenDialog({ onChanged, onClose }: { onChanged: () => void; onClose: () => void }) {
  const { api } = useConsole();
  const [name, setName] = useState('');
  const [role, setRole] = useState<AdminTokenRole>('developer');
  const [issued, setIssued] = useState<IssuedAdminToken | null>(null);
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const result = await run(() => api.createAdminToken({ name, role }));
    if (result === null) return;
    setIssued(result);
    onChanged();
  };
  if (issued !== null) {
    return (
      <Dialog title={`Admin token created: ${issued.token.name}`} onClose={onClose}>
        <SecretReveal label="Admin token" secret={issued.secret}>
          <p class="callout-title">Copy the token now: it is shown only this once.</p>
          <p>Keep it in your automation’s secret store; it acts as {ROLE_LABELS[issued.token.role].toLowerCase()}.</p>
        </SecretReveal>
        <DoneButton onClose={onClose} />
      </Dialog>
    );
  }
  return (
    <Dialog title="Create an admin token" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextInput
          id="token-name"
          label="Name"
          value={name}
          onInput={setName}
          problems={error?.problemsOf('name') ?? []}
        />
        <RoleChoice value={role} onChange={setRole} roles={ADMIN_TOKEN_ROLES} />
        <ErrorNotice error={error} fields={['name']} />
        <FormButtons busy={busy} submitLabel="Create token" onClose={onClose} />
      </form>
    </Dialog>
  );
}
