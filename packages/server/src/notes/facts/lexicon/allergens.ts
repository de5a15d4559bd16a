/**
 * What patients are allergic to beyond the drugs of the medication list (drug classes, foods,
 * materials, stings, contrast), and the reactions they tell of, as an allergy list charts them.
 */
export interface AllergenEntry {
  /** The substance charted. */
  name: string;
  phrases: readonly string[];
}

const allergen = (name: string, ...phrases: string[]): AllergenEntry => ({ name, phrases: [name, ...phrases] });

export const ALLERGENS: readonly AllergenEntry[] = [
  allergen('sulfa', 'sulfa drugs', 'sulfas', 'sulfonamides'),
  allergen('antibiotic', 'antibiotics'),
  allergen('NSAIDs', 'nsaid', 'anti-inflammatories'),
  allergen('opioids', 'opioid', 'narcotics', 'narcotic', 'opiates'),
  allergen('contrast dye', 'contrast', 'iv contrast', 'dye', 'iodine'),
  allergen('latex'),
  allergen('adhesive tape', 'tape', 'adhesive', 'band-aids', 'bandaids'),
  allergen('nickel'),
  allergen('shellfish', 'shrimp', 'crab', 'lobster'),
  allergen('peanuts', 'peanut'),
  allergen('tree nuts', 'tree nut', 'nuts', 'almonds', 'walnuts', 'cashews'),
  allergen('eggs', 'egg'),
  allergen('milk', 'dairy', "cow's milk"),
  allergen('wheat'),
  allergen('soy'),
  allergen('fish'),
  allergen('bee stings', 'bee sting', 'bees', 'wasps', 'wasp stings', 'yellow jackets'),
];

export interface ReactionEntry {
  /** The reaction charted. */
  name: string;
  pattern: RegExp;
  /**
   * Whether the reaction marks an allergy on its own: hives after a drug is an allergy, an upset
   * stomach after one is a side effect unless the patient calls it an allergy.
   */
  allergic: boolean;
}

/** Tried in order; a reaction found is not found again inside another ("break out in hives" is hives). */
export const REACTIONS: readonly ReactionEntry[] = [
  { name: 'anaphylaxis', pattern: /\banaphyla\w*/, allergic: true },
  {
    name: 'throat swelling',
    pattern:
      /\bthroat (?:swell\w*|clos\w*|tighten\w*|gets tight)|\b(?:swell\w*|clos\w*) (?:up )?(?:my|her|his|the) throat\b/,
    allergic: true,
  },
  {
    name: 'lip and tongue swelling',
    pattern: /\b(?:lips?|tongue|face) (?:swell\w*|blow\w* up|puff\w* up)|\bswoll?en (?:lips?|tongue|face)\b/,
    allergic: true,
  },
  { name: 'hives', pattern: /\b(?:hives|welts)\b/, allergic: true },
  { name: 'blisters', pattern: /\bblister\w*/, allergic: true },
  {
    name: 'rash',
    pattern: /\brash\w*|\b(?:break|breaks|broke) (?:me )?out\b(?! in (?:hives|welts|blisters))/,
    allergic: true,
  },
  { name: 'itching', pattern: /\bitch\w*/, allergic: true },
  {
    name: 'trouble breathing',
    pattern: /\b(?:trouble|difficulty) breathing|(?:can|could) ?(?:not|n't) breathe|short(?:ness)? of breath|wheez\w*/,
    allergic: true,
  },
  { name: 'swelling', pattern: /\b(?:swell\w*|swollen)\b/, allergic: false },
  { name: 'nausea', pattern: /\bnause\w*|\bsick to (?:my|her|his) stomach\b/, allergic: false },
  { name: 'vomiting', pattern: /\b(?:vomit\w*|throw\w* up|threw up)\b/, allergic: false },
  { name: 'diarrhea', pattern: /\bdiarrh\w*/, allergic: false },
  { name: 'upset stomach', pattern: /\b(?:upset (?:my |her |his )?stomach|stomach upset)\b/, allergic: false },
];
