/**
 * Which system an examination finding is filed under, and whether it is normal: from the words
 * the clinician examined with ("lungs", "murmur", "range of motion").
 */
const SYSTEMS: readonly (readonly [string, RegExp])[] = [
  ['Respiratory', /\b(?:lungs?|breath sounds|crackles|rales|rhonchi|wheez\w*|auscultation|respiratory)\b/],
  ['Cardiovascular', /\b(?:heart|murmurs?|rhythm|rrr|s1|s2|gallop|rubs?|pulses?|capillary refill|cardiac|carotid)\b/],
  ['Neck', /\b(?:neck|thyroid|jvd|jugular|lymphadenopathy|lymph nodes)\b/],
  [
    'Gastrointestinal',
    /\b(?:abdomen|abdominal|belly|bowel sounds|rebound|guarding|liver|spleen|hepatomegaly|splenomegaly)\b/,
  ],
  ['Skin', /\b(?:skin|rash|erythema|lesions?|wound|incision|bruising|ecchymosis|cellulitis)\b/],
  ['Neurological', /\b(?:neuro\w*|reflexes|sensation|cranial nerves|gait|romberg|strength is|motor)\b/],
  ['Eyes', /\b(?:eyes?|pupils?|perrla|conjunctiva\w*|sclera)\b/],
  ['Ears, Nose, Mouth and Throat', /\b(?:ears?|tympanic|throat|tonsils?|oropharynx|nose|nasal|sinus\w*|mouth|teeth)\b/],
  ['Extremities', /\b(?:extremit\w+|edema|calf|calves)\b|\b(?:fluid|swelling|swollen)\b[^.]*\blegs?\b/],
  ['Psychiatric', /\b(?:mood|affect|judgment|insight|oriented)\b/],
  [
    'Musculoskeletal',
    /\b(?:knee|shoulder|hip|ankle|wrist|elbow|back|spine|spinous|midline|joint|range of motion|effusion|crepitus|laxity|instability|strength|lachman|mcmurray|drawer|straight leg)\b/,
  ],
];

/**
 * The finding's own words decide, then the statement it was said in ("on abdominal exam … no
 * tenderness to palpation" is the abdomen's); tenderness with no part named anywhere is the
 * musculoskeletal exam's.
 */
export function examSystemOf(text: string, context = ''): string {
  return namedSystem(text) ?? namedSystem(context) ?? (/\btender/.test(text) ? 'Musculoskeletal' : 'General');
}

/** The system the words name, if any. */
export function namedSystem(words: string): string | undefined {
  return SYSTEMS.find(([, pattern]) => pattern.test(words))?.[0];
}

const ABNORMAL =
  /\b(?:murmurs?|tender\w*|edema|crackles|rales|rhonchi|wheez\w*|decreased|diminished|limited|swelling|swollen|erythema|effusion|crepitus|positive|abnormal|enlarged|bruising|ecchymosis|distention|distended|irregular|weak\w*|reduced|pain with|pain on|painful)\b/;
const NORMAL =
  /\b(?:normal|clear|regular|soft|non-?tender|intact|unremarkable|no|negative|symmetric|full range|well)\b/;

/** "No X" and "clear", "soft", "regular" are normal; a finding word not negated is not. */
export function isNormalFinding(text: string): boolean {
  const abnormal = ABNORMAL.exec(text);
  if (abnormal === null) return NORMAL.test(text);
  const before = text.slice(Math.max(0, abnormal.index - 20), abnormal.index);
  return /\b(?:no|not|without|non)\b/.test(before);
}
