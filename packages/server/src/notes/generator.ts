import type { Template, WidgetMedicalContext, WidgetPatient } from '@chartwright/protocol';

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
