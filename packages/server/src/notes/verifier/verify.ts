/**
 * Checks every sentence of a note against the visit's facts, conversation and context: gives each
 * its support class and the facts it states, flags what fails, and — for engines whose sentences
 * are not copied from the visit (LLMs) — removes the sentences that contradict their evidence.
 */
import type { NoteVerification, ReviewFlag, ReviewFlagCode } from '@chartwright/protocol';

import type { GeneratedSection, NoteSentence } from '../generator.js';
import { indexFacts, type FactIndex, type VerifierInput } from './evidence.js';
import { lowConfidenceFlags, sentenceFlag, type FlagPlace } from './flags.js';
import { judgeSentence, type SentenceVerdict } from './support.js';

export interface VerifyOptions {
  /** Remove a sentence that contradicts its evidence (polarity, subject, side, number) instead of flagging it. */
  dropContradictions: boolean;
}

export interface VerifiedNote {
  sections: GeneratedSection[];
  flags: ReviewFlag[];
  verification: NoteVerification;
}

/** What contradicts the evidence, rather than merely lacking it. */
const CONTRADICTIONS: ReadonlySet<ReviewFlagCode> = new Set([
  'polarity_mismatch',
  'subject_mismatch',
  'laterality_mismatch',
  'number_mismatch',
]);

const flagsOf = (verdict: SentenceVerdict, place: FlagPlace, removed: boolean) =>
  verdict.codes.map((code) => sentenceFlag(code, place, verdict.flagFacts.get(code) ?? [], { removed }));

interface Tally {
  flags: ReviewFlag[];
  verification: NoteVerification;
  /** Where each fact is first stated. */
  placeOf: Map<string, FlagPlace>;
}

function verifySection(index: FactIndex, section: GeneratedSection, options: VerifyOptions, tally: Tally) {
  const kept: NoteSentence[] = [];
  for (const sentence of section.sentences) {
    const verdict = judgeSentence(index, sentence);
    tally.verification.sentences += 1;
    if (options.dropContradictions && verdict.codes.some((code) => CONTRADICTIONS.has(code))) {
      tally.verification.dropped += 1;
      tally.flags.push(...flagsOf(verdict, { section: section.key, sentence: null }, true));
      continue;
    }
    const place = { section: section.key, sentence: kept.length };
    if (verdict.codes.length > 0) tally.verification.flagged += 1;
    tally.flags.push(...flagsOf(verdict, place, false));
    for (const id of verdict.facts) if (!tally.placeOf.has(id)) tally.placeOf.set(id, place);
    kept.push({ ...sentence, support: verdict.support, facts: verdict.facts });
  }
  return { ...section, sentences: kept };
}

export function verifyNote(
  sections: readonly GeneratedSection[],
  input: VerifierInput,
  options: VerifyOptions,
): VerifiedNote {
  const index = indexFacts(input);
  const tally: Tally = { flags: [], verification: { sentences: 0, dropped: 0, flagged: 0 }, placeOf: new Map() };
  const verified = sections.map((section) => verifySection(index, section, options, tally));
  const lowConfidence = lowConfidenceFlags(input.facts, input.conversation, (id) => tally.placeOf.get(id));
  return { sections: verified, flags: [...lowConfidence, ...tally.flags], verification: tally.verification };
}
