import type { Principal } from '../auth/principal.js';
import type { AuditActor, AuditLog } from './audit-log.js';
import type { AuditSubjects } from './audit-subjects.js';

/** Where a realtime socket came from, as its upgrade request said. */
export interface ConnectionOrigin {
  ip: string;
  requestId: string;
}

function actorOf(principal: Principal): AuditActor {
  if (principal.kind === 'api_key') {
    return {
      kind: 'api_key',
      id: principal.apiKeyId,
      projectId: principal.projectId,
      environment: principal.environment,
      partnerId: null,
    };
  }
  return {
    kind: 'realtime_token',
    id: principal.tokenId,
    projectId: principal.projectId,
    environment: principal.environment,
    partnerId: principal.issuer.kind === 'partner' ? principal.issuer.id : null,
  };
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
      actor: actorOf(principal),
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
