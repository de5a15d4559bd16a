import { z } from 'zod';

import { TRANSCRIPT_SPEAKERS } from '../realtime/messages.js';
import { normalizedEnum } from '../widget/fields.js';
import { WIDGET_DOCUMENT_TYPES } from '../widget/widget-messages.js';
import { noteSegmentsSchema, oneTranscript } from './note-segments.js';
import { NOTE_STYLES, noteReviewShape } from './notes.js';
import { componentRegistry } from './registry.js';
import { realtimeSessionSchema } from './realtime-sessions.js';
import { patientContextResultSchema, setPatientContextRequestSchema } from './widget-api.js';

/*
 * What the widget does with an encounter once it is open: consent, transcript, notes, documents and
 * their PDFs, and the whole state for a relaunch. Responses carry exactly what PUSH_NOTE and
 * PUSH_DOCUMENT need, so the widget never reshapes a note or a document before sending it.
 */

/** Lengths the widget encounter API accepts. */
export const WIDGET_ENCOUNTER_LIMITS = Object.freeze({
  consentNoteMaxLength: 1000,
  extraContextMaxLength: 20_000,
  /** One note section as edited. */
  sectionTextMaxLength: 20_000,
  documentTitleMaxLength: 200,
  documentContentMaxLength: 100_000,
  /** One field of a form. */
  fieldValueMaxLength: 5000,
  recipientMaxLength: 300,
  clinicianNameMaxLength: 200,
  /** A transcript segment as the clinician corrects it: an utterance, a few seconds of speech. */
  segmentTextMaxLength: 5000,
  speakerLabelMaxLength: 64,
} as const);

const revisionSchema = z.int().min(1).describe('Starts at 1; every saved edit adds 1.');

const expectedRevisionSchema = z
  .int()
  .min(1)
  .optional()
  .describe('The revision the edits were made on. When it is no longer current, 409 revision_conflict.');

export const CONSENT_METHODS = Object.freeze(['verbal', 'written', 'electronic'] as const);
export type ConsentMethod = (typeof CONSENT_METHODS)[number];

/** POST /api/widget/encounters/{sessionId}/consent. */
export const recordConsentRequestSchema = z
  .strictObject({
    method: normalizedEnum(CONSENT_METHODS).describe('How the patient agreed to being recorded.'),
    note: z
      .string()
      .trim()
      .max(WIDGET_ENCOUNTER_LIMITS.consentNoteMaxLength)
      .optional()
      .describe('Free text, e.g. who else was present.'),
  })
  .register(componentRegistry, { id: 'RecordConsentRequest' });
export type RecordConsentRequest = z.input<typeof recordConsentRequestSchema>;
export type RecordConsentParams = z.output<typeof recordConsentRequestSchema>;

export const widgetConsentSchema = z
  .object({
    method: z.enum(CONSENT_METHODS),
    note: z.string().nullable(),
    clinicianId: z.string().describe('The clinician (from the widget token) who recorded it.'),
    recordedAt: z.string().describe('ISO 8601.'),
  })
  .register(componentRegistry, { id: 'WidgetConsent' });
export type WidgetConsent = z.infer<typeof widgetConsentSchema>;

/** GET /api/widget/encounters/{sessionId}/transcript. */
export const widgetTranscriptSchema = z
  .object({
    sessionId: z.string(),
    realtimeSessions: z
      .array(realtimeSessionSchema)
      .describe('Every realtime session of the encounter, oldest first, each with its segments in id order.'),
    text: z
      .string()
      .describe(
        'The whole transcript: `Clinician: …` / `Patient: …` lines when speakers are known, plain text otherwise; sessions separated by a blank line. Notes are written from it.',
      ),
  })
  .register(componentRegistry, { id: 'WidgetTranscript' });
export type WidgetTranscript = z.infer<typeof widgetTranscriptSchema>;

/**
 * PUT /api/widget/encounters/{sessionId}/realtime-sessions/{realtimeSessionId}/segments/{segmentId}:
 * the clinician's correction of a segment, stored as its next revision; the segment as recognised
 * stays.
 */
export const correctTranscriptSegmentRequestSchema = z
  .strictObject({
    text: z
      .string()
      .trim()
      .min(1)
      .max(WIDGET_ENCOUNTER_LIMITS.segmentTextMaxLength)
      .optional()
      .describe('What was said, as the clinician corrects it; notes are written from it.'),
    speaker: z
      .enum(TRANSCRIPT_SPEAKERS)
      .optional()
      .describe('Who said it; for this segment it comes before the role swaps of its speaker label.'),
  })
  .superRefine((request, context) => {
    if (request.text === undefined && request.speaker === undefined) {
      context.addIssue({ code: 'custom', path: [], message: 'must change at least one of text, speaker' });
    }
  })
  .register(componentRegistry, { id: 'CorrectTranscriptSegmentRequest' });
export type CorrectTranscriptSegmentRequest = z.input<typeof correctTranscriptSegmentRequestSchema>;
export type CorrectTranscriptSegmentParams = z.output<typeof correctTranscriptSegmentRequestSchema>;

/**
 * POST /api/widget/encounters/{sessionId}/realtime-sessions/{realtimeSessionId}/speaker-swaps: the
 * speaker label's role is swapped with the other one (clinician ↔ patient) across the whole realtime
 * session, its later finals included.
 */
export const swapSpeakerRolesRequestSchema = z
  .strictObject({
    speakerLabel: z
      .string()
      .trim()
      .min(1)
      .max(WIDGET_ENCOUNTER_LIMITS.speakerLabelMaxLength)
      .describe(
        'The label (`S1`…) whose role changes: a clinician becomes the patient and the speakers that were the patient become the clinician, or the other way round.',
      ),
  })
  .register(componentRegistry, { id: 'SwapSpeakerRolesRequest' });
export type SwapSpeakerRolesRequest = z.input<typeof swapSpeakerRolesRequestSchema>;
export type SwapSpeakerRolesParams = z.output<typeof swapSpeakerRolesRequestSchema>;

/** POST /api/widget/encounters/{sessionId}/notes. The template is the encounter's: it cannot be chosen here. */
export const generateWidgetNoteRequestSchema = z
  .strictObject({
    conversationText: z
      .string()
      .refine((text) => text.trim() !== '', { error: 'must not be empty' })
      .optional()
      .describe('A typed visit to write the note from instead of the encounter’s recorded transcript.'),
    segments: noteSegmentsSchema
      .optional()
      .describe('The visit as realtime `final` segments, instead of the recorded transcript or conversationText.'),
    extraContext: z
      .string()
      .max(WIDGET_ENCOUNTER_LIMITS.extraContextMaxLength)
      .optional()
      .describe('The SET_CONTEXT free text the note may draw on.'),
    style: z
      .enum(NOTE_STYLES)
      .optional()
      .describe('`detailed` (default): a full note; `concise`: terse problem-oriented lines.'),
  })
  .superRefine(...oneTranscript('conversationText', false))
  .register(componentRegistry, { id: 'GenerateWidgetNoteRequest' });
export type GenerateWidgetNoteRequest = z.input<typeof generateWidgetNoteRequestSchema>;
export type GenerateWidgetNoteParams = z.output<typeof generateWidgetNoteRequestSchema>;

const engineSchema = z.object({ name: z.string(), version: z.string() });

export const widgetNoteSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    revision: revisionSchema,
    templateId: z.string(),
    templateVersion: z.int(),
    headings: z
      .array(z.object({ key: z.string(), label: z.string() }))
      .describe('The sections in note order: the noteConfig key (as in `sections`) and the heading.'),
    sections: z
      .record(z.string(), z.string())
      .describe('PUSH_NOTE.sections: every noteConfig key (SOAP keys without one) → its text; "" when empty.'),
    note: z.string().describe('PUSH_NOTE.note: sections with content under upper-case headings.'),
    transcript: z.string().describe('PUSH_NOTE.transcript: the conversation the note was written from.'),
    source: z.enum(['transcript', 'conversation_text']).describe('Where that conversation came from.'),
    engine: engineSchema.describe('The engine that wrote the first revision.'),
    fallback: z.object({ engine: engineSchema, reason: z.string() }).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    expiresAt: z.string().describe('When the retention sweep deletes it (NOTES_RETENTION_DAYS after creation).'),
    ...noteReviewShape,
  })
  .register(componentRegistry, { id: 'WidgetNote' });
export type WidgetNote = z.infer<typeof widgetNoteSchema>;

export const widgetNoteListSchema = z
  .object({ notes: z.array(widgetNoteSchema).describe('Latest first.') })
  .register(componentRegistry, { id: 'WidgetNoteList' });
export type WidgetNoteList = z.infer<typeof widgetNoteListSchema>;

/** PUT /api/widget/encounters/{sessionId}/notes/{noteId}: edited section texts. */
export const updateWidgetNoteRequestSchema = z
  .strictObject({
    sections: z
      .record(z.string(), z.string().max(WIDGET_ENCOUNTER_LIMITS.sectionTextMaxLength))
      .refine((sections) => Object.keys(sections).length > 0, { error: 'must name at least one section' })
      .describe('Section key (as in the note’s `sections`) → new text; sections left out keep theirs.'),
    revision: expectedRevisionSchema,
  })
  .register(componentRegistry, { id: 'UpdateWidgetNoteRequest' });
export type UpdateWidgetNoteRequest = z.input<typeof updateWidgetNoteRequestSchema>;
export type UpdateWidgetNoteParams = z.output<typeof updateWidgetNoteRequestSchema>;

/** What a document is. PUSH_DOCUMENT's `pdf` is a delivery (`format`), not a kind of content. */
export const WIDGET_DOCUMENT_KINDS = Object.freeze(['referral', 'letter', 'form'] as const);
export type WidgetDocumentKind = (typeof WIDGET_DOCUMENT_KINDS)[number];
export const WIDGET_DOCUMENT_FORMATS = Object.freeze(['text', 'pdf'] as const);
export type WidgetDocumentFormat = (typeof WIDGET_DOCUMENT_FORMATS)[number];

/**
 * POST /api/widget/encounters/{sessionId}/documents. An encounter has one document of each kind:
 * asking again for a kind it has writes a new revision of that document (the earlier ones, and so
 * the clinician's edits, are kept).
 */
export const createWidgetDocumentRequestSchema = z
  .strictObject({
    documentType: z
      .enum(WIDGET_DOCUMENT_TYPES)
      .describe('`referral` letter, patient `letter`, `form`; `pdf` is a patient letter with format `pdf`.'),
    format: z
      .enum(WIDGET_DOCUMENT_FORMATS)
      .optional()
      .describe('How the widget sends it: `text` (default) or `pdf` (PUSH_DOCUMENT documentType `pdf` with pdfUrl).'),
    noteId: z.string().min(1).optional().describe('The note to draw on; default the encounter’s latest.'),
    recipient: z
      .string()
      .trim()
      .min(1)
      .max(WIDGET_ENCOUNTER_LIMITS.recipientMaxLength)
      .optional()
      .describe(
        'Who a referral is addressed to, e.g. "Dr. Lee, Cardiology"; default, when regenerating, the one it had.',
      ),
    clinicianName: z
      .string()
      .trim()
      .min(1)
      .max(WIDGET_ENCOUNTER_LIMITS.clinicianNameMaxLength)
      .optional()
      .describe('How the clinician signs; default the display name of their profile, else their e-mail address.'),
  })
  .superRefine((request, context) => {
    if (request.documentType === 'pdf' && request.format === 'text') {
      context.addIssue({
        code: 'custom',
        path: ['format'],
        message: 'must be pdf (or left out) with documentType pdf',
      });
    }
  })
  .register(componentRegistry, { id: 'CreateWidgetDocumentRequest' });
export type CreateWidgetDocumentRequest = z.input<typeof createWidgetDocumentRequestSchema>;
export type CreateWidgetDocumentParams = z.output<typeof createWidgetDocumentRequestSchema>;

export const widgetDocumentFieldSchema = z.object({ key: z.string(), label: z.string(), value: z.string() });

/** Who wrote a revision: the service (`generated`, first or regenerated) or the clinician (`edited`). */
export const WIDGET_DOCUMENT_REVISION_ORIGINS = Object.freeze(['generated', 'edited'] as const);
export type WidgetDocumentRevisionOrigin = (typeof WIDGET_DOCUMENT_REVISION_ORIGINS)[number];

export const widgetDocumentEditSchema = z
  .object({
    revision: z.int().min(1),
    title: z.string(),
    content: z.string(),
    fields: z.array(widgetDocumentFieldSchema).nullable().describe('A form’s fields at that revision.'),
    updatedAt: z.string(),
  })
  .describe('A revision the clinician edited.')
  .register(componentRegistry, { id: 'WidgetDocumentEdit' });
export type WidgetDocumentEdit = z.infer<typeof widgetDocumentEditSchema>;

export const widgetDocumentSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    documentType: z.enum(WIDGET_DOCUMENT_KINDS),
    format: z.enum(WIDGET_DOCUMENT_FORMATS),
    pushDocumentType: z
      .enum(WIDGET_DOCUMENT_TYPES)
      .describe('PUSH_DOCUMENT.documentType: `pdf` for format pdf, else the documentType.'),
    title: z.string().describe('PUSH_DOCUMENT.title.'),
    content: z.string().describe('PUSH_DOCUMENT.content: the full text (a form as `Label: value` lines).'),
    fields: z
      .array(widgetDocumentFieldSchema)
      .nullable()
      .describe('A form’s labelled fields, in order; null otherwise.'),
    noteId: z.string().nullable().describe('The note it was drawn from, while that note is kept.'),
    recipient: z.string().nullable().describe('Whom a referral is addressed to, as the clinician typed it.'),
    revision: revisionSchema,
    origin: z.enum(WIDGET_DOCUMENT_REVISION_ORIGINS).describe('Who wrote the current revision.'),
    previousEdit: widgetDocumentEditSchema
      .nullable()
      .describe(
        'When the current revision was regenerated over the clinician’s edits: their last edited revision, kept so it can be restored (PUT it back). Null otherwise.',
      ),
    createdAt: z.string(),
    updatedAt: z.string(),
    expiresAt: z.string().describe('When the retention sweep deletes it (NOTES_RETENTION_DAYS after creation).'),
  })
  .register(componentRegistry, { id: 'WidgetDocument' });
export type WidgetDocument = z.infer<typeof widgetDocumentSchema>;

export const widgetDocumentListSchema = z
  .object({ documents: z.array(widgetDocumentSchema).describe('Latest first.') })
  .register(componentRegistry, { id: 'WidgetDocumentList' });
export type WidgetDocumentList = z.infer<typeof widgetDocumentListSchema>;

/** PUT /api/widget/encounters/{sessionId}/documents/{documentId}. */
export const updateWidgetDocumentRequestSchema = z
  .strictObject({
    title: z.string().trim().min(1).max(WIDGET_ENCOUNTER_LIMITS.documentTitleMaxLength).optional(),
    content: z
      .string()
      .max(WIDGET_ENCOUNTER_LIMITS.documentContentMaxLength)
      .optional()
      .describe('The edited text of a referral or letter.'),
    fields: z
      .record(z.string(), z.string().max(WIDGET_ENCOUNTER_LIMITS.fieldValueMaxLength))
      .optional()
      .describe('A form’s field key → new value; its content is rewritten from the fields.'),
    format: z.enum(WIDGET_DOCUMENT_FORMATS).optional(),
    revision: expectedRevisionSchema,
  })
  .superRefine((request, context) => {
    const changes = [request.title, request.content, request.fields, request.format];
    if (changes.every((change) => change === undefined)) {
      context.addIssue({
        code: 'custom',
        path: [],
        message: 'must change at least one of title, content, fields, format',
      });
    }
    if (request.content !== undefined && request.fields !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['content'],
        message: 'cannot be sent with fields: a form’s content is written from its fields',
      });
    }
  })
  .register(componentRegistry, { id: 'UpdateWidgetDocumentRequest' });
export type UpdateWidgetDocumentRequest = z.input<typeof updateWidgetDocumentRequestSchema>;
export type UpdateWidgetDocumentParams = z.output<typeof updateWidgetDocumentRequestSchema>;

/** POST /api/widget/encounters/{sessionId}/documents/{documentId}/pdf. */
export const widgetDocumentPdfSchema = z
  .object({
    documentId: z.string(),
    revision: z.int().describe('The revision rendered: the link keeps serving it after later edits.'),
    pdfUrl: z
      .string()
      .describe('PUSH_DOCUMENT.pdfUrl: downloads the PDF without other credentials until expiresAt. Holds no PHI.'),
    expiresAt: z.string(),
    filename: z.string(),
  })
  .register(componentRegistry, { id: 'WidgetDocumentPdf' });
export type WidgetDocumentPdf = z.infer<typeof widgetDocumentPdfSchema>;

/** GET /api/widget/encounters/{sessionId}: everything a relaunched widget restores. */
export const widgetEncounterStateSchema = z
  .object({
    sessionId: z.string(),
    emrSessionId: z.string().nullable(),
    patientId: z.string().nullable(),
    patientContext: setPatientContextRequestSchema
      .nullable()
      .describe('The PATIENT_CONTEXT fields as stored (validated and normalized); null until set.'),
    template: patientContextResultSchema.shape.template,
    sectionKeys: patientContextResultSchema.shape.sectionKeys,
    consent: widgetConsentSchema.nullable(),
    transcript: widgetTranscriptSchema,
    resumableRealtimeSessionId: z
      .string()
      .nullable()
      .describe(
        'The latest realtime session a `start` with `resume` can continue (with the resume token the widget kept).',
      ),
    notes: z.array(widgetNoteSchema).describe('Latest first.'),
    documents: z.array(widgetDocumentSchema).describe('Latest first.'),
    createdAt: z.string(),
  })
  .register(componentRegistry, { id: 'WidgetEncounterState' });
export type WidgetEncounterState = z.infer<typeof widgetEncounterStateSchema>;

/** The PATIENT_CONTEXT fields as the server stores them: validated and normalized. */
export type StoredPatientContext = z.output<typeof setPatientContextRequestSchema>;
