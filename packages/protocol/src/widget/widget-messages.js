import { z } from 'zod';
import { nonNegativeNumber, stringMap } from './fields.js';
/*
 * Messages the widget posts to the EMR (interface: Events, widget to EMR). Identifiers must not be
 * empty — an EMR cannot file a note against an empty patient id — while free text may be. Unknown
 * fields are dropped, not refused, so an EMR validating with an older copy of this package keeps
 * working when a newer widget adds a field.
 */
export const WIDGET_TO_EMR_MESSAGE_TYPES = Object.freeze([
  'WIDGET_READY',
  'SESSION_STARTED',
  'PUSH_NOTE',
  'PUSH_DOCUMENT',
  'REQUEST_PATIENT_CONTEXT',
  'TOKEN_EXPIRING',
  'REQUEST_TOKEN_REFRESH',
  'TOKEN_EXPIRED',
  'WIDGET_ERROR',
]);
const identifier = () => z.string().min(1);
export const widgetReadyMessageSchema = z.object({
  type: z.literal('WIDGET_READY'),
  version: z.string().describe('Widget version; its format is not specified beyond being a string.'),
});
export const sessionStartedMessageSchema = z.object({
  type: z.literal('SESSION_STARTED'),
  sessionId: identifier().describe('Conversation id to store against the emrSessionId.'),
});
export const pushNoteMessageSchema = z.object({
  type: z.literal('PUSH_NOTE'),
  note: z.string().describe('Full note text; always present.'),
  sections: stringMap()
    .optional()
    .describe('Keyed by noteConfig section keys; an empty string when a section was not found.'),
  transcript: z.string().optional(),
  sessionId: identifier(),
  patientId: identifier().describe('The patient.id the EMR gave.'),
});
export const WIDGET_DOCUMENT_TYPES = Object.freeze(['letter', 'referral', 'form', 'pdf']);
export const pushDocumentMessageSchema = z.object({
  type: z.literal('PUSH_DOCUMENT'),
  title: z.string(),
  content: z.string(),
  documentType: z.enum(WIDGET_DOCUMENT_TYPES),
  pdfUrl: z.string().optional(),
  sessionId: identifier(),
  patientId: identifier(),
});
export const requestPatientContextMessageSchema = z.object({ type: z.literal('REQUEST_PATIENT_CONTEXT') });
export const tokenExpiringMessageSchema = z.object({
  type: z.literal('TOKEN_EXPIRING'),
  expiresInMs: nonNegativeNumber(),
});
export const requestTokenRefreshMessageSchema = z.object({ type: z.literal('REQUEST_TOKEN_REFRESH') });
export const tokenExpiredMessageSchema = z.object({ type: z.literal('TOKEN_EXPIRED') });
export const widgetErrorMessageSchema = z.object({
  type: z.literal('WIDGET_ERROR'),
  // Any string, not just today's WIDGET_ERROR_CODES: EMRs must tolerate codes added later.
  code: identifier(),
  message: z.string().describe('Field-level detail: `<field path>: <problem>` entries joined by "; ".'),
});
export const widgetToEmrMessageSchema = z.discriminatedUnion('type', [
  widgetReadyMessageSchema,
  sessionStartedMessageSchema,
  pushNoteMessageSchema,
  pushDocumentMessageSchema,
  requestPatientContextMessageSchema,
  tokenExpiringMessageSchema,
  requestTokenRefreshMessageSchema,
  tokenExpiredMessageSchema,
  widgetErrorMessageSchema,
]);
//# sourceMappingURL=widget-messages.js.map
