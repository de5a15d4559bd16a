import { CONSOLE_ROLES, type ConsoleRole, type IssuedInvitation, type Member } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { useConsole } from '../console-context.js';
import { DialogForm } from '../dialog.js';
import { TextInput } from '../fields.js';
import { formatTime, ROLE_LABELS, ROLE_SUMMARIES } from '../format.js';
import { useSubmit } from '../hooks.js';
import { SecretDialog } from '../secret-reveal.js';

export interface RoleChoiceProps<R extends ConsoleRole> {
  value: R;
  onChange: (role: R) => void;
  roles: readonly R[];
}

/** Radio buttons for a role, each with what it may do. */
export function RoleChoice<R extends ConsoleRole>({ value, onChange, roles }: RoleChoiceProps<R>) {
  return (
    <fieldset>
      <legend>Role</legend>
      <div class="role-choices">
        {roles.map((role) => (
          <label key={role} class="choice">
            <input type="radio" name="role" value={role} checked={value === role} onChange={() => onChange(role)} />
            <span>
              <strong>{ROLE_LABELS[role]}</strong>: {ROLE_SUMMARIES[role]}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function InviteDialog({ onChanged, onClose }: { onChanged: () => void; onClose: () => void }) {
  const { api } = useConsole();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ConsoleRole>('developer');
  const [issued, setIssued] = useState<IssuedInvitation | null>(null);
  const form = useSubmit(
    () => api.invite({ email: email.trim(), role }),
    (result) => {
      setIssued(result);
      onChanged();
    },
  );
  if (issued !== null) {
    const { invitation } = issued;
    return (
      <SecretDialog
        title={`Invitation for ${invitation.email}`}
        onClose={onClose}
        label="Invitation link"
        secret={issued.link}
      >
        <p class="callout-title">Send this link to {invitation.email} yourself: it is shown only this once.</p>
        <p>
          Anyone with it can join as {ROLE_LABELS[invitation.role].toLowerCase()} until{' '}
          {formatTime(invitation.expiresAt)}.
        </p>
      </SecretDialog>
    );
  }
  return (
    <DialogForm
      title="Invite a member"
      onClose={onClose}
      {...form}
      fields={['email']}
      submitLabel="Create invitation link"
    >
      <TextInput
        id="invite-email"
        label="E-mail"
        type="email"
        value={email}
        onInput={setEmail}
        problems={form.error?.problemsOf('email')}
      />
      <RoleChoice value={role} onChange={setRole} roles={CONSOLE_ROLES} />
    </DialogForm>
  );
}

export function ChangeRoleDialog(props: { member: Member; onChanged: () => void; onClose: () => void }) {
  const { member, onChanged, onClose } = props;
  const { api } = useConsole();
  const [role, setRole] = useState<ConsoleRole>(member.role);
  const form = useSubmit(
    () => api.updateMember(member.id, { role }),
    () => {
      onChanged();
      onClose();
    },
  );
  return (
    <DialogForm title={`Role of ${member.name}`} onClose={onClose} {...form} submitLabel="Save role">
      <RoleChoice value={role} onChange={setRole} roles={CONSOLE_ROLES} />
    </DialogForm>
  );
}
