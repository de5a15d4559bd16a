import { credentialPermission, ENVIRONMENTS, type Partner } from '@chartwright/protocol';

import { PageAction, RowButton } from '../buttons.js';
import { ConfirmDialog } from '../confirm-dialog.js';
import { useConsole } from '../console-context.js';
import { ENVIRONMENT_LABELS, formatDuration, formatTime } from '../format.js';
import { useDialog, useResource } from '../hooks.js';
import { Loaded } from '../loaded.js';
import { Panel } from '../panel.js';
import { RecordsTable } from '../records-table.js';
import { EditOriginsDialog, RegisterPartnerDialog, RotatePartnerDialog } from './partner-dialogs.js';
import { PartnerSnippet } from './partner-snippet.js';
import { ProjectHeader } from './project-header.js';

type PartnerAction = 'origins' | 'rotate' | 'revoke';
type OpenDialog = { kind: 'register' } | { kind: PartnerAction; partner: Partner };

const COLUMNS = ['Name', 'Environment', 'Key', 'Allowed origins', 'Longest token', 'Status', 'Created', 'Actions'];

/** Settings → Partners: the EMRs that embed the widget, their origins and keys, and the token snippet. */
export function PartnersPage({ projectId }: { projectId: string }) {
  const { api, can } = useConsole();
  const partners = useResource(() => api.partners(projectId), projectId);
  const { dialog, open, close, done } = useDialog<OpenDialog>(partners.reload);
  const registrable = ENVIRONMENTS.filter((environment) => can(credentialPermission(environment)));
  const changed = { projectId, onChanged: partners.reload, onClose: close };
  return (
    <>
      <ProjectHeader projectId={projectId} section="partners" />
      <p class="muted">
        EMR vendors whose pages embed the widget. Their servers mint widget tokens with the partner key.
      </p>
      {registrable.length > 0 && <PageAction label="Register partner" onClick={() => open({ kind: 'register' })} />}
      <Loaded resource={partners}>
        {(data) => (
          <Panel title="Registered partners">
            <RecordsTable
              caption="Partners"
              columns={COLUMNS}
              rows={data}
              row={(partner) => (
                <PartnerRow key={partner.id} partner={partner} onAction={(kind) => open({ kind, partner })} />
              )}
              empty="No partners yet."
            />
          </Panel>
        )}
      </Loaded>
      <PartnerSnippet />
      {dialog?.kind === 'register' && <RegisterPartnerDialog {...changed} environments={registrable} />}
      {dialog?.kind === 'origins' && <EditOriginsDialog {...changed} partner={dialog.partner} />}
      {dialog?.kind === 'rotate' && <RotatePartnerDialog {...changed} partner={dialog.partner} />}
      {dialog?.kind === 'revoke' && (
        <ConfirmDialog
          title={`Revoke ${dialog.partner.name}?`}
          confirmLabel="Revoke partner"
          action={() => api.revokePartner(projectId, dialog.partner.id)}
          onDone={done}
          onClose={close}
        >
          <p>
            Its partner key stops working at once, and so do the widget tokens and widget sessions it made. This cannot
            be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

function PartnerRow({ partner, onAction }: { partner: Partner; onAction: (kind: PartnerAction) => void }) {
  const { can } = useConsole();
  const active = partner.status === 'active';
  const manageable = active && can(credentialPermission(partner.environment));
  return (
    <tr class={active ? undefined : 'record-ended'}>
      <th scope="row" data-label="Name">
        {partner.name}
        <span class="id">{partner.id}</span>
      </th>
      <td data-label="Environment">{ENVIRONMENT_LABELS[partner.environment]}</td>
      <td data-label="Key">
        <code class="long">{partner.secretHint}</code>
      </td>
      <td data-label="Allowed origins">
        <ul class="plain">
          {partner.allowedOrigins.map((origin) => (
            <li key={origin}>{origin}</li>
          ))}
        </ul>
      </td>
      <td data-label="Longest token">{formatDuration(partner.tokenLifetimeSeconds)}</td>
      <td data-label="Status">
        {active ? 'Active' : `Revoked ${formatTime(partner.revokedAt, '')}`}
        {active && partner.previousSecretExpiresAt !== null && (
          <span class="hint">Old key works until {formatTime(partner.previousSecretExpiresAt)}</span>
        )}
      </td>
      <td data-label="Created">{formatTime(partner.createdAt)}</td>
      <td data-label="Actions">
        {manageable ? (
          <span class="buttons">
            <RowButton label="Edit origins" record={partner.name} onClick={() => onAction('origins')} />
            <RowButton label="Rotate secret" record={partner.name} onClick={() => onAction('rotate')} />
            <RowButton label="Revoke" record={partner.name} danger onClick={() => onAction('revoke')} />
          </span>
        ) : (
          '—'
        )}
      </td>
    </tr>
  );
}
