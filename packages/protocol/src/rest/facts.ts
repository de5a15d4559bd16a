import { z } from 'zod';

import { componentRegistry } from './registry.js';

/**
 * The clinical facts of a visit, each with its evidence: what a note is written from, and what a
 * verifier checks a note against. The offline engine extracts them from the conversation and the
 * chart context; an LLM engine is given them as its fact sheet.
 */

export const FACT_POLARITIES = ['present', 'absent', 'uncertain'] as const;
export type FactPolarity = (typeof FACT_POLARITIES)[number];

/** Who stated the fact in the visit; `other` is a companion (a parent, a partner, an interpreter). */
export const FACT_SPEAKERS = ['clinician', 'patient', 'other', 'unknown'] as const;
export type FactSpeaker = (typeof FACT_SPEAKERS)[number];

/** `low`: it rests on words the recognizer was unsure of (a negation, a number, a dose, a drug …). */
export const FACT_CERTAINTIES = ['high', 'low'] as const;
export type FactCertainty = (typeof FACT_CERTAINTIES)[number];

export const FACT_KINDS = [
  'problem',
  'medication',
  'allergy',
  'history',
  'ros',
  'vital',
  'exam',
  'result',
  'assessment',
  'plan',
  'narrative',
] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export const LATERALITIES = ['left', 'right', 'bilateral'] as const;
export const MEDICATION_CHANGES = ['started', 'stopped', 'continued', 'adjusted'] as const;
export const HISTORY_CATEGORIES = ['medical', 'surgical', 'family', 'social'] as const;
export const PLAN_CATEGORIES = ['medication', 'test', 'referral', 'procedure', 'follow_up', 'education'] as const;

const factSubjectSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('patient') }),
    z.object({
      type: z.literal('relative'),
      relation: z.string().describe('As said: mother, father, sister, grandmother …'),
    }),
    z.object({ type: z.literal('other'), who: z.string().optional() }),
  ])
  .describe('Whom the fact is about: a relative’s condition is family history, never the patient’s.');

const factSourceSchema = z
  .object({
    turns: z.array(z.int().min(0)).describe('Conversation turns (from 0) the fact rests on.'),
    context: z.array(z.string()).describe('Chart context paths it comes from, e.g. `context.allergies[0]`.'),
  })
  .describe('The evidence: turns of the conversation, or the chart context.');

const factBase = {
  id: z.string().describe('Stable within the note: `f1`, `f2` …; sentences cite facts by it.'),
  text: z.string().describe('The fact in chart words, e.g. "chest pain", "lisinopril 20 mg daily".'),
  polarity: z.enum(FACT_POLARITIES),
  subject: factSubjectSchema,
  speaker: z.enum(FACT_SPEAKERS),
  source: factSourceSchema,
  certainty: z.enum(FACT_CERTAINTIES),
};

const problemFactSchema = z.object({
  ...factBase,
  kind: z.literal('problem').describe('A symptom or problem; absent ones are the pertinent negatives.'),
  name: z.string(),
  onset: z.string().optional(),
  duration: z.string().optional(),
  severity: z.string().optional(),
  location: z.string().optional(),
  laterality: z.enum(LATERALITIES).optional(),
  timing: z.string().optional(),
  modifiers: z.array(z.string()).describe('What makes it better or worse, what goes with it …'),
});

const doseSchema = z.object({ value: z.number(), unit: z.string() });

const medicationFactSchema = z.object({
  ...factBase,
  kind: z.literal('medication'),
  name: z.string(),
  dose: doseSchema.optional(),
  route: z.string().optional(),
  frequency: z.string().optional(),
  status: z.enum(['active', 'stopped', 'unknown']),
  change: z.enum(MEDICATION_CHANGES).optional().describe('What the visit did with it.'),
});

const allergyFactSchema = z.object({
  ...factBase,
  kind: z.literal('allergy'),
  substance: z.string().nullable().describe('null with polarity absent: no known allergies.'),
  reaction: z.string().optional(),
});

const historyFactSchema = z.object({
  ...factBase,
  kind: z.literal('history'),
  category: z.enum(HISTORY_CATEGORIES).describe('`family` only for a relative’s own history.'),
  item: z.string(),
});

const rosFactSchema = z.object({
  ...factBase,
  kind: z.literal('ros'),
  system: z.string().describe('Constitutional, Cardiovascular, Respiratory …'),
  finding: z.string(),
});

const vitalFactSchema = z.object({
  ...factBase,
  kind: z.literal('vital'),
  name: z.string(),
  value: z.string().describe('As charted: "120/80", "98.6", "72".'),
  unit: z.string().optional(),
});

const examFactSchema = z.object({
  ...factBase,
  kind: z.literal('exam'),
  system: z.string(),
  finding: z.string(),
  normal: z.boolean(),
});

const resultFactSchema = z.object({
  ...factBase,
  kind: z.literal('result'),
  test: z.string(),
  value: z.string().optional(),
  unit: z.string().optional(),
  interpretation: z.string().optional(),
  date: z.string().optional(),
});

const assessmentFactSchema = z.object({
  ...factBase,
  kind: z.literal('assessment'),
  problem: z.string(),
  statement: z.string().describe('The clinician’s own impression, in chart words.'),
});

const planFactSchema = z.object({
  ...factBase,
  kind: z.literal('plan'),
  problem: z.string().nullable().describe('The problem the item addresses, when the visit says.'),
  category: z.enum(PLAN_CATEGORIES),
  action: z.string(),
});

const narrativeFactSchema = z.object({
  ...factBase,
  kind: z.literal('narrative').describe('A reported detail of the history no structured field holds.'),
  topic: z.enum(['present_illness', 'social', 'functional', 'other']),
  statement: z.string().describe('In clinical register, third person.'),
});

export const factSchema = z
  .discriminatedUnion('kind', [
    problemFactSchema,
    medicationFactSchema,
    allergyFactSchema,
    historyFactSchema,
    rosFactSchema,
    vitalFactSchema,
    examFactSchema,
    resultFactSchema,
    assessmentFactSchema,
    planFactSchema,
    narrativeFactSchema,
  ])
  .register(componentRegistry, { id: 'Fact' });
export type Fact = z.infer<typeof factSchema>;
export type FactOf<K extends FactKind> = Extract<Fact, { kind: K }>;

/** How a note sentence is supported by the facts it cites. */
export const SUPPORT_CLASSES = ['stated', 'chart', 'inferred', 'unsupported'] as const;
export type SupportClass = (typeof SUPPORT_CLASSES)[number];

export const REVIEW_FLAG_CODES = [
  'low_confidence_word',
  'unsupported_sentence',
  'polarity_mismatch',
  'subject_mismatch',
  'laterality_mismatch',
  'number_mismatch',
  'uncited_sentence',
] as const;
export type ReviewFlagCode = (typeof REVIEW_FLAG_CODES)[number];

export const reviewFlagSchema = z
  .object({
    code: z.enum(REVIEW_FLAG_CODES),
    message: z.string().describe('For the clinician: what to check, without repeating patient data.'),
    section: z.string().nullable().describe('The section key the flagged sentence is under, if any.'),
    sentence: z.int().min(0).nullable().describe('The sentence’s index in that section, if any.'),
    facts: z.array(z.string()).describe('The facts concerned.'),
    words: z
      .array(z.object({ word: z.string(), confidence: z.number().min(0).max(1), turn: z.int().min(0) }))
      .describe('The uncertain words, for `low_confidence_word`.'),
  })
  .register(componentRegistry, { id: 'ReviewFlag' });
export type ReviewFlag = z.infer<typeof reviewFlagSchema>;

export const omissionSchema = z
  .object({
    fact: z.string().describe('The id of the fact the note does not state.'),
    kind: z.enum(FACT_KINDS),
    text: z.string(),
  })
  .register(componentRegistry, { id: 'Omission' });
export type Omission = z.infer<typeof omissionSchema>;

export const NOTE_WARNING_CODES = ['not_english', 'no_clinical_content', 'low_confidence_transcript'] as const;
export type NoteWarningCode = (typeof NOTE_WARNING_CODES)[number];

export const noteWarningSchema = z
  .object({ code: z.enum(NOTE_WARNING_CODES), message: z.string() })
  .register(componentRegistry, { id: 'NoteWarning' });
export type NoteWarning = z.infer<typeof noteWarningSchema>;

export const noteVerificationSchema = z
  .object({
    sentences: z.int().min(0).describe('Sentences the verifier checked.'),
    dropped: z.int().min(0).describe('Sentences removed because they contradicted or lacked evidence.'),
    flagged: z.int().min(0).describe('Sentences kept with a review flag.'),
  })
  .describe('What the verifier did to the engine’s draft.')
  .register(componentRegistry, { id: 'NoteVerification' });
export type NoteVerification = z.infer<typeof noteVerificationSchema>;
