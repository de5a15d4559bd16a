import { credentialPermission, ENVIRONMENTS, type Partner } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { ConfirmDialog } from '../confirm-dialog.js';
import { useConsole } from '../console-context.js';
import { ENVIRONMENT_LABELS, formatDuration, formatTime } from '../format.js';
import { useResource } from '../hooks.js';
import { ErrorNotice } from '../notices.js';
import { EditOriginsDialog, RegisterPartnerDialog, RotatePartnerDialog } from './partner-dialogs.js';
import { PartnerSnippet } from './partner-snippet.js';
import { ProjectHeader } from './project-header.js';

type OpenDialog = { kind: 'register' } | { kind: 'origins' | 'rotate' | 'revoke'; partner: Partner } | null;

/** Settings → Partners: the EMRs that embed the widget, their origins and keys, and the token snippet. */
export function PartnersPage({ projectId }: { projectId: string }) {
  const { api, can } = useConsole();
  const partners = useResource(() => api.partners(projectId), projectId);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const registrable = ENVIRONMENTS.filter((environment) => can(credentialPermission(environment)));
  const close = () => setDialog(null);
  const changed = { projectId, onChanged: partners.reload, onClose: close };
  return (
    <>
      <ProjectHeader projectId={projectId} section="partners" />
      <p class="muted">
        EMR vendors whose pages embed the widget. Their servers mint widget tokens with the partner key.
      </p>
      {registrable.length > 0 && (
        <div class="buttons">
          <button type="button" class="button button-primary" onClick={() => setDialog({ kind: 'register' })}>
            Register partner
          </button>
        </div>
      )}
      <ErrorNotice error={partners.error} />
      {partners.data !== null && (
        <section class="panel" aria-labelledby="partners-title">
          <h2 id="partners-title">Registered partners</h2>
          <PartnerTable partners={partners.data} onAction={(kind, partner) => setDialog({ kind, partner })} />
        </section>
      )}
      <PartnerSnippet />
      {dialog?.kind === 'register' && <RegisterPartnerDialog {...changed} environments={registrable} />}
      {dialog?.kind === 'origins' && <EditOriginsDialog {...changed} partner={dialog.partner} />}
      {dialog?.kind === 'rotate' && <RotatePartnerDialog {...changed} partner={dialog.partner} />}
      {dialog?.kind === 'revoke' && (
        <ConfirmDialog
          title={`Revoke ${dialog.partner.name}?`}
          confirmLabel="Revoke partner"
          action={() => api.revokePartner(projectId, dialog.partner.id)}
          onDone={() => {
            close();
            partners.reload();
          }}
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

interface PartnerTableProps {
  partners: readonly Partner[];
  onAction: (kind: 'origins' | 'rotate' | 'revoke', partner: Partner) => void;
}

function PartnerTable({ partners, onAction }: PartnerTableProps) {
  if (partners.length === 0) return <p>No partners yet.</p>;
  return (
    <table class="records">
      <caption class="visually-hidden">Partners</caption>
      <thead>
        <tr>
          {['Name', 'Environment', 'Key', 'Allowed origins', 'Longest token', 'Status', 'Created', 'Actions'].map(
            (title) => (
              <th key={title} scope="col">
                {title}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {partners.map((partner) => (
          <PartnerRow key={partner.id} partner={partner} onAction={onAction} />
        ))}
      </tbody>
    </table>
  );
}

function PartnerRow({ partner, onAction }: { partner: Partner } & Pick<PartnerTableProps, 'onAction'>) {
  const { can } = useConsole();
  const active = partner.status === 'active';
  const manageable = active && can(credentialPermission(partner.environment));
  const action = (kind: 'origins' | 'rotate' | 'revoke', label: string) => (
    <button
      type="button"
      class={`button button-small${kind === 'revoke' ? ' button-danger' : ''}`}
      onClick={() => onAction(kind, partner)}
    >
      {label}
      <span class="visually-hidden"> {partner.name}</span>
    </button>
  );
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
            {action('origins', 'Edit origins')}
            {action('rotate', 'Rotate secret')}
            {action('revoke', 'Revoke')}
          </span>
        ) : (
          '—'
        )}
      </td>
    </tr>
  );
}
