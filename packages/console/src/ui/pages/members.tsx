import type { Invitation, Member } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { ConfirmDialog } from '../confirm-dialog.js';
import { useConsole } from '../console-context.js';
import { formatTime, ROLE_LABELS } from '../format.js';
import { useResource } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { ErrorNotice } from '../notices.js';
import { ChangeRoleDialog, InviteDialog } from './member-dialogs.js';

type OpenDialog =
  { kind: 'invite' } | { kind: 'role' | 'remove'; member: Member } | { kind: 'cancel'; invitation: Invitation } | null;

/** The organisation's members and open invitations; owners invite, change roles and remove. */
export function MembersPage() {
  const { api, can, session } = useConsole();
  const list = useResource(() => api.members(), 'members');
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const manage = can('members:manage');
  const close = () => setDialog(null);
  return (
    <>
      <PageTitle title="Members" />
      {manage && (
        <div class="buttons">
          <button type="button" class="button button-primary" onClick={() => setDialog({ kind: 'invite' })}>
            Invite member
          </button>
        </div>
      )}
      <ErrorNotice error={list.error} />
      {list.data !== null && (
        <>
          <MemberTable
            members={list.data.members}
            selfId={session.member.id}
            manage={manage}
            onAction={(kind, member) => setDialog({ kind, member })}
          />
          <InvitationTable
            invitations={list.data.invitations}
            manage={manage}
            onCancel={(invitation) => setDialog({ kind: 'cancel', invitation })}
          />
        </>
      )}
      <MemberDialogs dialog={dialog} onChanged={list.reload} onClose={close} />
    </>
  );
}

/** The dialog open on the page, if any: inviting, changing a role, removing, cancelling an invitation. */
function MemberDialogs({
  dialog,
  onChanged,
  onClose,
}: {
  dialog: OpenDialog;
  onChanged: () => void;
  onClose: () => void;
}) {
  const { api } = useConsole();
  const done = () => {
    onClose();
    onChanged();
  };
  switch (dialog?.kind) {
    case undefined:
      return null;
    case 'invite':
      return <InviteDialog onChanged={onChanged} onClose={onClose} />;
    case 'role':
      return <ChangeRoleDialog member={dialog.member} onChanged={onChanged} onClose={onClose} />;
    case 'remove':
      return (
        <ConfirmDialog
          title={`Remove ${dialog.member.name}?`}
          confirmLabel="Remove member"
          action={() => api.removeMember(dialog.member.id)}
          onDone={done}
          onClose={onClose}
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
          onClose={onClose}
        >
          <p>The invitation link stops working.</p>
        </ConfirmDialog>
      );
  }
}

interface MemberTableProps {
  members: readonly Member[];
  selfId: string;
  manage: boolean;
  onAction: (kind: 'role' | 'remove', member: Member) => void;
}

function MemberTable({ members, selfId, manage, onAction }: MemberTableProps) {
  return (
    <section class="panel" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <table class="records">
        <caption class="visually-hidden">Members</caption>
        <thead>
          <tr>
            {['Name', 'E-mail', 'Role', 'Joined', 'Last signed in', ...(manage ? ['Actions'] : [])].map((title) => (
              <th key={title} scope="col">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.id}>
              <th scope="row" data-label="Name">
                {member.name}
                {member.id === selfId && <span class="hint"> (you)</span>}
              </th>
              <td data-label="E-mail">{member.email}</td>
              <td data-label="Role">{ROLE_LABELS[member.role]}</td>
              <td data-label="Joined">{formatTime(member.createdAt)}</td>
              <td data-label="Last signed in">{formatTime(member.lastSignInAt, 'Never')}</td>
              {manage && (
                <td data-label="Actions">
                  {member.id === selfId ? (
                    '—'
                  ) : (
                    <span class="buttons">
                      <button type="button" class="button button-small" onClick={() => onAction('role', member)}>
                        Change role<span class="visually-hidden"> of {member.name}</span>
                      </button>
                      <button
                        type="button"
                        class="button button-small button-danger"
                        onClick={() => onAction('remove', member)}
                      >
                        Remove<span class="visually-hidden"> {member.name}</span>
                      </button>
                    </span>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function InvitationTable(props: {
  invitations: readonly Invitation[];
  manage: boolean;
  onCancel: (invitation: Invitation) => void;
}) {
  const { invitations, manage, onCancel } = props;
  return (
    <section class="panel" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Open invitations</h2>
      {invitations.length === 0 ? (
        <p>None.</p>
      ) : (
        <table class="records">
          <caption class="visually-hidden">Open invitations</caption>
          <thead>
            <tr>
              {['E-mail', 'Role', 'Sent', 'Link valid until', ...(manage ? ['Actions'] : [])].map((title) => (
                <th key={title} scope="col">
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {invitations.map((invitation) => (
              <tr key={invitation.id}>
                <th scope="row" data-label="E-mail">
                  {invitation.email}
                </th>
                <td data-label="Role">{ROLE_LABELS[invitation.role]}</td>
                <td data-label="Sent">{formatTime(invitation.createdAt)}</td>
                <td data-label="Link valid until">{formatTime(invitation.expiresAt)}</td>
                {manage && (
                  <td data-label="Actions">
                    <button
                      type="button"
                      class="button button-small button-danger"
                      onClick={() => onCancel(invitation)}
                    >
                      Cancel<span class="visually-hidden"> the invitation for {invitation.email}</span>
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
