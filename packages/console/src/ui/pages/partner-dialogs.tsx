import type { Environment, IssuedPartnerKey, Partner } from '@chartwright/protocol';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

import { useConsole } from '../console-context.js';
import { DialogForm } from '../dialog.js';
import { EnvironmentChoice } from '../environment-choice.js';
import { Select, TextInput } from '../fields.js';
import { DEFAULT_GRACE_SECONDS, formatDuration, formatTime } from '../format.js';
import { useSubmit } from '../hooks.js';
import { OriginsField, originsOf } from '../origins-field.js';
import { GraceSelect } from '../rotation.js';
import { SecretDialog } from '../secret-reveal.js';

const DEFAULT_LIFETIME = 3600;
/** Widget token lifetimes to choose from (the service takes 5 minutes to 7 days). */
const LIFETIMES = [300, 900, 3600, 8 * 3600, 86_400, 7 * 86_400].map(
  (seconds) =>
    [String(seconds), `${formatDuration(seconds)}${seconds === DEFAULT_LIFETIME ? ' (default)' : ''}`] as const,
);

/** The partner key, once, with where it must live. */
function PartnerKeyDialog(props: {
  title: string;
  issued: IssuedPartnerKey;
  onClose: () => void;
  after?: ComponentChildren;
}) {
  const { title, issued, onClose, after } = props;
  return (
    <SecretDialog title={title} onClose={onClose} label="X-Partner-Key" secret={issued.partnerKey} after={after}>
      <p class="callout-title">Copy the partner key now: it is shown only this once.</p>
      <p>
        It belongs on the EMR’s server, which sends it as <code>X-Partner-Key</code> to mint widget tokens. Never put it
        in a page.
      </p>
    </SecretDialog>
  );
}

export interface RegisterPartnerDialogProps {
  projectId: string;
  environments: readonly Environment[];
  onChanged: () => void;
  onClose: () => void;
}

export function RegisterPartnerDialog({ projectId, environments, onChanged, onClose }: RegisterPartnerDialogProps) {
  const { api } = useConsole();
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<Environment>(environments[0] ?? 'test');
  const [origins, setOrigins] = useState('');
  const [lifetime, setLifetime] = useState(DEFAULT_LIFETIME);
  const [issued, setIssued] = useState<IssuedPartnerKey | null>(null);
  const request = { name, environment, allowedOrigins: originsOf(origins), tokenLifetimeSeconds: lifetime };
  const form = useSubmit(
    () => api.createPartner(projectId, request),
    (result) => {
      setIssued(result);
      onChanged();
    },
  );
  if (issued !== null) {
    return <PartnerKeyDialog title={`Partner registered: ${issued.partner.name}`} issued={issued} onClose={onClose} />;
  }
  return (
    <DialogForm
      title="Register an EMR partner"
      onClose={onClose}
      {...form}
      fields={['name', 'environment', 'allowedOrigins', 'tokenLifetimeSeconds']}
      submitLabel="Register partner"
    >
      <TextInput
        id="partner-name"
        label="Name"
        value={name}
        onInput={setName}
        problems={form.error?.problemsOf('name')}
      />
      <EnvironmentChoice value={environment} onChange={setEnvironment} environments={environments} />
      <OriginsField value={origins} onInput={setOrigins} error={form.error} />
      <Select
        id="partner-lifetime"
        label="Longest widget token"
        value={String(lifetime)}
        onChange={(seconds) => setLifetime(Number(seconds))}
        options={LIFETIMES}
      />
    </DialogForm>
  );
}

export interface PartnerDialogProps {
  projectId: string;
  partner: Partner;
  onChanged: () => void;
  onClose: () => void;
}

export function EditOriginsDialog({ projectId, partner, onChanged, onClose }: PartnerDialogProps) {
  const { api } = useConsole();
  const [origins, setOrigins] = useState(partner.allowedOrigins.join('\n'));
  const form = useSubmit(
    () => api.updatePartner(projectId, partner.id, { allowedOrigins: originsOf(origins) }),
    () => {
      onChanged();
      onClose();
    },
  );
  return (
    <DialogForm
      title={`Origins of ${partner.name}`}
      onClose={onClose}
      {...form}
      fields={['allowedOrigins']}
      submitLabel="Save origins"
    >
      <OriginsField value={origins} onInput={setOrigins} error={form.error} />
    </DialogForm>
  );
}

export function RotatePartnerDialog({ projectId, partner, onChanged, onClose }: PartnerDialogProps) {
  const { api } = useConsole();
  const [graceSeconds, setGraceSeconds] = useState(DEFAULT_GRACE_SECONDS);
  const [issued, setIssued] = useState<IssuedPartnerKey | null>(null);
  const form = useSubmit(
    () => api.rotatePartnerSecret(projectId, partner.id, { graceSeconds }),
    (result) => {
      setIssued(result);
      onChanged();
    },
  );
  if (issued !== null) {
    const until = issued.partner.previousSecretExpiresAt;
    return (
      <PartnerKeyDialog
        title={`Secret rotated: ${partner.name}`}
        issued={issued}
        onClose={onClose}
        after={
          <p class="old-key-end">
            {until === null
              ? 'The old key stopped working now.'
              : `The old key keeps working until ${formatTime(until)}.`}
          </p>
        }
      />
    );
  }
  return (
    <DialogForm title={`Rotate the secret of ${partner.name}`} onClose={onClose} {...form} submitLabel="Rotate secret">
      <p>A new partner key is issued now; the old one keeps working for the period you choose.</p>
      <GraceSelect value={graceSeconds} onChange={setGraceSeconds} />
    </DialogForm>
  );
}
