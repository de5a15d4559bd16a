import type { Conversation } from '../../../text/conversation.js';

import { cleanSpeech } from './clean.js';
import { SYMPTOM_CUES } from './lexicons.js';
import { toThirdPerson, type Gender } from './rewrite.js';
import type { Statement } from './statements.js';
import { isWord } from './text.js';

/**
 * Yes/no questions and their answers. "Any chest pain or shortness of breath?" — "No." is, in a
 * note, "Denies chest pain or shortness of breath": the content words come from the clinician's
 * question, the polarity from the patient's answer, and the statement cites both turns. Only
 * questions about symptoms or history qualify, so "any questions?" — "no" says nothing.
 */

/** Question frames in front of the topic ("have you noticed any …"), longest first. */
const FRAMES: readonly RegExp[] = [
  /^(?:and )?(?:so )?(?:have|do|did|are|were|had) you (?:ever )?(?:been )?(?:had|have|having|get|got|gotten|getting|notice|noticed|noticing|experience|experienced|experiencing|feel|felt|feeling|see|seen|developed|develop|suffered|suffer) (?:from |with )?(?:any )?(?:other )?/,
  /^(?:and )?(?:so )?(?:is|was) there (?:any )?(?:other )?/,
  /^(?:and )?(?:so )?(?:has|have) there been (?:any )?/,
  /^(?:and )?(?:so )?any (?:other )?(?:symptoms? )?(?:like |such as |of )?/,
  /^(?:and )?(?:so )?(?:how|what) about (?:any )?/,
  /^(?:and )?(?:so )?(?:no )+/,
];

/** Verb questions that become a gerund: "do you smoke?" — "no" → "Denies smoking". */
const VERB_TOPICS: readonly (readonly [RegExp, string])[] = [
  [/^(?:do|did) you (?:ever )?smoke\b/, 'smoking'],
  [/^(?:do|did) you (?:ever )?drink\b/, 'drinking'],
  [/^(?:do|did) you (?:ever )?vape\b/, 'vaping'],
  [/^(?:do|did) you (?:ever )?use (?:any )?(?:recreational |illicit )?drugs\b/, 'drug use'],
];

const TRAILING_NOISE =
  /(?:\s*,)?\s+(?:at all|or anything(?: else)?(?: like that)?|anything like that|lately|recently|since then|right now|today|or not|that you have noticed|or)$/;

const VAGUE_TOPIC = /^(?:questions?|concerns?|anything|else|other|problems?|issues?)(?:\s|$)|\bquestions\b/;

/** The topic of a yes/no question, as tokens, or null when it is not one about the patient. */
export function questionTopic(tokens: readonly string[]): string[] | null {
  const text = tokens
    .filter((token) => token !== '?')
    .join(' ')
    .toLowerCase();
  for (const [pattern, gerund] of VERB_TOPICS) {
    if (pattern.test(text)) {
      const rest = text.replace(pattern, '').trim();
      return [gerund, ...(rest.startsWith('alcohol') ? ['alcohol'] : [])];
    }
  }
  for (const frame of FRAMES) {
    const match = frame.exec(text);
    if (match === null || match[0].length === 0) continue;
    let topic = text.slice(match[0].length).trim();
    for (let round = 0; round < 3; round++) topic = topic.replace(TRAILING_NOISE, '').trim();
    topic = topic.replace(/^(?:,\s*)+|(?:\s*,)+$/g, '').trim();
    const words = topic.split(' ').filter(isWord);
    if (words.length === 0 || words.length > 14) return null;
    if (VAGUE_TOPIC.test(topic) || !SYMPTOM_CUES.test(topic)) return null;
    // Keep the speaker's casing: take the same number of tokens from the end of the original.
    return topic.split(' ');
  }
  return null;
}

/** The answer without its leading yes/no ("yes, a little" → "a little"). */
function dropAnswerWord(tokens: readonly string[]): string[] {
  let start = 0;
  while (
    start < tokens.length &&
    /^(?:yes|yeah|yep|yup|uh-huh|mm-hmm|correct|no|nope|,|\.)$/i.test(tokens[start] ?? '')
  )
    start++;
  return tokens.slice(start);
}

const NEGATIVE_ANSWER =
  /^(?:no|nope|nah|never|none|not really|not that i|nothing|i do not|i did not|i have not|i have never|i am not|i was not|i never|negative)\b/;
const POSITIVE_ANSWER =
  /^(?:yes|yeah|yep|yup|uh-huh|mm-hmm|i do|i did|i have|i am|correct|sometimes|a little|a bit|definitely|absolutely)\b/;

/** -1 for a no, +1 for a yes, 0 when the answer is neither (or says more than yes/no). */
export function answerPolarity(answer: string): -1 | 0 | 1 {
  const text = answer.toLowerCase().replace(/^[\s,.]+/, '');
  if (NEGATIVE_ANSWER.test(text)) return -1;
  if (POSITIVE_ANSWER.test(text)) return 1;
  return 0;
}

/**
 * Denials and confirmations built from each clinician yes/no question and the next turn's answer.
 * A confirmation is only built when the answer is little more than "yes": a fuller answer is a
 * statement of its own.
 */
export function answeredQuestions(
  conversation: Conversation,
  statements: readonly Statement[],
  gender: Gender,
): Statement[] {
  const derived: Statement[] = [];
  const total = Math.max(1, conversation.turns.length - 1);
  for (const turn of conversation.turns) {
    if (turn.speaker !== 'clinician') continue;
    const next = conversation.turns[turn.index + 1];
    if (next === undefined || next.speaker === 'clinician') continue;
    const asked = statements.filter((statement) => statement.turns[0] === turn.index && statement.origin === 'said');
    const question = asked.at(-1);
    if (question?.question !== true) continue;
    const topic = questionTopic(question.tokens);
    if (topic === null) continue;
    const answer = next.sentences[0]?.text ?? '';
    const polarity = answerPolarity(answer);
    if (polarity === 0) continue;
    // A "yes" may come with a few words of detail ("yes, a little when I climb stairs"): they are
    // kept after the topic. A longer answer is a statement of its own.
    const detail = dropAnswerWord(cleanSpeech(next.text));
    if (polarity === 1 && detail.filter(isWord).length > 8) continue;
    const head = toThirdPerson([polarity === -1 ? 'denies' : 'reports', ...topic], 'clinician', gender);
    const tail = polarity === 1 && detail.some(isWord) ? [',', ...toThirdPerson(detail, next.speaker, gender)] : [];
    const tokens = [...head, ...tail];
    derived.push({
      turns: [turn.index, next.index],
      speaker: 'clinician',
      order: next.index * 1000,
      position: next.index / total,
      tokens,
      lower: tokens.join(' ').toLowerCase(),
      raw: `${question.raw} ${answer.toLowerCase()}`,
      question: false,
      origin: polarity === -1 ? 'denied' : 'confirmed',
      rewritten: true,
    });
  }
  return derived;
}

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
