import { ADMIN_TOKEN_ROLES, type AdminToken, type AdminTokenRole, type IssuedAdminToken } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { PageAction, RowButton } from '../buttons.js';
import { ConfirmDialog } from '../confirm-dialog.js';
import { useConsole } from '../console-context.js';
import { DialogForm } from '../dialog.js';
import { TextInput } from '../fields.js';
import { formatTime, ROLE_LABELS } from '../format.js';
import { useDialog, useResource, useSubmit } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { Loaded } from '../loaded.js';
import { RecordsTable } from '../records-table.js';
import { SecretDialog } from '../secret-reveal.js';
import { RoleChoice } from './member-dialogs.js';

const COLUMNS = ['Name', 'Role', 'Token', 'Created', 'Created by', 'Last used', 'Status'];

/** Organisation admin tokens for automation (the CLI's --url, scripts): owners make and revoke them. */
export function AdminTokensPage() {
  const { api, can } = useConsole();
  const tokens = useResource(() => api.adminTokens(), 'admin-tokens');
  const { dialog, open, close, done } = useDialog<{ kind: 'create' } | { kind: 'revoke'; token: AdminToken }>(
    tokens.reload,
  );
  const manage = can('admin_tokens:manage');
  return (
    <>
      <PageTitle title="Admin tokens" />
      <p class="muted">
        Automation manages the organisation with these (Authorization: Bearer cw_admin_…), with the role each was given.
      </p>
      {manage && <PageAction label="Create admin token" onClick={() => open({ kind: 'create' })} />}
      <Loaded resource={tokens}>
        {(data) => (
          <RecordsTable
            caption="Admin tokens"
            columns={manage ? [...COLUMNS, 'Actions'] : COLUMNS}
            rows={data}
            row={(token) => (
              <TokenRow key={token.id} token={token} manage={manage} onRevoke={() => open({ kind: 'revoke', token })} />
            )}
            empty="No admin tokens."
          />
        )}
      </Loaded>
      {dialog?.kind === 'create' && <CreateTokenDialog onChanged={tokens.reload} onClose={close} />}
      {dialog?.kind === 'revoke' && (
        <ConfirmDialog
          title={`Revoke ${dialog.token.name}?`}
          confirmLabel="Revoke token"
          action={() => api.revokeAdminToken(dialog.token.id)}
          onDone={done}
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

function TokenRow({ token, manage, onRevoke }: { token: AdminToken; manage: boolean; onRevoke: () => void }) {
  const active = token.status === 'active';
  return (
    <tr class={active ? undefined : 'record-ended'}>
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
      <td data-label="Status">{active ? 'Active' : `Revoked ${formatTime(token.revokedAt, '')}`}</td>
      {manage && (
        <td data-label="Actions">
          {active ? <RowButton label="Revoke" record={token.name} danger onClick={onRevoke} /> : '—'}
        </td>
      )}
    </tr>
  );
}

function CreateTokenDialog({ onChanged, onClose }: { onChanged: () => void; onClose: () => void }) {
  const { api } = useConsole();
  const [name, setName] = useState('');
  const [role, setRole] = useState<AdminTokenRole>('developer');
  const [issued, setIssued] = useState<IssuedAdminToken | null>(null);
  const form = useSubmit(
    () => api.createAdminToken({ name, role }),
    (result) => {
      setIssued(result);
      onChanged();
    },
  );
  if (issued !== null) {
    return (
      <SecretDialog
        title={`Admin token created: ${issued.token.name}`}
        onClose={onClose}
        label="Admin token"
        secret={issued.secret}
      >
        <p class="callout-title">Copy the token now: it is shown only this once.</p>
        <p>Keep it in your automation’s secret store; it acts as {ROLE_LABELS[issued.token.role].toLowerCase()}.</p>
      </SecretDialog>
    );
  }
  return (
    <DialogForm title="Create an admin token" onClose={onClose} {...form} fields={['name']} submitLabel="Create token">
      <TextInput
        id="token-name"
        label="Name"
        value={name}
        onInput={setName}
        problems={form.error?.problemsOf('name')}
      />
      <RoleChoice value={role} onChange={setRole} roles={ADMIN_TOKEN_ROLES} />
    </DialogForm>
  );
}
