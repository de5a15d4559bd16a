import type { RosSystem } from './ros-systems.js';

/** A symptom of the lexicon (symptoms.ts): its chart word, its review-of-systems system, how it is said. */
export interface SymptomEntry {
  /** The chart word: "shortness of breath", "nausea". */
  name: string;
  system: RosSystem;
  /** How it is said, chart word included. */
  phrases: readonly string[];
}

export const symptomEntry = (name: string, system: RosSystem, ...phrases: string[]): SymptomEntry => ({
  name,
  system,
  phrases: [name, ...phrases],
});
