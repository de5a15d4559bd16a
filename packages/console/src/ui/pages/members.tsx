import type { Invitation, Member } from '@chartwright/protocol';

import { PageAction, RowButton } from '../buttons.js';
import { ConfirmDialog } from '../confirm-dialog.js';
import { useConsole } from '../console-context.js';
import { formatTime, ROLE_LABELS } from '../format.js';
import { useDialog, useResource, type DialogState } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { Loaded } from '../loaded.js';
import { Panel } from '../panel.js';
import { RecordsTable } from '../records-table.js';
import { ChangeRoleDialog, InviteDialog } from './member-dialogs.js';

type OpenDialog =
  { kind: 'invite' } | { kind: 'role' | 'remove'; member: Member } | { kind: 'cancel'; invitation: Invitation };

const withActions = (columns: readonly string[], manage: boolean) => (manage ? [...columns, 'Actions'] : columns);

/** The organisation's members and open invitations; owners invite, change roles and remove. */
export function MembersPage() {
  const { api, can, session } = useConsole();
  const list = useResource(() => api.members(), 'members');
  const dialogs = useDialog<OpenDialog>(list.reload);
  const { open } = dialogs;
  const manage = can('members:manage');
  return (
    <>
      <PageTitle title="Members" />
      {manage && <PageAction label="Invite member" onClick={() => open({ kind: 'invite' })} />}
      <Loaded resource={list}>
        {({ members, invitations }) => (
          <>
            <Panel title="Members">
              <RecordsTable
                caption="Members"
                columns={withActions(['Name', 'E-mail', 'Role', 'Joined', 'Last signed in'], manage)}
                rows={members}
                row={(member) => (
                  <MemberRow
                    key={member.id}
                    member={member}
                    self={member.id === session.member.id}
                    manage={manage}
                    onAction={(kind) => open({ kind, member })}
                  />
                )}
              />
            </Panel>
            <Panel title="Open invitations">
              <RecordsTable
                caption="Open invitations"
                columns={withActions(['E-mail', 'Role', 'Sent', 'Link valid until'], manage)}
                rows={invitations}
                row={(invitation) => (
                  <InvitationRow
                    key={invitation.id}
                    invitation={invitation}
                    manage={manage}
                    onCancel={() => open({ kind: 'cancel', invitation })}
                  />
                )}
                empty="None."
              />
            </Panel>
          </>
        )}
      </Loaded>
      <MemberDialogs dialogs={dialogs} onChanged={list.reload} />
    </>
  );
}

/** The dialog open on the page, if any: inviting, changing a role, removing, cancelling an invitation. */
function MemberDialogs({ dialogs, onChanged }: { dialogs: DialogState<OpenDialog>; onChanged: () => void }) {
  const { api } = useConsole();
  const { dialog, close, done } = dialogs;
  switch (dialog?.kind) {
    case undefined:
      return null;
    case 'invite':
      return <InviteDialog onChanged={onChanged} onClose={close} />;
    case 'role':
      return <ChangeRoleDialog member={dialog.member} onChanged={onChanged} onClose={close} />;
    case 'remove':
      return (
        <ConfirmDialog
          title={`Remove ${dialog.member.name}?`}
          confirmLabel="Remove member"
          action={() => api.removeMember(dialog.member.id)}
          onDone={done}
          onClose={close}
        >
          <p>
            {dialog.member.email} loses access at once: every session of theirs ends. The keys they made keep working.
          </p>
        </ConfirmDialog>
      );
    case 'cancel':
      return (
        <ConfirmDialog
          title={`Cancel the invitation for ${dialog.invitation.email}?`}
          confirmLabel="Cancel invitation"
          action={() => api.cancelInvitation(dialog.invitation.id)}
          onDone={done}
          onClose={close}
        >
          <p>The invitation link stops working.</p>
        </ConfirmDialog>
      );
  }
}

interface MemberRowProps {
  member: Member;
  /** The signed-in member: no changing their own role or removing themselves here. */
  self: boolean;
  manage: boolean;
  onAction: (kind: 'role' | 'remove') => void;
}

function MemberRow({ member, self, manage, onAction }: MemberRowProps) {
  return (
    <tr>
      <th scope="row" data-label="Name">
        {member.name}
        {self && <span class="hint"> (you)</span>}
      </th>
      <td data-label="E-mail">{member.email}</td>
      <td data-label="Role">{ROLE_LABELS[member.role]}</td>
      <td data-label="Joined">{formatTime(member.createdAt)}</td>
      <td data-label="Last signed in">{formatTime(member.lastSignInAt, 'Never')}</td>
      {manage && (
        <td data-label="Actions">
          {self ? (
            '—'
          ) : (
            <span class="buttons">
              <RowButton label="Change role" record={`of ${member.name}`} onClick={() => onAction('role')} />
              <RowButton label="Remove" record={member.name} danger onClick={() => onAction('remove')} />
            </span>
          )}
        </td>
      )}
    </tr>
  );
}

function InvitationRow(props: { invitation: Invitation; manage: boolean; onCancel: () => void }) {
  const { invitation, manage, onCancel } = props;
  return (
    <tr>
      <th scope="row" data-label="E-mail">
        {invitation.email}
      </th>
      <td data-label="Role">{ROLE_LABELS[invitation.role]}</td>
      <td data-label="Sent">{formatTime(invitation.createdAt)}</td>
      <td data-label="Link valid until">{formatTime(invitation.expiresAt)}</td>
      {manage && (
        <td data-label="Actions">
          <RowButton label="Cancel" record={`the invitation for ${invitation.email}`} danger onClick={onCancel} />
        </td>
      )}
    </tr>
  );
}
