/** The review-of-systems system a symptom belongs to: the lexicon's, or its body part's. */
import type { RosSystem } from './lexicon/ros-systems.js';
import { conditionsIn } from './condition-mentions.js';
import { SYMPTOMS } from './lexicon/symptoms.js';

/** Symptoms named by two words apart or asked of in one (symptom-mentions.ts), not in the lexicon. */
const NAMED_APART: readonly (readonly [string, RosSystem])[] = [
  ['weight change', 'Constitutional'],
  ['vision problems', 'Eyes'],
];
const SYSTEM_OF = new Map<string, RosSystem>([
  ...SYMPTOMS.map((entry): [string, RosSystem] => [entry.name, entry.system]),
  ...NAMED_APART,
]);
const LOCATION_SYSTEMS: readonly (readonly [RegExp, RosSystem])[] = [
  [/^chest/, 'Cardiovascular'],
  [/^(?:abdomen|belly|stomach)/, 'Gastrointestinal'],
  [/^head/, 'Neurological'],
  [/^(?:throat|ear|jaw)/, 'Ears, Nose, Mouth and Throat'],
  [/^eye/, 'Eyes'],
  [/^(?:skin|breast)/, 'Skin'],
];

export function systemOf(problem: { name: string; location?: string | undefined }): RosSystem {
  return (
    SYSTEM_OF.get(problem.name) ??
    LOCATION_SYSTEMS.find(([pattern]) => pattern.test(problem.location ?? problem.name))?.[1] ??
    'Musculoskeletal'
  );
}

/** A diagnosis ("asthma flare"), which a review of systems, a list of symptoms, does not name. */
export function isDiagnosis(problem: { name: string }): boolean {
  return !SYSTEM_OF.has(problem.name) && conditionsIn(problem.name).some((mention) => mention.start === 0);
}
