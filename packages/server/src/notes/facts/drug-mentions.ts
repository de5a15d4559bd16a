/**
 * The drugs a text names: those of the medication list by any of their names, then words with a
 * drug's ending the list does not hold ("olmesartan").
 */
import { DRUGS, DRUG_SUFFIX, type DrugEntry } from './lexicon/medications.js';
import { PhraseMatcher } from './mentions.js';

const MATCHER = new PhraseMatcher<DrugEntry>(DRUGS, (entry) => entry.phrases);

export interface NamedDrug {
  /** The name charted. */
  name: string;
  /** The words as said (a brand stays a brand). */
  said: string;
  /** Character offsets in the searched text. */
  start: number;
  end: number;
}

const DEVICES: ReadonlySet<string> = new Set(['inhaler']);

/** In text order. */
export function drugsIn(text: string): NamedDrug[] {
  const listed = MATCHER.find(text).map((mention) => ({
    name: mention.entry.name,
    said: mention.said,
    start: mention.start,
    end: mention.end,
  }));
  const byEnding = [...text.matchAll(/[a-z]+/g)]
    .filter((word) => DRUG_SUFFIX.test(word[0]))
    .filter((word) => !listed.some((named) => word.index >= named.start && word.index < named.end))
    .map((word) => ({ name: word[0], said: word[0], start: word.index, end: word.index + word[0].length }));
  const named = [...listed, ...byEnding].sort((a, b) => a.start - b.start);
  // "Albuterol inhaler" is albuterol: a device word after a drug's name names the drug's form.
  return named.filter((drug, index) => {
    const before = named[index - 1];
    return !(DEVICES.has(drug.name) && before !== undefined && /^\s*$/.test(text.slice(before.end, drug.start)));
  });
}
