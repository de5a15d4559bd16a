import type { Principal } from '../auth/principal.js';
import { credentialActor } from './actors.js';
import type { AuditLog } from './audit-log.js';
import type { AuditSubjects } from './audit-subjects.js';

/** Where a realtime socket came from, as its upgrade request said. */
export interface ConnectionOrigin {
  ip: string;
  requestId: string;
}

/**
 * The realtime socket's audit records: a session started (its audio becomes a transcript) or resumed
 * (its missed segments are read back and its transcript goes on). Written before `started` is sent,
 * so a session whose record cannot be written does not start.
 */
export class RealtimeAudit {
  constructor(
    private readonly log: AuditLog,
    private readonly subjects: AuditSubjects,
  ) {}

  async sessionOpened(
    principal: Principal,
    session: { id: string; resumed: boolean },
    origin: ConnectionOrigin,
  ): Promise<void> {
    const encounterId = principal.kind === 'realtime_token' ? principal.encounterId : null;
    const subject = await this.subjects.encounter(encounterId ?? undefined);
    await this.log.record({
      actor: credentialActor(principal),
      action: session.resumed ? 'update' : 'create',
      resourceType: 'realtime_session',
      resourceId: session.id,
      encounterId,
      patientKey: subject?.patient_key ?? null,
      outcome: 'success',
      status: 101,
      errorCode: null,
      ip: origin.ip,
      requestId: origin.requestId,
    });
  }
}
