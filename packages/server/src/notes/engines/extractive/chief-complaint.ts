import type { Statement } from './statements.js';
import { STOPWORDS, isWord } from './text.js';

/**
 * The reason for the visit, in a few words, when someone says it outright: "here for your annual
 * exam", "presents with right knee pain", "following up on your diabetes". Looked for in the
 * first half of the visit, where it is said; nothing is guessed when nobody says it.
 */
const REASON_PATTERNS: readonly RegExp[] = [
  /\b(?:presents?|presenting|(?:is|are|am|male|female|man|woman|gentleman|lady|boy|girl|patient) here|here today|in today|coming in|came in|come in|coming to see (?:me|us)|referred) (?:today |here |to (?:the )?clinic |to see (?:me|us) )?(?:for|with|because of|regarding|about) (?:an? |the |her |his |your |my |some |evaluation of |evaluation and management of )*(.+)/,
  /\bcomplain(?:s|ing)? of (?:an? |some )?(.+)/,
  /\b(?:follow|following)(?:-| )up (?:on|for|of) (?:her |his |your |my |the )?(.+)/,
];

const TO_CHECK =
  /\bhere (?:today )?to (?:make sure|check|see|find out) (?:that |if |whether )?(?:her |his |my |your |our |their |the )([a-z]+(?: [a-z]+)?) (?:is|are) (?:looking |doing |working )?(?:good|ok|okay|fine|normal|healthy|alright|all right)\b/;

/** Where the reason ends; in unpunctuated speech, also where a question to the patient begins ("… knee pain can you tell me"). */
const STOP_AT =
  /\s(?:and (?:i|we|she|he|you|it|then)|but|because|so|which|that|who|since|when|after|today|this|i|you|we|(?:can|could|would|will|do|did) (?:you|we)|what|how|tell me|,|\.)(?:\s|$)/;

const VAGUE = /^(?:a |an |the )?(?:visit|check|appointment|today|it|that|this|something|you|me)\b/;

export function chiefComplaint(statements: readonly Statement[]): { text: string; turns: number[] } | null {
  for (const statement of statements) {
    if (statement.position > 0.5) break;
    if (statement.question) continue;
    // "We're here to make sure her kidneys are looking good": an evaluation of the kidneys.
    const checked = TO_CHECK.exec(statement.lower)?.[1];
    if (checked !== undefined) return { text: `Evaluation of the ${checked}.`, turns: [...statement.turns] };
    for (const pattern of REASON_PATTERNS) {
      const match = pattern.exec(statement.lower);
      const tail = match?.[1];
      if (tail === undefined) continue;
      const cut = STOP_AT.exec(` ${tail} `);
      const phrase = (cut === null ? tail : ` ${tail} `.slice(0, cut.index))
        .trim()
        .replace(/^(?:her|his|your|my|the|an?|some)\s+/, '');
      const words = phrase.split(' ').filter(isWord);
      if (words.length === 0 || words.length > 8 || VAGUE.test(phrase)) continue;
      if (!words.some((word) => !STOPWORDS.has(word))) continue;
      const text = `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;
      return { text, turns: [...statement.turns] };
    }
  }
  return null;
}
