import { createHmac, randomBytes } from 'node:crypto';

import type { Environment } from '@chartwright/protocol';

import { generateId } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { AuditConfig } from '../config/config.js';
import type { GeneratedSecrets } from '../secrets/key-file.js';
import { sharedSecret } from '../secrets/shared-secret.js';
import type { AuditEventFilter, AuditEventRow, AuditEventsRepository, ChainHead } from '../store/audit-events.js';
import type { ServiceSecretsRepository } from '../store/service-secrets.js';
import type { AuditAction, AuditActorKind } from '../store/schema.js';

/** Who acted: a credential or a person, never their secret. */
export interface AuditActor {
  kind: AuditActorKind;
  /** The key, token, clinician or CLI user's id; null for the system's sweeps. */
  id: string | null;
  projectId: string | null;
  environment: Environment | null;
  partnerId: string | null;
  /** A console member's or admin token's organisation (records of members and sign-ins have no project). */
  organisationId?: string | null;
}

/** One access to patient data, as the audit log receives it. */
export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  resourceType: string;
  /** Null for a list (the encounter's notes) or a create that failed before its id existed. */
  resourceId: string | null;
  /** The widget encounter the resource belongs to, when it belongs to one. */
  encounterId: string | null;
  /** The encounter's namespaced patient id (`widget_{partnerId}_{patientId}`); stored only as its HMAC. */
  patientKey: string | null;
  outcome: 'success' | 'failure';
  status: number | null;
  errorCode: string | null;
  ip: string | null;
  requestId: string | null;
}

export interface ChainVerification {
  /** Records checked. */
  records: number;
  /** The first record whose hash or link does not hold (edited, inserted, or after a removed one); null if none. */
  broken: { seq: number; id: string; problem: 'hash' | 'link' } | null;
}

const DAY_MS = 86_400_000;

/** The chain's first record links to this. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields a record's hash covers, in a fixed order: everything but the hash itself. */
const hashedFields = (row: Omit<AuditEventRow, 'hash'>) => [
  row.seq,
  row.id,
  row.occurred_at,
  row.actor_kind,
  row.actor_id,
  row.project_id,
  row.environment,
  row.partner_id,
  row.action,
  row.resource_type,
  row.resource_id,
  row.encounter_id,
  row.patient_ref,
  row.outcome,
  row.status,
  row.error_code,
  row.ip,
  row.request_id,
  row.previous_hash,
  // Since 0015, and only when set: records written before keep the hashes they were chained with.
  ...(row.organisation_id === null ? [] : [row.organisation_id]),
];

/**
 * The append-only record of every access to patient data. Each record carries an HMAC over its
 * fields and the previous record's hash, keyed with a secret kept outside the database, so whoever
 * can write the database still cannot edit, insert or remove a record without `verify` finding it.
 * Records name resources by id and patients by a keyed hash of their id: "who saw patient X" is
 * answerable (hash X the same way) while the log itself holds no PHI.
 */
export class AuditLog {
  constructor(
    private readonly deps: {
      events: AuditEventsRepository;
      clock: Clock;
      /** The HMAC key: AUDIT_HMAC_KEY, or the key file's. */
      key: string;
      retentionMs: number;
    },
  ) {}

  /** The service's and the CLI's audit log: its key configured, or generated once into the key file. */
  static async open(
    config: AuditConfig,
    stores: {
      events: AuditEventsRepository;
      file: GeneratedSecrets;
      database: ServiceSecretsRepository;
      clock: Clock;
    },
  ): Promise<AuditLog> {
    const key = await sharedSecret(
      {
        name: 'audit_hmac_key',
        variable: 'AUDIT_HMAC_KEY',
        configured: config.hmacKey,
        generate: () => randomBytes(32).toString('base64url'),
      },
      stores,
    );
    return new AuditLog({
      events: stores.events,
      clock: stores.clock,
      key,
      retentionMs: config.retentionDays * DAY_MS,
    });
  }

  /** The reference records carry for a patient: HMAC-SHA256 of their namespaced id. */
  patientRef(patientKey: string): string {
    return createHmac('sha256', this.deps.key).update(`patient\n${patientKey}`).digest('hex');
  }

  async record(entry: AuditEntry): Promise<void> {
    const occurredAt = this.deps.clock.now();
    await this.deps.events.append((head: ChainHead) => {
      const row: Omit<AuditEventRow, 'hash'> = {
        seq: (head?.seq ?? 0) + 1,
        id: generateId('aud'),
        occurred_at: occurredAt,
        actor_kind: entry.actor.kind,
        actor_id: entry.actor.id,
        project_id: entry.actor.projectId,
        environment: entry.actor.environment,
        partner_id: entry.actor.partnerId,
        action: entry.action,
        resource_type: entry.resourceType,
        resource_id: entry.resourceId,
        encounter_id: entry.encounterId,
        patient_ref: entry.patientKey === null ? null : this.patientRef(entry.patientKey),
        outcome: entry.outcome,
        status: entry.status,
        error_code: entry.errorCode,
        ip: entry.ip,
        request_id: entry.requestId,
        previous_hash: head?.hash ?? GENESIS_HASH,
        organisation_id: entry.actor.organisationId ?? null,
      };
      return { ...row, hash: this.hashOf(row) };
    });
  }

  list(filter: AuditEventFilter): Promise<AuditEventRow[]> {
    return this.deps.events.list(filter);
  }

  /**
   * Walks the chain from its oldest kept record: each hash must be the HMAC of its record, and each
   * record must link to the one before. Retention removes records from the start only, so the
   * oldest kept record's link is taken as given.
   */
  async verify(): Promise<ChainVerification> {
    let records = 0;
    let previous: AuditEventRow | undefined;
    for await (const row of this.deps.events.chain()) {
      records += 1;
      if (this.hashOf(row) !== row.hash) return { records, broken: { seq: row.seq, id: row.id, problem: 'hash' } };
      if (previous !== undefined && (row.previous_hash !== previous.hash || row.seq !== previous.seq + 1)) {
        return { records, broken: { seq: row.seq, id: row.id, problem: 'link' } };
      }
      previous = row;
    }
    return { records, broken: null };
  }

  /** Deletes records past AUDIT_RETENTION_DAYS; returns how many. */
  deleteExpired(): Promise<number> {
    return this.deps.events.deleteBefore(this.deps.clock.now() - this.deps.retentionMs);
  }

  private hashOf(row: Omit<AuditEventRow, 'hash'>): string {
    return createHmac('sha256', this.deps.key)
      .update(JSON.stringify(hashedFields(row)))
      .digest('hex');
  }
}
