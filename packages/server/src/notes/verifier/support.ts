/**
 * A sentence's support class:
 * - `unsupported`: it cites nothing, contradicts its evidence (see checks.ts), or shares no
 *   content word with it;
 * - `chart`: it rests on chart context alone;
 * - `stated`: every content word of it is in its evidence (its facts, its turns, its context);
 * - `inferred`: it passes the checks and shares words with its evidence, but words a clinician
 *   chose are not in it (an assessment naming the diagnosis in chart words).
 */
import type { ReviewFlagCode, SupportClass } from '@chartwright/protocol';

import { stem, words } from '../engines/extractive/text.js';
import type { NoteSentence } from '../generator.js';
import { checkSentence } from './checks.js';
import { evidenceOf, type FactIndex, type SentenceEvidence } from './evidence.js';
import { contentStems } from './reading.js';

export interface SentenceVerdict {
  support: SupportClass;
  /** Why the sentence is unsupported; empty otherwise. */
  codes: ReviewFlagCode[];
  /** The facts a flag concerns (per code). */
  flagFacts: ReadonlyMap<ReviewFlagCode, string[]>;
  /** The facts the sentence states: those it cites, or those of its turns it mentions. */
  facts: string[];
}

const unsupported = (code: ReviewFlagCode, facts: string[]): Omit<SentenceVerdict, 'facts'> => ({
  support: 'unsupported',
  codes: [code],
  flagFacts: new Map([[code, facts]]),
});

const cites = (sentence: NoteSentence) =>
  (sentence.facts?.length ?? 0) + sentence.evidence.turns.length + sentence.evidence.context.length > 0;

/** `stated`, `inferred` or `unsupported` by how many of its content words the evidence holds. */
function byWords(text: string, evidence: SentenceEvidence): Omit<SentenceVerdict, 'facts'> {
  // A leading label ("Respiratory:", "Chief complaint:") files the sentence; it claims nothing.
  const claimed = contentStems(text.replace(/^[A-Z][A-Za-z ,/]{0,60}:\s/, ''));
  const held = new Set(evidence.sourceText.flatMap((source) => words(source).map(stem)));
  const found = claimed.filter((word) => held.has(word)).length;
  if (found === claimed.length) return { support: 'stated', codes: [], flagFacts: new Map() };
  if (found > 0) return { support: 'inferred', codes: [], flagFacts: new Map() };
  return unsupported(
    'unsupported_sentence',
    evidence.facts.map((reading) => reading.fact.id),
  );
}

function verdictOf(sentence: NoteSentence, evidence: SentenceEvidence): Omit<SentenceVerdict, 'facts'> {
  if (!cites(sentence)) return unsupported('uncited_sentence', []);
  const failures = checkSentence(sentence.text, evidence);
  if (failures.length > 0) {
    return {
      support: 'unsupported',
      codes: failures.map((failure) => failure.code),
      flagFacts: new Map(failures.map((failure) => [failure.code, failure.facts])),
    };
  }
  if (!evidence.fromConversation) return { support: 'chart', codes: [], flagFacts: new Map() };
  return byWords(sentence.text, evidence);
}

export function judgeSentence(index: FactIndex, sentence: NoteSentence): SentenceVerdict {
  const evidence = evidenceOf(index, sentence);
  return { ...verdictOf(sentence, evidence), facts: evidence.facts.map((reading) => reading.fact.id) };
}
