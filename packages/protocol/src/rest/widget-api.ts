import { z } from 'zod';

import { ENVIRONMENTS } from '../credentials.js';
import { ERROR_CODES, errorDetailSchema, type ErrorCode } from '../errors.js';
import { patientContextMessageSchema } from '../widget/emr-messages.js';
import { componentRegistry } from './registry.js';
import { templateSchema } from './templates.js';

/** POST {widget_host}/api/widget/token: what the partner's backend sends. */
export const widgetTokenRequestSchema = z
  .strictObject({
    userEmail: z.email().max(320).describe('The clinician’s e-mail; creates or updates their account.'),
    emrUserId: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .describe('The EMR’s stable clinician identifier; surrounding whitespace is removed.'),
    emrSessionId: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('The EMR session or encounter; the same value reopens the same scribe on relaunch.'),
  })
  .register(componentRegistry, { id: 'WidgetTokenRequest' });
export type WidgetTokenRequest = z.infer<typeof widgetTokenRequestSchema>;

export const widgetTokenResponseSchema = z
  .object({
    success: z.literal(true),
    data: z.object({
      token: z.string().describe('JWT for the iframe’s `token` query parameter.'),
      expiresAt: z.string().describe('ISO 8601 expiry.'),
    }),
  })
  .register(componentRegistry, { id: 'WidgetTokenResponse' });
export type WidgetTokenResponse = z.infer<typeof widgetTokenResponseSchema>;

/** Every error under /api/widget, in the envelope the interface gives the token endpoint. */
export const widgetErrorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      requestId: z.string(),
      details: z.array(errorDetailSchema).optional(),
    }),
  })
  .register(componentRegistry, { id: 'WidgetError' });
export type WidgetErrorEnvelope = z.infer<typeof widgetErrorEnvelopeSchema>;

/** How long a clinician's display name may be. */
export const CLINICIAN_DISPLAY_NAME_MAX_LENGTH = 200;

/** The clinician the widget works for, with the profile they keep in the widget. */
export const widgetClinicianSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    emrUserId: z.string(),
    displayName: z
      .string()
      .nullable()
      .describe('How they sign letters ("Dr. Ana Rivera"), set in the widget; null until set (their e-mail is used).'),
  })
  .register(componentRegistry, { id: 'WidgetClinician' });
export type WidgetClinician = z.infer<typeof widgetClinicianSchema>;

/** PUT /api/widget/profile: the clinician's profile, set once and kept for every later widget. */
export const updateWidgetProfileRequestSchema = z
  .strictObject({
    displayName: z
      .string()
      .trim()
      .min(1)
      .max(CLINICIAN_DISPLAY_NAME_MAX_LENGTH)
      .describe('How the clinician signs letters and forms, e.g. "Dr. Ana Rivera".'),
  })
  .register(componentRegistry, { id: 'UpdateWidgetProfileRequest' });
export type UpdateWidgetProfileRequest = z.input<typeof updateWidgetProfileRequestSchema>;

/** What kind of speech recognizer transcribes the service's audio. */
export const RECOGNIZER_KINDS = ['embedded', 'transcription_server', 'none'] as const;
export type RecognizerKind = (typeof RECOGNIZER_KINDS)[number];

/**
 * The speech recognizer behind the realtime transcript, for the clinician to see: a name and a
 * kind, never where it runs.
 */
export const recognizerInfoSchema = z
  .object({
    kind: z
      .enum(RECOGNIZER_KINDS)
      .describe(
        'embedded: PocketSphinx inside the service, for development, demos and as a fallback (its transcript needs ' +
          'review); transcription_server: a Whisper-class transcription server; none: no recognizer is configured.',
      ),
    name: z.string().describe('For display: "PocketSphinx", or the model the transcription server runs.'),
  })
  .register(componentRegistry, { id: 'RecognizerInfo' });
export type RecognizerInfo = z.infer<typeof recognizerInfoSchema>;

/** GET /api/widget/session: who the iframe is working for. */
export const widgetSessionInfoSchema = z
  .object({
    clinician: widgetClinicianSchema,
    partner: z.object({ id: z.string(), name: z.string() }),
    environment: z.enum(ENVIRONMENTS),
    allowedOrigins: z.array(z.string()).describe('The only origins the widget exchanges messages with.'),
    emrSessionId: z.string().nullable(),
    expiresAt: z.string().describe('When the widget token expires (ISO 8601).'),
    recognizer: recognizerInfoSchema.describe('The speech recognizer that transcribes what the widget records.'),
  })
  .register(componentRegistry, { id: 'WidgetSessionInfo' });
export type WidgetSessionInfo = z.infer<typeof widgetSessionInfoSchema>;

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
export type WidgetEncounter = z.infer<typeof widgetEncounterSchema>;

/** PUT /api/widget/encounters/{sessionId}/patient-context: the validated PATIENT_CONTEXT fields. */
export const setPatientContextRequestSchema = patientContextMessageSchema
  .omit({ type: true })
  .register(componentRegistry, { id: 'SetPatientContextRequest' });
export type SetPatientContextRequest = z.input<typeof setPatientContextRequestSchema>;

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
export type PatientContextResult = z.infer<typeof patientContextResultSchema>;

/** POST /api/widget/realtime-tokens: a svc_rt_ token for the encounter's audio. */
export const widgetRealtimeTokenRequestSchema = z
  .strictObject({
    sessionId: z.string().min(1).describe('The encounter the audio belongs to.'),
    expiresInSeconds: z.int().min(60).max(3600).optional(),
  })
  .register(componentRegistry, { id: 'WidgetRealtimeTokenRequest' });
export type WidgetRealtimeTokenRequest = z.infer<typeof widgetRealtimeTokenRequestSchema>;
