import type { EndpointId } from '@chartwright/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { ApiKeyPrincipal } from '../auth/principal.js';
import { consoleActor, isConsolePrincipal } from '../console/principal.js';
import { AppError } from '../errors.js';
import type { WidgetSession } from '../partners/widget-sessions.js';
import type { AuditAction } from '../store/schema.js';
import { credentialActor } from './actors.js';
import type { AuditActor, AuditLog } from './audit-log.js';
import type { AuditSubject, AuditSubjects } from './audit-subjects.js';
import {
  AUDITED_OPERATIONS,
  type AuditedCall,
  type AuditedOperation,
  type EncounterLocator,
} from './audited-operations.js';

/** Undefined when the resource belongs to no encounter (or is gone). */
type Subject = AuditSubject | undefined;

const isWidgetSession = (principal: unknown): principal is WidgetSession =>
  typeof principal === 'object' && principal !== null && 'clinician' in principal && 'partner' in principal;

const isApiKey = (principal: unknown): principal is ApiKeyPrincipal =>
  typeof principal === 'object' && principal !== null && (principal as { kind?: unknown }).kind === 'api_key';

/** The member an answer to signing in names; none when signing in failed. */
function signedInActor(result: unknown): AuditActor {
  const session = result as { member?: { id?: string }; organisation?: { id?: string } } | undefined;
  return {
    kind: 'console_member',
    id: session?.member?.id ?? null,
    projectId: null,
    environment: null,
    partnerId: null,
    organisationId: session?.organisation?.id ?? null,
  };
}

/** Who called, from the area guard's principal; a signed PDF link has none, so its encounter says whose. */
function actorOf(principal: unknown, subject: Subject, operation: AuditedOperation, call: AuditedCall): AuditActor {
  if (operation.signsIn === true) return signedInActor(call.result);
  if (isConsolePrincipal(principal)) {
    return consoleActor(principal, operation.scope?.(call) ?? { projectId: null, environment: null });
  }
  if (isApiKey(principal)) return credentialActor(principal);
  if (isWidgetSession(principal)) {
    return {
      kind: 'clinician',
      id: principal.clinician.id,
      projectId: principal.partner.project_id,
      environment: principal.partner.environment,
      partnerId: principal.partner.id,
    };
  }
  return {
    kind: 'pdf_link',
    id: null,
    projectId: subject?.project_id ?? null,
    environment: subject?.environment ?? null,
    partnerId: subject?.partner_id ?? null,
  };
}

/**
 * Leaves an audit record for every call of an operation that touches patient data, success or
 * failure, before the answer goes out: a call whose record cannot be written fails rather than go
 * unrecorded.
 */
export class OperationAudit {
  constructor(
    private readonly log: AuditLog,
    private readonly subjects: AuditSubjects,
  ) {}

  async around<T>(
    operationId: EndpointId,
    request: FastifyRequest,
    reply: FastifyReply,
    call: Omit<AuditedCall, 'result'>,
    run: () => Promise<T>,
  ): Promise<T> {
    const operation = AUDITED_OPERATIONS[operationId];
    if (operation === 'no_phi') return run();
    const action = (result: unknown) =>
      typeof operation.action === 'function' ? operation.action({ ...call, result }) : operation.action;
    // A delete takes its resource's encounter with it: find out whose it was first.
    const before =
      operation.action === 'delete' ? await this.subjectOf(operation, { ...call, result: undefined }) : undefined;
    let result: T;
    try {
      result = await run();
    } catch (error) {
      const failed = { ...call, result: undefined };
      const subject = before ?? (await this.subjectOf(operation, failed).catch(() => undefined));
      await this.write(request, operation, failed, subject, {
        action: action(undefined),
        outcome: 'failure',
        status: error instanceof AppError ? error.status : 500,
        errorCode: error instanceof AppError ? error.code : 'internal_error',
      }).catch((auditError: unknown) => request.log.error({ err: auditError }, 'audit record not written'));
      throw error;
    }
    const done = { ...call, result };
    const subject = before ?? (await this.subjectOf(operation, done));
    await this.write(request, operation, done, subject, {
      action: action(result),
      outcome: 'success',
      status: reply.statusCode,
      errorCode: null,
    });
    return result;
  }

  private async write(
    request: FastifyRequest,
    operation: AuditedOperation,
    call: AuditedCall,
    subject: Subject,
    outcome: { action: AuditAction; outcome: 'success' | 'failure'; status: number; errorCode: string | null },
  ): Promise<void> {
    await this.log.record({
      actor: actorOf(request.principal, subject, operation, call),
      action: outcome.action,
      resourceType: operation.resourceType,
      resourceId: operation.resourceId(call),
      encounterId: subject?.id ?? null,
      patientKey: subject?.patient_key ?? null,
      outcome: outcome.outcome,
      status: outcome.status,
      errorCode: outcome.errorCode,
      ip: request.ip,
      requestId: request.id,
    });
  }

  private async subjectOf(operation: AuditedOperation, call: AuditedCall): Promise<Subject> {
    return this.subjects.encounter(await this.encounterIdOf(operation.encounter, call));
  }

  private async encounterIdOf(locator: EncounterLocator | undefined, call: AuditedCall): Promise<string | undefined> {
    if (locator === undefined) return undefined;
    const fieldOf = (value: unknown, name: string) => {
      const field = (value as Record<string, unknown> | undefined)?.[name];
      return typeof field === 'string' ? field : undefined;
    };
    switch (locator.from) {
      case 'param':
        return call.params[locator.name];
      case 'body':
        return fieldOf(call.body, locator.name);
      case 'result':
        return fieldOf(call.result, locator.name);
      case 'note':
      case 'document':
      case 'realtime_session': {
        const id = call.params[locator.from === 'document' ? 'documentId' : 'id'];
        return id === undefined ? undefined : this.subjects.encounterIdOf(locator.from, id);
      }
    }
  }
}
