import { SYMPTOM_CUES } from './lexicons.js';

const PATIENT_DENIAL =
  /^(?:no ,? )?i (?:do not|did not|have not|have never|never) (?:have|had|get|got|gotten|notice|noticed|experience|experienced|been having|been experiencing|feel|felt)? ?(?:any )?(.+)$/;

/** The patient's own "I don't have any X" → "denies X", when X is a symptom. */
export function patientDenial(tokens: readonly string[]): string[] | null {
  const text = tokens.join(' ').toLowerCase();
  const match = PATIENT_DENIAL.exec(text);
  const topic = match?.[1]?.trim();
  if (topic === undefined || !SYMPTOM_CUES.test(topic) || topic.split(' ').length > 12) return null;
  if (/^(?:think|know|remember|want|need|like|take|use|see)\b/.test(topic)) return null;
  return ['denies', ...topic.split(' ')];
}
