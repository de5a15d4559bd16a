/**
 * Every note goes through the verifier, whatever engine wrote it: `verified(producer)` wraps a
 * NoteProducer so its note comes back with each sentence's support class and facts, review flags,
 * the omission report, warnings and what the verifier did (`verification`).
 */
import { extractFacts } from '../facts/sheet.js';
import type { EngineInfo, GeneratedNote, GenerationInput, NoteProducer } from '../generator.js';
import { omissionsOf } from './omissions.js';
import { verifyNote, type VerifyOptions } from './verify.js';
import { noteWarnings } from './warnings.js';

export interface VerifiedProducerOptions {
  /**
   * Whether the engine that wrote a note has its contradicting sentences removed (an LLM's) rather
   * than flagged (an offline engine's, whose sentences restate the visit). Default: never.
   */
  dropContradictions?: (engine: EngineInfo) => boolean;
}

/** The note checked against its facts (the engine's own sheet when it wrote from one, else extracted). */
export function verifyGenerated(note: GeneratedNote, input: GenerationInput, options: VerifyOptions): GeneratedNote {
  const facts = note.facts ?? extractFacts(input).facts;
  const { conversation, context } = input;
  const checked = verifyNote(note.sections, { facts, conversation, context }, options);
  return {
    ...note,
    sections: checked.sections,
    facts,
    flags: [...(note.flags ?? []), ...checked.flags],
    omissions: omissionsOf(facts, checked.sections),
    warnings: noteWarnings(conversation, facts),
    verification: checked.verification,
  };
}

export function verified(producer: NoteProducer, options: VerifiedProducerOptions = {}): NoteProducer {
  return async (input, callOptions) => {
    const outcome = await producer(input, callOptions);
    const dropContradictions = options.dropContradictions?.(outcome.engine) ?? false;
    return { ...outcome, note: verifyGenerated(outcome.note, input, { dropContradictions }) };
  };
}
