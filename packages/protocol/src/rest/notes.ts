import { z } from 'zod';

import { WIDGET_GENDERS } from '../widget/patient.js';
import { normalizedEnum } from '../widget/fields.js';
import { widgetMedicalContextSchema } from '../widget/medical-context.js';
import { noteSectionsSchema } from '../widget/note-config.js';
import {
  SUPPORT_CLASSES,
  factSchema,
  noteVerificationSchema,
  noteWarningSchema,
  omissionSchema,
  reviewFlagSchema,
} from './facts.js';
import { noteSegmentsSchema, oneTranscript } from './note-segments.js';
import { componentRegistry } from './registry.js';

/** Longest conversation_text accepted: about four hours of continuous talk. */
export const MAX_CONVERSATION_CHARACTERS = 250_000;
/** `detailed`: a full note, as ACI-Bench's clinicians write them; `concise`: a terse problem-oriented one. */
export const NOTE_STYLES = ['detailed', 'concise'] as const;
export type NoteStyle = (typeof NOTE_STYLES)[number];

export const NOTE_STYLE_DEFAULT: NoteStyle = 'detailed';

/** What a note may return beside itself when asked (`include`). */
export const NOTE_INCLUDES = ['facts'] as const;
export type NoteInclude = (typeof NOTE_INCLUDES)[number];

const styleSchema = z
  .enum(NOTE_STYLES)
  .optional()
  .describe('`detailed` (default): a full note; `concise`: terse problem-oriented lines, a primary-care note.');

/** Longest callback_url or webhook endpoint url accepted. */
export const MAX_CALLBACK_URL_LENGTH = 2048;

/**
 * Where an asynchronous note is: `queued` until a worker takes it, `generating` while it is written,
 * then `ready` or `failed`. A synchronous note is `ready` when it is answered.
 */
export const NOTE_STATUSES = ['queued', 'generating', 'ready', 'failed'] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

/** `template_id` that asks for a template built from `sections`. */
export const CUSTOM_TEMPLATE_ID = 'custom';

const notePatientSchema = z
  .strictObject({
    name: z.string().trim().max(300).optional(),
    firstName: z.string().trim().max(150).optional(),
    lastName: z.string().trim().max(150).optional(),
    dob: z.string().max(32).optional().describe('YYYY-MM-DD recommended.'),
    gender: normalizedEnum(WIDGET_GENDERS).optional(),
  })
  .describe('Who the note is about; every field optional. Used to word the note, never required.');

export const createNoteRequestSchema = z
  .strictObject({
    template_id: z
      .string()
      .min(1)
      .describe(`A template id from GET /api/v1/templates, or "${CUSTOM_TEMPLATE_ID}" with \`sections\`.`),
    conversation_text: z
      .string()
      .refine((text) => text.trim() !== '', { error: 'must not be empty' })
      .optional()
      .describe(
        'The visit as text: `[doctor] … [patient] …` tags, `Doctor:`/`Patient:` prefixes, timestamps or plain prose. Required unless `segments` is sent.',
      ),
    segments: noteSegmentsSchema
      .optional()
      .describe('The visit as the realtime `final` segments, instead of `conversation_text`.'),
    sections: noteSectionsSchema
      .optional()
      .describe(`With template_id "${CUSTOM_TEMPLATE_ID}": the headings (key + label), as in the widget's noteConfig.`),
    patient: notePatientSchema.optional(),
    context: widgetMedicalContextSchema
      .optional()
      .describe('Allergies, medications, diagnoses, lab results, chief complaint, history, as in the widget.'),
    extra_context: z.string().max(20_000).optional().describe('Free text the note may draw on.'),
    style: styleSchema,
    include: z
      .array(z.enum(NOTE_INCLUDES))
      .max(NOTE_INCLUDES.length)
      .optional()
      .describe('`["facts"]` returns the visit’s facts (`facts`) beside the note.'),
    async: z
      .boolean()
      .optional()
      .describe(
        '`true`: answer 202 at once with the note `queued` and write it in the background; follow it with GET /api/v1/notes/{id} or a webhook.',
      ),
    callback_url: z
      .url({ protocol: /^https?$/, error: 'must be an https:// URL (http:// only to hosts the operator allows)' })
      .max(MAX_CALLBACK_URL_LENGTH)
      .optional()
      .describe(
        'With `async: true`: where the `note.ready` or `note.failed` event is POSTed, signed with the project environment’s callback secret (POST /api/v1/webhooks/callback-secret). https only.',
      ),
  })
  .superRefine(...oneTranscript('conversation_text', true))
  .superRefine((body, context) => {
    if (body.callback_url !== undefined && body.async !== true) {
      context.addIssue({ code: 'custom', path: ['callback_url'], message: 'is only allowed with async: true' });
    }
  })
  .register(componentRegistry, { id: 'CreateNoteRequest' });
export type CreateNoteRequest = z.input<typeof createNoteRequestSchema>;
export type CreateNoteParams = z.output<typeof createNoteRequestSchema>;

export const noteSentenceSchema = z
  .object({
    text: z.string(),
    evidence: z.object({
      turns: z.array(z.int()).describe('Indexes (from 0) of the conversation turns that support the sentence.'),
      context: z.array(z.string()).describe('Context fields that support it, e.g. `context.allergies[0]`.'),
    }),
    support: z
      .enum(SUPPORT_CLASSES)
      .optional()
      .describe(
        'How the cited facts support it: `stated`, `chart`, `inferred` or `unsupported`; absent when no verifier ran.',
      ),
    facts: z.array(z.string()).optional().describe('The ids of the facts it states (see `facts`, `include=facts`).'),
  })
  .register(componentRegistry, { id: 'NoteSentence' });

export const noteSectionResultSchema = z
  .object({
    key: z.string(),
    label: z.string(),
    text: z.string().describe('The section as one paragraph; empty when the conversation did not cover it.'),
    sentences: z.array(noteSentenceSchema),
  })
  .register(componentRegistry, { id: 'NoteSection' });

const engineSchema = z.object({ name: z.string(), version: z.string() });

/** What every note carries beside its text, on the REST API and the widget API alike. */
export const noteReviewShape = {
  style: z.enum(NOTE_STYLES).describe('The style it was written in.'),
  flags: z
    .array(reviewFlagSchema)
    .describe('What the clinician should check before signing (never part of the note text); [] when none.'),
  omissions: z
    .array(omissionSchema)
    .describe('Clinically relevant facts of the visit the note does not state; [] when none.'),
  warnings: z
    .array(noteWarningSchema)
    .describe('Why the note may be poor (not English, no clinical content, mostly uncertain words); [] when none.'),
  verification: noteVerificationSchema
    .nullable()
    .describe('What the verifier did to the engine’s draft; null when no verifier ran.'),
};

export const noteSchema = z
  .object({
    id: z.string(),
    object: z.literal('note'),
    status: z.literal('ready').describe('Always `ready` for a written note (see NoteProgress for the others).'),
    template_id: z.string(),
    template_version: z.int(),
    note: z.string().describe('The full note with upper-case section headings.'),
    sections: z.array(noteSectionResultSchema).describe('Every template section, in template order.'),
    engine: engineSchema.describe('The engine that wrote this note.'),
    fallback: z
      .object({ engine: engineSchema, reason: z.string() })
      .nullable()
      .describe('Set when the configured engine failed and the offline engine wrote the note instead.'),
    input_sha256: z.string().describe('Hash of the inputs, to reproduce the note and compare versions.'),
    created_at: z.string(),
    expires_at: z.string().describe('When the note is deleted (retention).'),
    ...noteReviewShape,
    facts: z
      .array(factSchema)
      .optional()
      .describe(
        'The visit’s facts the note was written from; only when asked (`include: ["facts"]`, `?include=facts`).',
      ),
  })
  .register(componentRegistry, { id: 'Note' });
export type Note = z.infer<typeof noteSchema>;

/** An asynchronous note that is not written (yet, or at all): what POST answers 202 with, and GET until it is ready. */
export const noteProgressSchema = z
  .object({
    id: z.string(),
    object: z.literal('note'),
    status: z
      .enum(['queued', 'generating', 'failed'])
      .describe('`queued`, then `generating`, then `ready` (a Note) or `failed`.'),
    template_id: z.string(),
    style: z.enum(NOTE_STYLES),
    callback_url: z.string().nullable().describe('Where its event is POSTed; null when none was given.'),
    created_at: z.string(),
    expires_at: z.string().describe('When the note is deleted (retention), whatever its status.'),
    error: z
      .object({
        code: z.string().describe('An error code of docs/errors.md, e.g. `note_generation_failed`.'),
        message: z.string(),
      })
      .nullable()
      .describe('Why it failed; null unless `failed`.'),
  })
  .register(componentRegistry, { id: 'NoteProgress' });
export type NoteProgress = z.infer<typeof noteProgressSchema>;

/** A note in whichever status it is: written (`ready`), or not (NoteProgress). */
export const noteOrProgressSchema = z
  .discriminatedUnion('status', [noteSchema, noteProgressSchema])
  .register(componentRegistry, { id: 'NoteOrProgress' });
export type NoteOrProgress = z.infer<typeof noteOrProgressSchema>;

/** GET /api/v1/notes/{id}: `?include=facts` (comma-separated, or the parameter repeated). */
export const retrieveNoteQuerySchema = z.strictObject({
  include: z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    )
    .pipe(z.array(z.enum(NOTE_INCLUDES)))
    .optional()
    .describe('`facts`: the visit’s facts beside the note. Values comma-separated or the parameter repeated.'),
});
export type RetrieveNoteQuery = z.output<typeof retrieveNoteQuerySchema>;

/** The body of a note streamed as Server-Sent Events (note-stream.ts says which events come when). */
export const noteStreamSchema = z
  .string()
  .describe(
    'Server-Sent Events: `event: status` (data `{"status": …}`) on each change of status, then for a written note `event: section` (data: one entry of the note\'s `sections`) per section in template order and `event: note` (data: the note as the JSON answer gives it); a failed note ends with `event: note` carrying its error. Lines starting with `:` are keep-alive comments.',
  );
