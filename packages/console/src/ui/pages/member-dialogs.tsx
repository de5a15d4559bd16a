import { CONSOLE_ROLES, type ConsoleRole, type IssuedInvitation, type Member } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { useConsole } from '../console-context.js';
import { Dialog, DoneButton, FormButtons } from '../dialog.js';
import { TextInput } from '../fields.js';
import { formatTime, ROLE_LABELS, ROLE_SUMMARIES } from '../format.js';
import { useAction } from '../hooks.js';
import { ErrorNotice } from '../notices.js';
import { SecretReveal } from '../secret-reveal.js';

/** Radio buttons for a role, each with what it may do. */
export interface RoleChoiceProps<R extends ConsoleRole> {
  value: R;
  onChange: (role: R) => void;
  roles: readonly R[];
}

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
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const result = await run(() => api.invite({ email: email.trim(), role }));
    if (result === null) return;
    setIssued(result);
    onChanged();
  };
  if (issued !== null) {
    return (
      <Dialog title={`Invitation for ${issued.invitation.email}`} onClose={onClose}>
        <SecretReveal label="Invitation link" secret={issued.link}>
          <p class="callout-title">Send this link to {issued.invitation.email} yourself: it is shown only this once.</p>
          <p>
            Anyone with it can join as {ROLE_LABELS[issued.invitation.role].toLowerCase()} until{' '}
            {formatTime(issued.invitation.expiresAt)}.
          </p>
        </SecretReveal>
        <DoneButton onClose={onClose} />
      </Dialog>
    );
  }
  return (
    <Dialog title="Invite a member" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextInput
          id="invite-email"
          label="E-mail"
          type="email"
          value={email}
          onInput={setEmail}
          problems={error?.problemsOf('email') ?? []}
        />
        <RoleChoice value={role} onChange={setRole} roles={CONSOLE_ROLES} />
        <ErrorNotice error={error} fields={['email']} />
        <FormButtons busy={busy} submitLabel="Create invitation link" onClose={onClose} />
      </form>
    </Dialog>
  );
}

export function ChangeRoleDialog(props: { member: Member; onChanged: () => void; onClose: () => void }) {
  const { member, onChanged, onClose } = props;
  const { api } = useConsole();
  const [role, setRole] = useState<ConsoleRole>(member.role);
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if ((await run(() => api.updateMember(member.id, { role }))) === null) return;
    onChanged();
    onClose();
  };
  return (
    <Dialog title={`Role of ${member.name}`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <RoleChoice value={role} onChange={setRole} roles={CONSOLE_ROLES} />
        <ErrorNotice error={error} />
        <FormButtons busy={busy} submitLabel="Save role" onClose={onClose} />
      </form>
    </Dialog>
  );
}
