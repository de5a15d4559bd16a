import { z } from 'zod';
import { ENVIRONMENTS } from '../credentials.js';
import { ERROR_CODES, errorDetailSchema } from '../errors.js';
import { patientContextMessageSchema } from '../widget/emr-messages.js';
import { componentRegistry } from './registry.js';
import { templateSchema } from './templates.js';
/** POST {widget_host}/api/widget/token: what the partner's backend sends. */
export const widgetTokenRequestSchema = z
  .strictObject({
    userEmail: z.email().max(320).describe('The clinician’s e-mail; creates or updates their account.'),
    emrUserId: z.string().min(1).max(256).describe('The EMR’s stable clinician identifier.'),
    emrSessionId: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('The EMR session or encounter; the same value reopens the same scribe on relaunch.'),
  })
  .register(componentRegistry, { id: 'WidgetTokenRequest' });
export const widgetTokenResponseSchema = z
  .object({
    success: z.literal(true),
    data: z.object({
      token: z.string().describe('JWT for the iframe’s `token` query parameter.'),
      expiresAt: z.string().describe('ISO 8601 expiry.'),
    }),
  })
  .register(componentRegistry, { id: 'WidgetTokenResponse' });
/** Every error under /api/widget, in the envelope the interface gives the token endpoint. */
export const widgetErrorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_CODES)),
      message: z.string(),
      requestId: z.string(),
      details: z.array(errorDetailSchema).optional(),
    }),
  })
  .register(componentRegistry, { id: 'WidgetError' });
/** GET /api/widget/session: who the iframe is working for. */
export const widgetSessionInfoSchema = z
  .object({
    clinician: z.object({ id: z.string(), email: z.string(), emrUserId: z.string() }),
    partner: z.object({ id: z.string(), name: z.string() }),
    environment: z.enum(ENVIRONMENTS),
    allowedOrigins: z.array(z.string()).describe('The only origins the widget exchanges messages with.'),
    emrSessionId: z.string().nullable(),
    expiresAt: z.string().describe('When the widget token expires (ISO 8601).'),
  })
  .register(componentRegistry, { id: 'WidgetSessionInfo' });
/** An encounter ("scribe"): what SESSION_STARTED's sessionId names. */
export const widgetEncounterSchema = z
  .object({
    sessionId: z.string(),
    emrSessionId: z.string().nullable(),
    resumed: z.boolean().describe('True when an existing encounter for the emrSessionId was reopened.'),
    patientId: z.string().nullable().describe('The EMR’s raw patient id, once set.'),
    createdAt: z.string(),
  })
  .register(componentRegistry, { id: 'WidgetEncounter' });
/** PUT /api/widget/encounters/{sessionId}/patient-context: the validated PATIENT_CONTEXT fields. */
export const setPatientContextRequestSchema = patientContextMessageSchema
  .omit({ type: true })
  .register(componentRegistry, { id: 'SetPatientContextRequest' });
export const patientContextResultSchema = z
  .object({
    sessionId: z.string(),
    patientId: z.string().describe('Echoed unchanged, as PUSH_NOTE.patientId will be.'),
    template: templateSchema.describe('The template notes of this encounter use (locked by noteConfig).'),
    sectionKeys: z
      .array(z.object({ templateKey: z.string(), hostKey: z.string(), label: z.string() }))
      .describe('Which host key (PUSH_NOTE.sections) each template section is returned under.'),
  })
  .register(componentRegistry, { id: 'PatientContextResult' });
/** POST /api/widget/realtime-tokens: a svc_rt_ token for the encounter's audio. */
export const widgetRealtimeTokenRequestSchema = z
  .strictObject({
    sessionId: z.string().min(1).describe('The encounter the audio belongs to.'),
    expiresInSeconds: z.int().min(60).max(3600).optional(),
  })
  .register(componentRegistry, { id: 'WidgetRealtimeTokenRequest' });
//# sourceMappingURL=widget-api.js.map
