/**
 * Allergies: each substance the patient reacts to, with the reaction, or an explicit "no known
 * allergies" (substance null, absent). An allergy is named outright ("allergic to penicillin", "a
 * latex allergy", "a reaction to sulfa"), named bare in answer to an allergy question ("Sulfa."),
 * or told as a reaction a substance causes ("I broke out in hives after the dye"); its reaction is
 * said with it or in the sentences right after. A relative's allergy is not the patient's, one the
 * patient has outgrown is absent, one they cannot name for sure is uncertain. Seasonal allergies
 * are a symptom (hay fever), not an allergy to a substance.
 */
import type { FactPolarity, FactSpeaker } from '@chartwright/protocol';

import { answerOf } from './answers.js';
import { turnsSource, type DraftOf } from './draft.js';
import { drugsIn } from './drug-mentions.js';
import type { Exchange } from './exchanges.js';
import { ALLERGENS, REACTIONS, type AllergenEntry } from './lexicon/allergens.js';
import { relativeIn } from './lexicon/relatives.js';
import { PhraseMatcher } from './mentions.js';
import { mentionPolarity } from './polarity.js';
import { inHypothetical } from './problems.js';
import type { Utterance } from './utterances.js';

export type AllergyDraft = DraftOf<'allergy'>;

interface Named {
  substance: string;
  start: number;
  end: number;
}

const ALLERGEN_MATCHER = new PhraseMatcher<AllergenEntry>(ALLERGENS, (entry) => entry.phrases);

/** The drugs and other allergens a text names, in text order. */
function allergensIn(text: string): Named[] {
  // A drug keeps the name it was said by: the allergy list says "Percocet" as the patient does.
  const drugs = drugsIn(text).map(({ said, start, end }) => ({ substance: said, start, end }));
  const others = ALLERGEN_MATCHER.find(text)
    .filter((mention) => !drugs.some((drug) => mention.start < drug.end && drug.start < mention.end))
    .map((mention) => ({ substance: mention.entry.name, start: mention.start, end: mention.end }));
  return [...drugs, ...others].sort((a, b) => a.start - b.start);
}

/** "allergic to …", "an allergy to …", "a reaction to …": the substance follows. */
const ALLERGIC_TO = /\b(?:allerg(?:ic|y|ies)|(?:bad |allergic )?reactions?) (?:to|from) /g;
/** Where the words naming the substances end: a list ("percocet, vicodin and …") runs on. */
const OBJECT_END =
  /[.;?!]|\b(?:but|because|though|although|which|so|when|since|as|after|before|if|in|for|they|i|and then)\b/;
/** "Allergic to it": the substance was named before. */
const REFERENCE = /^(?:it|that|this|them|those|that one|this one)$/;
/** "a penicillin allergy", "latex allergy" ("seasonal allergies" and "problems with allergies" are no substance). */
const NOUN_ALLERGY = /\b([a-z][a-z-]+(?: [a-z][a-z-]+)?) allergy\b/g;
const NOT_A_SUBSTANCE =
  /^(?:any|anything|something|that|it|this|them|medications?|medicines?|drugs?|foods?|the|a|an|some|what|which|things?|stuff|seasonal|environmental|pollen season|known|other|no|have|had|has|my|your|her|his|and|or|with|of)$/;

/** The substances an allergy is named for outright, whether or not the lists know them. */
function namedOutright(text: string): Named[] {
  const found: Named[] = [];
  for (const cue of text.matchAll(ALLERGIC_TO)) {
    const from = cue.index + cue[0].length;
    const rest = text.slice(from);
    const object = rest.slice(0, OBJECT_END.exec(rest)?.index ?? rest.length);
    const listed = allergensIn(object).map((named) => ({ ...named, start: from + named.start, end: from + named.end }));
    const first = object.split(',')[0] ?? '';
    const said = first.trim().replace(/^(?:the|a|an|some|any) /, '');
    const before = allergensIn(text.slice(0, cue.index)).at(-1);
    if (listed.length > 0) found.push(...listed);
    else if (REFERENCE.test(said)) found.push(...(before === undefined ? [] : [before]));
    else if (said !== '' && !NOT_A_SUBSTANCE.test(said) && said.split(' ').length <= 3) {
      found.push({ substance: said, start: from, end: from + first.trimEnd().length });
    }
  }
  for (const noun of text.matchAll(NOUN_ALLERGY)) {
    const words = noun[1] ?? '';
    const listed = allergensIn(words).map((named) => ({
      ...named,
      start: noun.index + named.start,
      end: noun.index + named.end,
    }));
    const last = words.split(' ').at(-1) ?? '';
    if (listed.length > 0) found.push(...listed);
    else if (!NOT_A_SUBSTANCE.test(last) && !/seasonal|environmental/.test(words)) {
      const start = noun.index + words.length - last.length;
      found.push({ substance: last, start, end: start + last.length });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** "No known allergies", "no drug allergies", "NKDA". */
const NO_ALLERGIES =
  /\b(?:no (?:known )?(?:drug |medication |food )?allergies|nkda|not allergic to any(?:thing| medications?| drugs?)|do not have any (?:known )?(?:drug |medication )?allergies|don't have any (?:known )?allergies)\b/;
/** Asking about allergies to substances: "any allergies?", "anything you react to?". */
const ALLERGY_QUESTION =
  /\ballerg(?:y|ies|ic)\b|\b(?:anything|medicines?|medications?|drugs?|foods?) (?:that )?(?:you|she|he|they) (?:react|reacted) (?:to|badly)\b|\breact(?:ed)? (?:badly )?to (?:any|anything)\b|\breactions? to (?:any|anything)\b/;
/** Allergies as a symptom now: "are your allergies acting up?". */
const SEASONAL =
  /\b(?:acting up|flar(?:e|es|ing)(?: up)?|bother\w*|how (?:are|is|have) (?:your|her|his|the) allergies)\b/;
/** A question that asks about everything at once ("any allergies?"), not one substance. */
const GENERAL_QUESTION = /\b(?:any|anything|other)\b/;
/** "I see you're allergic to latex. Is that still right?" */
const CONFIRMATION =
  /^(?:(?:and|so|okay) )?(?:(?:is|was) (?:that|this|it)(?: still)?(?: (?:right|correct|true|accurate|the case))?|(?:still )?(?:right|correct|true)|(?:does|do) that(?: still)? (?:sound right|apply))$/;

/** A reaction the substance caused: "X makes me itch", "X, that gave me a rash". */
const CAUSES_AFTER = /\b(?:makes?|made|gives?|gave|causes?|caused|did|does)\b/;
/** A reaction after the substance: "hives from X", "a rash after the dye". */
const CAUSED_BEFORE = /\b(?:from|after|with|to|when (?:i|she|he|they) (?:took|take|ate|eat|had|got|used|use))\b/;
const MAX_CAUSE_WORDS = 8;
/** The allergy is over: "but I eat them fine now". */
const OUTGROWN =
  /\b(?:outgrew|outgrown|grew out of|used to be|not anymore|no longer|fine now|(?:eat|eats|take|takes|tolerate|tolerates|have|has) (?:it|them|that|those) (?:fine|okay|ok|now|without)\b)/;
/** The patient is not sure of the allergy. */
const DOUBT =
  /\b(?:i think|i believe|i guess|not sure|unsure|maybe|might|possibly|probably|(?:do not|don't|can not|cannot|can't) (?:remember|recall))\b/;
/** The patient cannot name what it was: "I don't remember which one". */
const UNNAMED =
  /\b(?:(?:do not|don't|can not|cannot|can't) (?:remember|recall|know)|not sure) (?:which|what|the name)\b/;
/** A companion speaking of their own allergy, not the patient's. */
const COMPANION_SELF =
  /\b(?:i am|i'm|i was|i get|i got|i have|i had|i broke|makes me|made me|gives me|gave me|my (?:throat|lips|skin|face))\b/;
/** The patient speaking of anyone ("you get an allergic reaction to meat" of a syndrome). */
const GENERIC_YOU = /\byou (?:get|have|are|can|could|might|may|would|will)\b/;
/** A drug the answer says the patient takes is a medicine, not an allergy. */
const TAKES = /\b(?:i|she|he|they) (?:take|takes|took|am taking|is taking|use|uses|am on|is on)\b/;

interface Reaction {
  name: string;
  start: number;
  end: number;
  allergic: boolean;
}

/** The reactions a text tells of, in text order; one found inside another is not found again. */
function reactionsIn(text: string): Reaction[] {
  const found: Reaction[] = [];
  for (const { name, pattern, allergic } of REACTIONS) {
    const match = pattern.exec(text);
    if (match === null || found.some((kept) => kept.name === name)) continue;
    const start = match.index;
    const end = start + match[0].length;
    if (found.some((kept) => start < kept.end && kept.start < end)) continue;
    found.push({ name, start, end, allergic });
  }
  return found.sort((a, b) => a.start - b.start);
}

const reactionText = (reactions: readonly Reaction[]) =>
  reactions.length === 0 ? undefined : reactions.map((reaction) => reaction.name).join(', ');

/** The reaction said after the substance (up to the next one), else before it (back to the previous one). */
function reactionOf(text: string, all: readonly Named[], index: number): string | undefined {
  const named = all[index];
  if (named === undefined) return undefined;
  const after = reactionsIn(text.slice(named.end, all[index + 1]?.start ?? text.length));
  return reactionText(after) ?? reactionText(reactionsIn(text.slice(all[index - 1]?.end ?? 0, named.start)));
}

/** Whether a reaction in the text is tied to the substance as its cause. */
function causedBy(text: string, named: Named): boolean {
  return reactionsIn(text).some((reaction) => {
    if (!reaction.allergic) return false;
    const between =
      reaction.start >= named.end ? text.slice(named.end, reaction.start) : text.slice(reaction.end, named.start);
    if (between.split(' ').filter(Boolean).length > MAX_CAUSE_WORDS) return false;
    return reaction.start >= named.end ? CAUSES_AFTER.test(between) : CAUSED_BEFORE.test(between);
  });
}

function polarityOf(statement: Utterance, named: Named, unnamed: boolean): FactPolarity {
  const { text } = statement;
  if (mentionPolarity(text, named.start, named.end) === 'absent' || OUTGROWN.test(text.slice(named.end))) {
    return 'absent';
  }
  return unnamed || DOUBT.test(text) || mentionPolarity(text, named.start, named.end) === 'uncertain'
    ? 'uncertain'
    : 'present';
}

function allergy(
  substance: string | null,
  polarity: FactPolarity,
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

/** Allergies read from the visit, and the statements they were read from (a reaction's too). */
interface Told {
  drafts: AllergyDraft[];
  statements: Utterance[];
}

/**
 * The allergies a statement names. In answer to an allergy question (`answering`) every substance
 * it names counts, and the question is part of its evidence; elsewhere only one named outright or
 * as the cause of a reaction. A reaction not said with the substance is taken from the statements
 * that follow in the turn.
 */
function told(statement: Utterance, turn: readonly Utterance[], answering: Exchange | undefined): Told {
  const { text, speaker } = statement;
  const none = { drafts: [], statements: [] };
  if (statement.question || relativeIn(text) !== undefined) return none;
  if (speaker === 'other' && COMPANION_SELF.test(text)) return none;
  if (speaker !== 'clinician' && GENERIC_YOU.test(text)) return none;
  if (NO_ALLERGIES.test(text))
    return { drafts: [allergy(null, 'absent', speaker, [statement.turn])], statements: [statement] };
  const outright = namedOutright(text);
  const byCause = speaker === 'clinician' ? [] : allergensIn(text).filter((named) => causedBy(text, named));
  const bare =
    answering === undefined ? [] : allergensIn(text).filter((named) => !TAKES.test(text.slice(0, named.start)));
  const all = [...outright, ...byCause, ...bare]
    .filter((named, index, list) => list.findIndex((other) => other.start === named.start) === index)
    .filter((named) => !inHypothetical(text, named.start))
    .sort((a, b) => a.start - b.start);
  if (all.length === 0) return none;
  const later = turn.filter((other) => other.order > statement.order);
  const until = later.findIndex((other) => allergensIn(other.text).length > 0);
  const following = until < 0 ? later : later.slice(0, until);
  const withReaction = following.filter((other) => reactionsIn(other.text).length > 0);
  const unnamed = turn.some((other) => UNNAMED.test(other.text));
  const drafts = all.map((named, index) => {
    const reaction =
      reactionOf(text, all, index) ??
      (all.length === 1 ? reactionText(withReaction.flatMap((other) => reactionsIn(other.text))) : undefined);
    const turns = bare.includes(named) && answering !== undefined ? [answering.question.turn] : [];
    return allergy(
      named.substance,
      polarityOf(statement, named, unnamed),
      speaker,
      [...turns, statement.turn],
      reaction,
    );
  });
  return { drafts, statements: [statement, ...(all.length === 1 ? withReaction : [])] };
}

/**
 * An allergy question answered without naming a substance: "no" is no known allergies, or, when
 * the clinician asked about one substance ("allergic to penicillin?", "you're listed as allergic
 * to latex — still right?"), a yes or no about that one.
 */
function answered(exchange: Exchange, turn: readonly Utterance[]): Told {
  const { question } = exchange;
  const none = { drafts: [], statements: [] };
  const askedOutright = turn.filter((said) => !said.question).flatMap((said) => namedOutright(said.text));
  const confirming = CONFIRMATION.test(question.text) && askedOutright.length > 0;
  if (!confirming && (!ALLERGY_QUESTION.test(question.text) || SEASONAL.test(question.text))) return none;
  const named = exchange.answer.some(
    (statement) => relativeIn(statement.text) === undefined && allergensIn(statement.text).length > 0,
  );
  if (named || exchange.answer.some((statement) => NO_ALLERGIES.test(statement.text))) return none;
  const { polarity } = answerOf(exchange.spoken, exchange.form);
  if (polarity === null) return none;
  const turns = [question.turn, exchange.answerTurn];
  const asked = confirming ? askedOutright : allergensIn(question.text);
  if (asked.length === 0 || GENERAL_QUESTION.test(question.text)) {
    return polarity === 'absent'
      ? { drafts: [allergy(null, 'absent', exchange.answerSpeaker, turns)], statements: [] }
      : none;
  }
  const reacting = polarity === 'present' ? exchange.answer.filter((said) => reactionsIn(said.text).length > 0) : [];
  const reaction = reactionText(reacting.flatMap((said) => reactionsIn(said.text)));
  return {
    drafts: asked.map((named) => allergy(named.substance, polarity, exchange.answerSpeaker, turns, reaction)),
    statements: [question, ...reacting],
  };
}

/** One fact per substance: the patient's word over the clinician's, a later word over an earlier. */
function merged(drafts: readonly AllergyDraft[]): AllergyDraft[] {
  const bySubstance = new Map<string, AllergyDraft>();
  const ordered = [...drafts].sort((a, b) => (a.source.turns[0] ?? 0) - (b.source.turns[0] ?? 0));
  for (const next of ordered) {
    const key = next.substance?.toLowerCase() ?? '';
    const kept = bySubstance.get(key);
    if (kept === undefined) {
      bySubstance.set(key, next);
      continue;
    }
    const lead = next.speaker !== 'clinician' || kept.speaker === 'clinician' ? next : kept;
    const reaction = lead.reaction ?? (lead === next ? kept : next).reaction;
    bySubstance.set(key, {
      ...lead,
      source: turnsSource([...kept.source.turns, ...next.source.turns]),
      ...(reaction === undefined ? {} : { reaction }),
    });
  }
  return [...bySubstance.values()];
}

export interface AllergyReading {
  facts: AllergyDraft[];
  /** The statements that tell of an allergy or its reaction: no symptom or medicine of the visit. */
  statements: ReadonlySet<Utterance>;
}

export function allergiesOf(utterances: readonly Utterance[], exchanges: readonly Exchange[]): AllergyReading {
  const answering = new Map<number, Exchange>();
  for (const exchange of exchanges) {
    const { question } = exchange;
    if (!ALLERGY_QUESTION.test(question.text) || SEASONAL.test(question.text)) continue;
    // "Any other allergies?" "Nope, just penicillin": the "no" is to others; what it names is one.
    const restates = /\bother\b/.test(question.text) || exchange.spoken.some((said) => /\b(?:just|only)\b/.test(said));
    if (restates || answerOf(exchange.spoken, exchange.form).polarity !== 'absent')
      answering.set(exchange.answerTurn, exchange);
  }
  const turnOf = (turn: number) => utterances.filter((utterance) => utterance.turn === turn);
  const readings = utterances.map((utterance) =>
    told(utterance, turnOf(utterance.turn), answering.get(utterance.turn)),
  );
  readings.push(...exchanges.map((exchange) => answered(exchange, turnOf(exchange.question.turn))));
  const drafts = merged(readings.flatMap((reading) => reading.drafts));
  // A substance named anywhere outweighs a "no allergies" said elsewhere.
  const substance = drafts.some((fact) => fact.substance !== null && fact.polarity !== 'absent');
  return {
    facts: substance ? drafts.filter((fact) => fact.substance !== null) : drafts,
    statements: new Set([
      ...readings.flatMap((reading) => reading.statements),
      // Asked or said in passing, an allergy named is never a medicine taken.
      ...utterances.filter((utterance) => namedOutright(utterance.text).length > 0),
    ]),
  };
}
