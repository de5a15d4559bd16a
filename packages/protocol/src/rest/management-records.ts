import { z } from 'zod';

import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS } from '../console/constants.js';
import { ENVIRONMENTS } from '../credentials.js';
import { componentRegistry } from './registry.js';

const isoTime = (what: string) => z.string().describe(`${what} (ISO 8601).`);

export const auditEventSchema = z
  .object({
    id: z.string(),
    occurredAt: isoTime('When'),
    actor: z.object({
      kind: z.enum(AUDIT_ACTOR_KINDS),
      id: z.string().nullable(),
      projectId: z.string().nullable(),
      environment: z.enum(ENVIRONMENTS).nullable(),
      partnerId: z.string().nullable(),
    }),
    action: z.enum(AUDIT_ACTIONS),
    resourceType: z.string(),
    resourceId: z.string().nullable(),
    encounterId: z.string().nullable(),
    outcome: z.enum(['success', 'failure']),
    status: z.int().nullable().describe('The HTTP status answered; null for the CLI and the service’s sweeps.'),
    errorCode: z.string().nullable(),
    ip: z.string().nullable(),
    requestId: z.string().nullable(),
  })
  .register(componentRegistry, {
    id: 'AuditEvent',
    description: 'One access to patient data or one change to the organisation’s credentials and members.',
  });
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditEventPageSchema = z
  .object({
    data: z.array(auditEventSchema).describe('Newest first.'),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null at the end.'),
  })
  .register(componentRegistry, { id: 'AuditEventPage' });
export type AuditEventPage = z.infer<typeof auditEventPageSchema>;

const auditFilters = {
  actorKind: z.enum(AUDIT_ACTOR_KINDS).optional(),
  actorId: z.string().min(1).max(200).optional(),
  resourceType: z.string().min(1).max(100).optional(),
  resourceId: z.string().min(1).max(200).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  since: z.iso.datetime({ offset: true }).optional().describe('Inclusive, ISO 8601.'),
  until: z.iso.datetime({ offset: true }).optional().describe('Exclusive, ISO 8601.'),
};

export const listAuditEventsQuerySchema = z.strictObject({
  ...auditFilters,
  limit: z.coerce.number().int().min(1).max(500).optional().describe('Default 100.'),
  cursor: z.string().regex(/^\d+$/).optional(),
});
export const exportAuditEventsQuerySchema = z.strictObject(auditFilters);
export type ListAuditEventsQuery = z.infer<typeof listAuditEventsQuerySchema>;
export type ExportAuditEventsQuery = z.infer<typeof exportAuditEventsQuerySchema>;

export const usageDaySchema = z
  .object({
    projectId: z.string(),
    environment: z.enum(ENVIRONMENTS),
    day: z.string().describe('UTC day, YYYY-MM-DD.'),
    restRequests: z.int(),
    notesGenerated: z.int(),
    realtimeAudioSeconds: z.int(),
    widgetTokens: z.int(),
  })
  .register(componentRegistry, { id: 'UsageDay' });
export type UsageDay = z.infer<typeof usageDaySchema>;
export const usageListSchema = z.array(usageDaySchema).register(componentRegistry, { id: 'UsageList' });

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day, YYYY-MM-DD');
export const usageQuerySchema = z.strictObject({
  projectId: z.string().min(1).max(200).optional(),
  environment: z.enum(ENVIRONMENTS).optional(),
  from: day.optional().describe('First UTC day, inclusive; default 30 days ago.'),
  to: day.optional().describe('Last UTC day, inclusive; default today.'),
});
export type UsageQuery = z.infer<typeof usageQuerySchema>;
