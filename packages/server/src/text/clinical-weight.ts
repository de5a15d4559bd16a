/**
 * Words that change what the chart says when misheard — negations (no/now, not), numbers, doses
 * and units, drug names, sides, systolic/diastolic — and the confidence under which such a word is
 * doubtful. One judgement serves the realtime finals (a word to review, `review`) and the notes
 * engine (a fact of low certainty, notes/facts/certainty.ts), so the transcript a clinician checks
 * and the note's review flags point at the same words.
 */
import type { ClinicalWeight } from '@chartwright/protocol';

import { DRUG_SUFFIX, DRUGS } from '../notes/facts/lexicon/medications.js';

/**
 * Below this a weighty word is doubtful. Calibrated on ACI-Bench valid spoken by flite and
 * recognized by PocketSphinx: weighty words under 0.8 were wrong about one time in four (in the
 * band 0.6–0.8 one in five), those above it one in 65; docs/notes.md has the table.
 */
export const LOW_CONFIDENCE = 0.8;

const NEGATION = /^(?:no|not|never|none|nothing|without|denies|now|know)$/;
const SIDE = /^(?:left|right|both|bilateral)$/;
const MEASURE = /^(?:systolic|diastolic|percent)$/;
const DOSE = /^(?:mg|milligrams?|mcg|micrograms?|units?|ml|grams?|twice|once|daily)$/;
const NUMBER_WORD =
  /^(?:\d+(?:\.\d+)?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|point)$/;
/** Every single word of the drug lexicon's names (brand and generic), as a recognizer spells them. */
const DRUG_WORDS = new Set(
  DRUGS.flatMap((drug) => drug.phrases)
    .flatMap((phrase) => phrase.toLowerCase().replace(/\*/g, '').split(/\s+/))
    .filter((word) => word.length > 3 && !['insulin', 'supplement', 'control', 'birth', 'the', 'pill'].includes(word)),
);

/** The kind of clinical weight a recognized word carries, or null for an ordinary word. */
export function clinicalWeight(word: string): ClinicalWeight | null {
  const low = word.toLowerCase();
  if (NEGATION.test(low)) return 'negation';
  if (NUMBER_WORD.test(low)) return 'number';
  if (DOSE.test(low)) return 'dose';
  if (MEASURE.test(low)) return 'measure';
  if (SIDE.test(low)) return 'side';
  if (DRUG_WORDS.has(low) || DRUG_SUFFIX.test(low) || low === 'insulin') return 'drug';
  return null;
}

/** The weight of a word heard under LOW_CONFIDENCE, which the clinician should check; null otherwise. */
export function reviewWeight(word: string, confidence: number | undefined): ClinicalWeight | null {
  return confidence !== undefined && confidence < LOW_CONFIDENCE ? clinicalWeight(word) : null;
}
