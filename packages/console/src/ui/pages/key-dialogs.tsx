import type { ApiKey, Environment, IssuedApiKey, RotatedApiKey } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { useConsole } from '../console-context.js';
import { DialogForm } from '../dialog.js';
import { EnvironmentChoice } from '../environment-choice.js';
import { TextInput } from '../fields.js';
import { DEFAULT_GRACE_SECONDS, ENVIRONMENT_LABELS, formatTime } from '../format.js';
import { useSubmit } from '../hooks.js';
import { GraceSelect } from '../rotation.js';
import { SecretDialog } from '../secret-reveal.js';

/** Said with every new key: where an sk_ key may live, and what browsers use instead. */
function KeyWarning() {
  return (
    <>
      <p class="callout-title">Copy the key now: it is shown only this once.</p>
      <p>
        Keep it on your servers. Never put <code>sk_</code> keys in a browser or a mobile app: browsers use temporary{' '}
        <code>svc_rt_</code> tokens your server mints with <code>POST /api/v1/realtime/tokens</code>.
      </p>
    </>
  );
}

export interface CreateKeyDialogProps {
  projectId: string;
  /** The environments the member's role may make keys for (at least one). */
  environments: readonly Environment[];
  onCreated: () => void;
  onClose: () => void;
}

/** Create a key: environment and name, then the key itself, once, with its copy button. */
export function CreateKeyDialog({ projectId, environments, onCreated, onClose }: CreateKeyDialogProps) {
  const { api } = useConsole();
  const [environment, setEnvironment] = useState<Environment>(environments[0] ?? 'test');
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const trimmed = name.trim();
  const form = useSubmit(
    () => api.createApiKey(projectId, { environment, ...(trimmed === '' ? {} : { name: trimmed }) }),
    (result) => {
      setIssued(result);
      onCreated();
    },
  );
  if (issued !== null) {
    return (
      <SecretDialog
        title={`Key created: ${issued.key.name}`}
        onClose={onClose}
        label={`${ENVIRONMENT_LABELS[issued.key.environment]} API key`}
        secret={issued.secret}
      >
        <KeyWarning />
      </SecretDialog>
    );
  }
  return (
    <DialogForm
      title="Create an API key"
      onClose={onClose}
      {...form}
      fields={['name', 'environment']}
      submitLabel="Create key"
    >
      <EnvironmentChoice value={environment} onChange={setEnvironment} environments={environments} />
      <TextInput
        id="key-name"
        label="Name"
        hint="What uses it, such as “backend” or “billing job”. Default: default."
        value={name}
        onInput={setName}
        problems={form.error?.problemsOf('name')}
      />
    </DialogForm>
  );
}

export interface RotateKeyDialogProps {
  projectId: string;
  apiKey: ApiKey;
  onRotated: () => void;
  onClose: () => void;
}

/** Rotate a key: the grace period, then the replacement once and when the old key stops working. */
export function RotateKeyDialog({ projectId, apiKey, onRotated, onClose }: RotateKeyDialogProps) {
  const { api } = useConsole();
  const [graceSeconds, setGraceSeconds] = useState(DEFAULT_GRACE_SECONDS);
  const [rotated, setRotated] = useState<RotatedApiKey | null>(null);
  const form = useSubmit(
    () => api.rotateApiKey(projectId, apiKey.id, { graceSeconds }),
    (result) => {
      setRotated(result);
      onRotated();
    },
  );
  if (rotated !== null) {
    const { replacement, previous } = rotated;
    const end =
      previous.status === 'grace' ? `keeps working until ${formatTime(previous.expiresAt)}.` : 'stopped working now.';
    return (
      <SecretDialog
        title={`Key rotated: ${apiKey.name}`}
        onClose={onClose}
        label={`New ${ENVIRONMENT_LABELS[replacement.key.environment]} API key`}
        secret={replacement.secret}
        after={
          <p class="old-key-end">
            The old key <code>{previous.hint}</code> {end}
          </p>
        }
      >
        <KeyWarning />
      </SecretDialog>
    );
  }
  return (
    <DialogForm title={`Rotate ${apiKey.name}`} onClose={onClose} {...form} submitLabel="Rotate key">
      <p>
        A new key is issued now. The old key <code>{apiKey.hint}</code> keeps working for the period you choose, so you
        can replace it everywhere first.
      </p>
      <GraceSelect value={graceSeconds} onChange={setGraceSeconds} />
    </DialogForm>
  );
}
