/**
 * A long visit transcript made up for the noisy-neighbour scenario: doctor and patient turns
 * assembled from a few dozen clinical phrase patterns by a seeded generator, so every run posts the
 * same text, and no dataset's dialogue is copied into the project. What matters is its length and
 * that it reads like a visit to the note engine (symptoms, negatives, medicines, allergies, exam,
 * assessment and plan), so the engine does the work a real long visit costs.
 */
import { seededRandom } from '../shared/seeded-random.js';

const SYMPTOMS = [
  'chest pain',
  'headache',
  'back pain',
  'cough',
  'shortness of breath',
  'nausea',
  'fatigue',
  'dizziness',
];
const MEDICINES = [
  'lisinopril 10 milligrams',
  'metformin 500 milligrams',
  'ibuprofen 400 milligrams',
  'atorvastatin 20 milligrams',
];
const ALLERGIES = ['penicillin', 'sulfa drugs', 'latex', 'shellfish'];
const DURATIONS = ['two days', 'a week', 'three weeks', 'a month', 'since the weekend'];
const BODY = ['lungs', 'heart', 'abdomen', 'throat', 'ears', 'skin'];

const DOCTOR: readonly ((pick: <T>(list: readonly T[]) => T) => string)[] = [
  (pick) => `how long have you had the ${pick(SYMPTOMS)} ?`,
  (pick) => `any ${pick(SYMPTOMS)} or ${pick(SYMPTOMS)} ?`,
  (pick) => `are you still taking the ${pick(MEDICINES)} every day ?`,
  (pick) => `do you have any allergies to medicines like ${pick(ALLERGIES)} ?`,
  (pick) => `on exam your ${pick(BODY)} look normal and your ${pick(BODY)} sound clear .`,
  (pick) => `i think the ${pick(SYMPTOMS)} is most likely viral , so let's start ${pick(MEDICINES)} once a day .`,
  (pick) => `i'd like to get a chest x-ray and some blood work , and see you back in ${pick(DURATIONS)} .`,
  (pick) => `okay , and does anything make the ${pick(SYMPTOMS)} better or worse ?`,
];

const PATIENT: readonly ((pick: <T>(list: readonly T[]) => T) => string)[] = [
  (pick) => `i've had the ${pick(SYMPTOMS)} for about ${pick(DURATIONS)} and it's getting worse .`,
  (pick) => `no , no ${pick(SYMPTOMS)} , but i do get some ${pick(SYMPTOMS)} at night .`,
  (pick) => `yes , i take ${pick(MEDICINES)} in the morning .`,
  (pick) => `i'm allergic to ${pick(ALLERGIES)} , i get a rash .`,
  () => `it gets better when i rest and worse when i climb the stairs .`,
  () => `my mother had diabetes and my father had high blood pressure .`,
  (pick) => `i stopped the ${pick(MEDICINES)} ${pick(DURATIONS)} ago because it upset my stomach .`,
];

const wordCount = (text: string): number => text.split(/\s+/).filter((word) => /\w/.test(word)).length;

/** A `[doctor]` / `[patient]` transcript of at least `words` words, the same for the same seed. */
export function syntheticVisit(words: number, seed = 16): string {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const lines: string[] = [];
  let total = 0;
  for (let turn = 0; total < words; turn += 1) {
    const doctor = turn % 2 === 0;
    const sentences = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(doctor ? DOCTOR : PATIENT)(pick));
    const line = `[${doctor ? 'doctor' : 'patient'}] ${sentences.join(' ')}`;
    lines.push(line);
    total += wordCount(line) - 1;
  }
  return lines.join('\n');
}
