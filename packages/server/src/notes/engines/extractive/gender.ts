import type { Conversation } from '../../../text/conversation.js';
import type { NoteContext } from '../../generator.js';

import type { Gender } from './rewrite.js';

/**
 * Which pronoun the note may use for the patient. The context's gender decides when given;
 * otherwise only explicit statements in the conversation count ("a 50-year-old female", "Mrs.",
 * "ma'am") plus how the clinician refers to the patient in the third person, with a wide margin.
 * When unsure the note says "the patient": a wrong pronoun is a defect, a neutral one is not.
 */
export function patientGender(conversation: Conversation, context: NoteContext): Gender {
  const given = context.patient?.gender;
  if (given === 'female' || given === 'male') return given;
  let female = 0;
  let male = 0;
  for (const turn of conversation.turns) {
    const text = turn.text.toLowerCase();
    female += 5 * count(text, /\byear[- ]old (?:female|woman|lady|girl)\b/g);
    male += 5 * count(text, /\byear[- ]old (?:male|man|gentleman|boy)\b/g);
    if (turn.speaker === 'clinician') {
      female += 3 * count(text, /\b(?:mrs|ms|miss|ma'am|ma’am)\b/g);
      male += 3 * count(text, /\b(?:mr|sir)\b/g);
      female += count(text, /\b(?:she|her|hers|herself)\b/g);
      male += count(text, /\b(?:he|him|his|himself)\b/g);
    }
  }
  if (female >= 3 && female >= 3 * male) return 'female';
  if (male >= 3 && male >= 3 * female) return 'male';
  return null;
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}
