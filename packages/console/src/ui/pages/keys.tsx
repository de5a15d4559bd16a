import { credentialPermission, ENVIRONMENTS, type ApiKey, type Environment } from '@chartwright/protocol';
import { useEffect } from 'preact/hooks';

import { PageAction, RowButton } from '../buttons.js';
import { ConfirmDialog } from '../confirm-dialog.js';
import { useConsole } from '../console-context.js';
import { ENVIRONMENT_LABELS, formatTime } from '../format.js';
import { useDialog, useResource } from '../hooks.js';
import { Loaded } from '../loaded.js';
import { Panel } from '../panel.js';
import { RecordsTable } from '../records-table.js';
import { CreateKeyDialog, RotateKeyDialog } from './key-dialogs.js';
import { ProjectHeader } from './project-header.js';

type OpenDialog = { kind: 'create' } | { kind: 'rotate' | 'revoke'; key: ApiKey };

/** The mark's name; the console bench (packages/server/tools/bench/console-scenario.ts) waits for it. */
const KEYS_LISTED_MARK = 'chartwright:keys-listed';

/** A User Timing mark when the keys first show: `npm run bench` times a cold load up to it. */
function useListedMark(listed: boolean): void {
  useEffect(() => {
    if (listed) performance.mark(KEYS_LISTED_MARK);
  }, [listed]);
}

/** Production first: it is what a person most often comes to rotate or check. */
const SECTION_ORDER: readonly Environment[] = ['live', 'test'];

/** Settings → API keys: a project's keys per environment, and what the member's role lets them do with them. */
export function KeysPage({ projectId }: { projectId: string }) {
  const { api, can } = useConsole();
  const keys = useResource(() => api.apiKeys(projectId), projectId);
  useListedMark(keys.data !== null);
  const { dialog, open, close, done } = useDialog<OpenDialog>(keys.reload);
  const creatable = ENVIRONMENTS.filter((environment) => can(credentialPermission(environment)));
  return (
    <>
      <ProjectHeader projectId={projectId} section="keys" />
      <p class="muted">
        Servers authenticate with these keys (Authorization: Bearer sk_…). Keys are shown once, when made; here you see
        their hints.
      </p>
      {creatable.length > 0 && <PageAction label="Create key" onClick={() => open({ kind: 'create' })} />}
      <Loaded resource={keys}>
        {(data) =>
          SECTION_ORDER.map((environment) => (
            <KeySection
              key={environment}
              environment={environment}
              keys={data.filter((key) => key.environment === environment)}
              onAction={(kind, key) => open({ kind, key })}
            />
          ))
        }
      </Loaded>
      {dialog?.kind === 'create' && (
        <CreateKeyDialog projectId={projectId} environments={creatable} onCreated={keys.reload} onClose={close} />
      )}
      {dialog?.kind === 'rotate' && (
        <RotateKeyDialog projectId={projectId} apiKey={dialog.key} onRotated={keys.reload} onClose={close} />
      )}
      {dialog?.kind === 'revoke' && (
        <ConfirmDialog
          title={`Revoke ${dialog.key.name}?`}
          confirmLabel="Revoke key"
          action={() => api.revokeApiKey(projectId, dialog.key.id)}
          onDone={done}
          onClose={close}
        >
          <p>
            Requests with <code>{dialog.key.hint}</code> are refused from now on, and the realtime tokens it minted stop
            working. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

const COLUMNS = ['Name', 'Environment', 'Key', 'Created', 'Created by', 'Last used', 'Status'];

interface KeySectionProps {
  environment: Environment;
  keys: readonly ApiKey[];
  onAction: (kind: 'rotate' | 'revoke', key: ApiKey) => void;
}

function KeySection({ environment, keys, onAction }: KeySectionProps) {
  const { can } = useConsole();
  const manageable = can(credentialPermission(environment));
  return (
    <Panel title={ENVIRONMENT_LABELS[environment]}>
      {!manageable && <p class="muted">Your role lets you see these keys but not create, rotate or revoke them.</p>}
      <RecordsTable
        caption={`${ENVIRONMENT_LABELS[environment]} keys`}
        columns={manageable ? [...COLUMNS, 'Actions'] : COLUMNS}
        rows={keys}
        row={(key) => <KeyRow key={key.id} apiKey={key} manageable={manageable} onAction={onAction} />}
        empty={`No ${environment} keys.`}
      />
    </Panel>
  );
}

function KeyRow(props: { apiKey: ApiKey; manageable: boolean } & Pick<KeySectionProps, 'onAction'>) {
  const { apiKey: key, manageable, onAction } = props;
  const usable = key.status === 'active' || key.status === 'grace';
  return (
    <tr class={usable ? undefined : 'record-ended'}>
      <th scope="row" data-label="Name">
        {key.name}
        {key.rotationRecommended && <span class="flag">Older than 90 days — rotate production keys every 90 days</span>}
      </th>
      <td data-label="Environment">{key.environment}</td>
      <td data-label="Key">
        <code>{key.hint}</code>
      </td>
      <td data-label="Created">{formatTime(key.createdAt)}</td>
      <td data-label="Created by">{key.createdBy?.label ?? '—'}</td>
      <td data-label="Last used">{formatTime(key.lastUsedAt, 'Never')}</td>
      <td data-label="Status">
        <KeyStatus apiKey={key} />
      </td>
      {manageable && (
        <td data-label="Actions">
          {usable ? (
            <span class="buttons">
              {key.status === 'active' && (
                <RowButton label="Rotate" record={key.name} onClick={() => onAction('rotate', key)} />
              )}
              <RowButton label="Revoke" record={key.name} danger onClick={() => onAction('revoke', key)} />
            </span>
          ) : (
            '—'
          )}
        </td>
      )}
    </tr>
  );
}
function KeyStatus({ apiKey: key }: { apiKey: ApiKey }) {
  switch (key.status) {
    case 'active':
      return <span class="status status-active">Active</span>;
    case 'grace':
      return <span class="status status-grace">Rotating until {formatTime(key.expiresAt)}</span>;
    case 'expired':
      return <span class="status status-ended">Expired {formatTime(key.expiresAt, '')}</span>;
    case 'revoked':
      return <span class="status status-ended">Revoked {formatTime(key.revokedAt, '')}</span>;
  }
}
