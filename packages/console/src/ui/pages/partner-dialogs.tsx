import type { Environment, IssuedPartnerKey, Partner } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { useConsole } from '../console-context.js';
import { Dialog, DoneButton, FormButtons } from '../dialog.js';
import { EnvironmentChoice } from '../environment-choice.js';
import { TextInput } from '../fields.js';
import { DEFAULT_GRACE_SECONDS, formatDuration, formatTime } from '../format.js';
import { useAction } from '../hooks.js';
import { ErrorNotice } from '../notices.js';
import { OriginsField, originsOf } from '../origins-field.js';
import { GraceSelect } from '../rotation.js';
import { SecretReveal } from '../secret-reveal.js';

/** Widget token lifetimes to choose from (the service takes 5 minutes to 7 days). */
const LIFETIMES = [300, 900, 3600, 8 * 3600, 86_400, 7 * 86_400];
const DEFAULT_LIFETIME = 3600;

/** The partner key, once, with where it must live. */
function PartnerKeyReveal({ issued, onClose }: { issued: IssuedPartnerKey; onClose: () => void }) {
  return (
    <>
      <SecretReveal label="X-Partner-Key" secret={issued.partnerKey}>
        <p class="callout-title">Copy the partner key now: it is shown only this once.</p>
        <p>
          It belongs on the EMR’s server, which sends it as <code>X-Partner-Key</code> to mint widget tokens. Never put
          it in a page.
        </p>
      </SecretReveal>
      <DoneButton onClose={onClose} />
    </>
  );
}

/** The longest widget token the partner may mint. */
function LifetimeSelect({ value, onChange }: { value: number; onChange: (seconds: number) => void }) {
  return (
    <div class="field">
      <label for="partner-lifetime">Longest widget token</label>
      <select
        id="partner-lifetime"
        value={String(value)}
        onChange={(event) => onChange(Number(event.currentTarget.value))}
      >
        {LIFETIMES.map((seconds) => (
          <option key={seconds} value={String(seconds)}>
            {formatDuration(seconds)}
            {seconds === DEFAULT_LIFETIME ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </div>
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
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const request = { name, environment, allowedOrigins: originsOf(origins), tokenLifetimeSeconds: lifetime };
    const result = await run(() => api.createPartner(projectId, request));
    if (result === null) return;
    setIssued(result);
    onChanged();
  };
  if (issued !== null) {
    return (
      <Dialog title={`Partner registered: ${issued.partner.name}`} onClose={onClose}>
        <PartnerKeyReveal issued={issued} onClose={onClose} />
      </Dialog>
    );
  }
  return (
    <Dialog title="Register an EMR partner" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextInput
          id="partner-name"
          label="Name"
          value={name}
          onInput={setName}
          problems={error?.problemsOf('name') ?? []}
        />
        <EnvironmentChoice value={environment} onChange={setEnvironment} environments={environments} />
        <OriginsField value={origins} onInput={setOrigins} error={error} />
        <LifetimeSelect value={lifetime} onChange={setLifetime} />
        <ErrorNotice error={error} fields={['name', 'environment', 'allowedOrigins', 'tokenLifetimeSeconds']} />
        <FormButtons busy={busy} submitLabel="Register partner" onClose={onClose} />
      </form>
    </Dialog>
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
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if ((await run(() => api.updatePartner(projectId, partner.id, { allowedOrigins: originsOf(origins) }))) === null)
      return;
    onChanged();
    onClose();
  };
  return (
    <Dialog title={`Origins of ${partner.name}`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <OriginsField value={origins} onInput={setOrigins} error={error} />
        <ErrorNotice error={error} fields={['allowedOrigins']} />
        <FormButtons busy={busy} submitLabel="Save origins" onClose={onClose} />
      </form>
    </Dialog>
  );
}

export function RotatePartnerDialog({ projectId, partner, onChanged, onClose }: PartnerDialogProps) {
  const { api } = useConsole();
  const [graceSeconds, setGraceSeconds] = useState(DEFAULT_GRACE_SECONDS);
  const [issued, setIssued] = useState<IssuedPartnerKey | null>(null);
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const result = await run(() => api.rotatePartnerSecret(projectId, partner.id, { graceSeconds }));
    if (result === null) return;
    setIssued(result);
    onChanged();
  };
  if (issued !== null) {
    const until = issued.partner.previousSecretExpiresAt;
    return (
      <Dialog title={`Secret rotated: ${partner.name}`} onClose={onClose}>
        <p class="old-key-end">
          {until === null
            ? 'The old key stopped working now.'
            : `The old key keeps working until ${formatTime(until)}.`}
        </p>
        <PartnerKeyReveal issued={issued} onClose={onClose} />
      </Dialog>
    );
  }
  return (
    <Dialog title={`Rotate the secret of ${partner.name}`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p>A new partner key is issued now; the old one keeps working for the period you choose.</p>
        <GraceSelect value={graceSeconds} onChange={setGraceSeconds} />
        <ErrorNotice error={error} />
        <FormButtons busy={busy} submitLabel="Rotate secret" onClose={onClose} />
      </form>
    </Dialog>
  );
}
