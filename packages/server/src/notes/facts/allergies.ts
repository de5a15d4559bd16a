/**
 * Allergies: a substance with the reaction, or an explicit "no known allergies" (substance null,
 * absent) — said outright or as the answer to "any allergies?". Seasonal allergies are a symptom
 * (hay fever), not an allergy to a substance.
 */
import type { FactSpeaker } from '@chartwright/protocol';

import { turnsSource, type DraftOf } from './draft.js';
import { answerOf } from './answers.js';
import type { Exchange } from './exchanges.js';
import type { Utterance } from './utterances.js';

export type AllergyDraft = DraftOf<'allergy'>;

const STOP = String.raw`(?=\s*(?:[,.;?!]|\band\b|\bbut\b|\bit\b|\bthey\b|\bthat\b|\bwhich\b|\bwhere\b|\bi get\b|\bi got\b|\bgives? me\b|\bcauses?\b|\bmakes? me\b|$))`;
/** "allergic to penicillin", "an allergy to sulfa drugs", "allergies to shellfish". */
const ALLERGIC_TO = new RegExp(String.raw`\ballerg(?:ic|y|ies) (?:to|from) ((?:[a-z0-9-]+ ?){1,4}?)${STOP}`, 'g');
/** "a penicillin allergy", "latex allergy". */
const NOUN_ALLERGY = /\b([a-z][a-z-]+(?: [a-z][a-z-]+)?) allergy\b/g;
/** "no known allergies", "no drug allergies", "NKDA". */
const NO_ALLERGIES =
  /\b(?:no (?:known )?(?:drug |medication |food )?allergies|nkda|not allergic to any(?:thing| medications?| drugs?)|do not have any (?:known )?(?:drug |medication )?allergies|don't have any (?:known )?allergies)\b/;
const REACTION =
  /\b(?:hives|rash|itching|itchy|swelling|swelled up|anaphylaxis|anaphylactic|throat (?:closes|closing|swells)|trouble breathing|short of breath|nausea|vomiting|upset stomach|diarrhea|breaks? me out|broke out)\b/;
const NOT_A_SUBSTANCE =
  /^(?:any|anything|something|that|it|this|them|medications?|medicines?|drugs?|foods?|the|a|an|some|what|which|things?|stuff|seasonal|pollen season)$/;
/** "any allergies?", "allergic to any medications?". */
const ALLERGY_QUESTION = /\ballerg(?:y|ies|ic)\b/;

function allergy(
  substance: string | null,
  polarity: AllergyDraft['polarity'],
  speaker: FactSpeaker,
  turns: readonly number[],
  reaction?: string,
): AllergyDraft {
  return {
    kind: 'allergy',
    text: substance ?? 'no known allergies',
    substance,
    polarity,
    subject: { type: 'patient' },
    speaker,
    source: turnsSource(turns),
    ...(reaction === undefined ? {} : { reaction }),
  };
}

function substancesIn(text: string): string[] {
  const found = [...text.matchAll(ALLERGIC_TO), ...text.matchAll(NOUN_ALLERGY)]
    .map((match) => (match[1] ?? '').trim().replace(/^(?:the|a|an|some|any) /, ''))
    .filter(
      (substance) => substance !== '' && !NOT_A_SUBSTANCE.test(substance) && !/seasonal|environmental/.test(substance),
    );
  return [...new Set(found)];
}

function stated(utterance: Utterance): AllergyDraft[] {
  if (utterance.question) return [];
  if (NO_ALLERGIES.test(utterance.text)) return [allergy(null, 'absent', utterance.speaker, [utterance.turn])];
  const reaction = REACTION.exec(utterance.text)?.[0];
  return substancesIn(utterance.text).map((substance) => {
    const negated = new RegExp(
      String.raw`\b(?:not|no|never) (?:\w+ ){0,3}allerg\w* (?:to )?(?:\w+ )?${substance}`,
    ).test(utterance.text);
    return allergy(substance, negated ? 'absent' : 'present', utterance.speaker, [utterance.turn], reaction);
  });
}

function answered(exchange: Exchange): AllergyDraft[] {
  const { question } = exchange;
  if (!ALLERGY_QUESTION.test(question.text)) return [];
  // An answer naming the substance is a statement of its own.
  if (
    exchange.answer.some((statement) => substancesIn(statement.text).length > 0 || NO_ALLERGIES.test(statement.text))
  ) {
    return [];
  }
  const { polarity } = answerOf(exchange.spoken, exchange.form);
  if (polarity !== 'absent') return [];
  return [allergy(null, 'absent', exchange.answerSpeaker, [question.turn, exchange.answerTurn])];
}

export function allergyFacts(utterances: readonly Utterance[], exchanges: readonly Exchange[]): AllergyDraft[] {
  const drafts = [...utterances.flatMap(stated), ...exchanges.flatMap(answered)];
  const byText = new Map<string, AllergyDraft>();
  for (const next of drafts) {
    const kept = byText.get(next.text);
    byText.set(
      next.text,
      kept === undefined ? next : { ...kept, source: turnsSource([...kept.source.turns, ...next.source.turns]) },
    );
  }
  // A substance named anywhere outweighs a "no allergies" said elsewhere.
  const named = [...byText.values()].filter((fact) => fact.substance !== null && fact.polarity === 'present');
  return named.length > 0 ? named : [...byText.values()];
}
