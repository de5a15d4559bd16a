import type { FastifyInstance } from 'fastify';

import { AuditLog } from '@chartwright/server/internal/audit/audit-log.js';
import { AuditSubjects } from '@chartwright/server/internal/audit/audit-subjects.js';
import { OperationAudit } from '@chartwright/server/internal/audit/operation-audit.js';
import { ManualClock } from '@chartwright/server/internal/clock.js';
import { createRepositories } from '@chartwright/server/internal/store/repositories.js';
import { openTestDatabase } from './databases.js';

/**
 * Gives a bare Fastify app (a plumbing test's) the audit log that routes on patient data need, on an
 * in-memory database of its own; returns what closes it.
 */
export async function withOperationAudit(app: FastifyInstance): Promise<() => Promise<void>> {
  const database = await openTestDatabase('sqlite');
  const repositories = createRepositories(database.database);
  const audit = new AuditLog({
    events: repositories.auditEvents,
    clock: new ManualClock(),
    key: 'test',
    retentionMs: 1,
  });
  app.decorate('operationAudit', new OperationAudit(audit, new AuditSubjects(repositories)));
  return () => database.dispose();
}
