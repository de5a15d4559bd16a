import { z } from 'zod';
import { widgetAppointmentSchema } from './appointment.js';
import { widgetMedicalContextSchema } from './medical-context.js';
import { widgetNoteConfigSchema } from './note-config.js';
import { widgetPatientSchema } from './patient.js';
/*
 * Messages the EMR posts to the widget (interface: Events, EMR to widget). Unknown fields are dropped,
 * not refused: EMRs upgrade on their own schedule and may send fields a newer widget understands.
 */
export const EMR_TO_WIDGET_MESSAGE_TYPES = Object.freeze([
  'PATIENT_CONTEXT',
  'SET_CONTEXT',
  'TOKEN_REFRESH',
  'CLOSE_WIDGET',
]);
export const patientContextMessageSchema = z.object({
  type: z.literal('PATIENT_CONTEXT'),
  patient: widgetPatientSchema,
  context: widgetMedicalContextSchema.optional(),
  appointment: widgetAppointmentSchema.optional(),
  noteConfig: widgetNoteConfigSchema.optional(),
});
export const SET_CONTEXT_MODES = Object.freeze(['append', 'overwrite']);
export const setContextMessageSchema = z.object({
  type: z.literal('SET_CONTEXT'),
  // May be empty: overwriting with '' is how an EMR clears the free-text context.
  context: z.string(),
  mode: z.enum(SET_CONTEXT_MODES).default('append'),
});
export const tokenRefreshMessageSchema = z.object({
  type: z.literal('TOKEN_REFRESH'),
  // A JWT holds no whitespace, so trimming only forgives a stray newline from the EMR's fetch code.
  token: z.string().trim().min(1).describe('A new JWT from POST /api/widget/token.'),
});
export const closeWidgetMessageSchema = z.object({ type: z.literal('CLOSE_WIDGET') });
export const emrToWidgetMessageSchema = z.discriminatedUnion('type', [
  patientContextMessageSchema,
  setContextMessageSchema,
  tokenRefreshMessageSchema,
  closeWidgetMessageSchema,
]);
//# sourceMappingURL=emr-messages.js.map
