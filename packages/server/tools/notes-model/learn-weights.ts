import { patientGender } from '@chartwright/server/internal/notes/engines/extractive/gender.js';
import { toThirdPerson } from '@chartwright/server/internal/notes/engines/extractive/rewrite.js';
import { utterancesOf } from '@chartwright/server/internal/notes/facts/utterances.js';
import { STOPWORDS } from '@chartwright/server/internal/notes/engines/extractive/text.js';
import { parseConversation } from '@chartwright/server/internal/text/parse-conversation.js';
import { withCheckedRoles } from '@chartwright/server/internal/text/speaker-roles.js';

/**
 * Learns the extractive engine's word rates from a training split: for each word of the engine's own
 * candidate statements, the share of its occurrences whose visit note contains it. Only statistics
 * leave the data.
 */
export function learnWordWeights(
  records: readonly { dialogue: string; note: string }[],
  { alpha = 3, minCount = 3, minVisits = 2 } = {},
): { weights: Record<string, number>; prior: number; rare: number } {
  const occurrences = new Map<string, number>();
  const hits = new Map<string, number>();
  const visits = new Map<string, number>();
  for (const record of records) {
    const noteWords = new Set(record.note.toLowerCase().match(/[a-z0-9]+/g) ?? []);
    const seen = new Set<string>();
    // The rates are what is being learned: the candidates are the statements before any weighing.
    const { conversation } = withCheckedRoles(parseConversation(record.dialogue));
    const gender = patientGender(conversation, {});
    const candidates = utterancesOf(conversation).flatMap((utterance) =>
      utterance.question ? [] : [{ text: toThirdPerson(utterance.tokens, utterance.speaker, gender).join(' ') }],
    );
    for (const candidate of candidates) {
      for (const word of candidate.text.toLowerCase().match(/[a-z0-9]+(?:[.'/+%-][a-z0-9]+)*/g) ?? []) {
        if (STOPWORDS.has(word)) continue;
        const inNote = (word.match(/[a-z0-9]+/g) ?? []).every((part) => noteWords.has(part));
        occurrences.set(word, (occurrences.get(word) ?? 0) + 1);
        if (inNote) hits.set(word, (hits.get(word) ?? 0) + 1);
        if (!seen.has(word)) visits.set(word, (visits.get(word) ?? 0) + 1);
        seen.add(word);
      }
    }
  }
  let allHits = 0;
  let allCount = 0;
  let rareHits = 0;
  let rareCount = 0;
  for (const [word, count] of occurrences) {
    allCount += count;
    allHits += hits.get(word) ?? 0;
    if (count < minCount || (visits.get(word) ?? 0) < minVisits) {
      rareCount += count;
      rareHits += hits.get(word) ?? 0;
    }
  }
  const prior = allCount === 0 ? 0 : allHits / allCount;
  const weights: Record<string, number> = {};
  for (const [word, count] of [...occurrences].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // Numbers are scored on their own: a table entry per number would be noise.
    if (count < minCount || (visits.get(word) ?? 0) < minVisits || /^\d/.test(word)) continue;
    weights[word] = Math.round((((hits.get(word) ?? 0) + alpha * prior) / (count + alpha)) * 100) / 100;
  }
  return { weights, prior, rare: rareCount === 0 ? prior : rareHits / rareCount };
}
