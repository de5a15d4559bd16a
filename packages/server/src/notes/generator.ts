import type {
  Fact,
  NoteStyle,
  NoteVerification,
  NoteWarning,
  Omission,
  ReviewFlag,
  SupportClass,
  Template,
  WidgetMedicalContext,
  WidgetPatient,
} from '@chartwright/protocol';

import type { Conversation } from '../text/conversation.js';

/** The patient as far as the caller described them; every field may be missing. */
export interface NotePatient {
  name?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  dob?: string | undefined;
  gender?: WidgetPatient['gender'] | undefined;
}

/** What a note may draw on beside the conversation. */
export interface NoteContext {
  patient?: NotePatient;
  medical?: WidgetMedicalContext;
  /** Free text the caller added (SET_CONTEXT, `extra_context`). */
  extra?: string;
}

export interface GenerationInput {
  template: Template;
  conversation: Conversation;
  context: NoteContext;
  /** Default `detailed`. */
  style?: NoteStyle;
}

/** Where a note sentence comes from, so a clinician can check it. */
export interface Evidence {
  /** Indexes of the conversation turns that support the sentence. */
  turns: number[];
  /** Context fields that support it, as paths such as `medical.allergies[0]`. */
  context: string[];
}

export interface NoteSentence {
  text: string;
  evidence: Evidence;
  /** How the facts it cites support it (set by the verifier). */
  support?: SupportClass;
  /** The ids of the facts it states. */
  facts?: string[];
}

export interface GeneratedSection {
  /** The template section's key. */
  key: string;
  label: string;
  sentences: NoteSentence[];
}

export interface GeneratedNote {
  /** Every template section, in template order; a section with nothing to say has no sentences. */
  sections: GeneratedSection[];
  /** The visit's facts the note was written from (and checked against). */
  facts?: Fact[];
  /** What the clinician should check before signing; never part of the note text. */
  flags?: ReviewFlag[];
  /** Clinically relevant facts the note does not state. */
  omissions?: Omission[];
  /** Why the note may be poor: input not in English, no clinical content, mostly uncertain words. */
  warnings?: NoteWarning[];
  /** What the verifier did to the engine's draft; null when nothing was checked. */
  verification?: NoteVerification | null;
}

export interface EngineInfo {
  name: string;
  version: string;
}

/** Turns a conversation into a note for a template. Engines: extractive (offline default), openai. */
export interface NoteGenerator {
  readonly engine: EngineInfo;
  generate(input: GenerationInput, options?: { signal?: AbortSignal }): Promise<GeneratedNote>;
}

/** What a generation produced, and which engine actually wrote it. */
export interface GenerationOutcome {
  note: GeneratedNote;
  engine: EngineInfo;
  /** Set when the configured engine failed and a fallback engine wrote the note. */
  fallback: { engine: EngineInfo; reason: string } | null;
}

/** How the service turns input into a note: one engine, or an engine with a fallback. */
export type NoteProducer = (input: GenerationInput, options?: { signal?: AbortSignal }) => Promise<GenerationOutcome>;

/** A producer that runs one engine and never falls back. */
export function singleEngine(generator: NoteGenerator): NoteProducer {
  return async (input, options) => ({
    note: await generator.generate(input, options),
    engine: generator.engine,
    fallback: null,
  });
}
