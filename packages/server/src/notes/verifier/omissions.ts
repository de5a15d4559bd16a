/**
 * The omission report: the clinically relevant facts of the visit the note does not state, so the
 * clinician sees what may be missing. Relevant: the patient's present problems, medication
 * changes, abnormal exam findings, results, plan items and present allergies, as said in the visit
 * (the chart already holds its own). A fact is stated when a sentence cites it or when at least
 * half of the content words that name it are in the note; a fact with none is not reported.
 */
import type { Fact, Omission } from '@chartwright/protocol';

import { stem, words } from '../engines/extractive/text.js';
import type { GeneratedSection } from '../generator.js';
import { contentStems } from './reading.js';

/** Whether a fact is one a note should not leave out. */
export function clinicallyRelevant(fact: Fact): boolean {
  if (fact.subject.type !== 'patient' || fact.source.turns.length === 0) return false;
  switch (fact.kind) {
    case 'problem':
      return fact.polarity === 'present';
    case 'medication':
      return fact.change !== undefined;
    case 'exam':
      return !fact.normal && fact.polarity === 'present';
    case 'result':
    case 'plan':
      return true;
    case 'allergy':
      return fact.polarity === 'present' && fact.substance !== null;
    case 'history':
    case 'ros':
    case 'vital':
    case 'assessment':
    case 'narrative':
      return false;
  }
}

/** The words a fact is named by, as stems. */
function namingStems(fact: Fact): string[] {
  if (fact.kind === 'problem' || fact.kind === 'medication') return contentStems(fact.name);
  if (fact.kind === 'allergy') return contentStems(fact.substance ?? fact.text);
  return contentStems(fact.text);
}

export function omissionsOf(facts: readonly Fact[], sections: readonly GeneratedSection[]): Omission[] {
  const sentences = sections.flatMap((section) => section.sentences);
  const cited = new Set(sentences.flatMap((sentence) => sentence.facts ?? []));
  const noteWords = new Set(sentences.flatMap((sentence) => words(sentence.text).map(stem)));
  // A fact with no content word to look for ("We will go ahead.") says nothing a note could miss.
  const missing = (fact: Fact) => {
    if (cited.has(fact.id)) return false;
    const naming = namingStems(fact);
    return naming.length > 0 && naming.filter((word) => noteWords.has(word)).length * 2 < naming.length;
  };
  return facts
    .filter((fact) => clinicallyRelevant(fact) && missing(fact))
    .map((fact) => ({ fact: fact.id, kind: fact.kind, text: fact.text }));
}
