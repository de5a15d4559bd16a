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
] as const);
export type WidgetToEmrMessageType = (typeof WIDGET_TO_EMR_MESSAGE_TYPES)[number];

const identifier = () => z.string().min(1);

export const widgetReadyMessageSchema = z.object({
  type: z.literal('WIDGET_READY'),
  version: z.string().describe('Widget version; its format is not specified beyond being a string.'),
});
export type WidgetReadyMessage = z.output<typeof widgetReadyMessageSchema>;

export const sessionStartedMessageSchema = z.object({
  type: z.literal('SESSION_STARTED'),
  sessionId: identifier().describe('Conversation id to store against the emrSessionId.'),
});
export type SessionStartedMessage = z.output<typeof sessionStartedMessageSchema>;

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
export type PushNoteMessage = z.output<typeof pushNoteMessageSchema>;

export const WIDGET_DOCUMENT_TYPES = Object.freeze(['letter', 'referral', 'form', 'pdf'] as const);
export type WidgetDocumentType = (typeof WIDGET_DOCUMENT_TYPES)[number];

export const pushDocumentMessageSchema = z.object({
  type: z.literal('PUSH_DOCUMENT'),
  title: z.string(),
  content: z.string(),
  documentType: z.enum(WIDGET_DOCUMENT_TYPES),
  pdfUrl: z.string().optional(),
  sessionId: identifier(),
  patientId: identifier(),
});
export type PushDocumentMessage = z.output<typeof pushDocumentMessageSchema>;

export const requestPatientContextMessageSchema = z.object({ type: z.literal('REQUEST_PATIENT_CONTEXT') });
export type RequestPatientContextMessage = z.output<typeof requestPatientContextMessageSchema>;

export const tokenExpiringMessageSchema = z.object({
  type: z.literal('TOKEN_EXPIRING'),
  expiresInMs: nonNegativeNumber(),
});
export type TokenExpiringMessage = z.output<typeof tokenExpiringMessageSchema>;

export const requestTokenRefreshMessageSchema = z.object({ type: z.literal('REQUEST_TOKEN_REFRESH') });
export type RequestTokenRefreshMessage = z.output<typeof requestTokenRefreshMessageSchema>;

export const tokenExpiredMessageSchema = z.object({ type: z.literal('TOKEN_EXPIRED') });
export type TokenExpiredMessage = z.output<typeof tokenExpiredMessageSchema>;

export const widgetErrorMessageSchema = z.object({
  type: z.literal('WIDGET_ERROR'),
  // Any string, not just today's WIDGET_ERROR_CODES: EMRs must tolerate codes added later.
  code: identifier(),
  message: z.string().describe('Field-level detail: `<field path>: <problem>` entries joined by "; ".'),
});
export type WidgetErrorMessage = z.output<typeof widgetErrorMessageSchema>;

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
export type WidgetToEmrMessage = z.output<typeof widgetToEmrMessageSchema>;
