/**
 * The medicines of the visit: each drug named in a statement or answered about, with the dose,
 * frequency and route said with it (or in the answer about it), whether the patient is on it, and
 * what the visit did with it (the clinician starts, stops, continues or adjusts it, by name or as
 * "it" after naming it). One fact per drug: later statements add what earlier ones left out, and
 * the clinician's decision settles the change.
 */
import { turnsSource, type DraftOf } from './draft.js';
import type { Exchange } from './exchanges.js';
import { drugsIn, type NamedDrug } from './drug-mentions.js';
import { doseAfter, doseBefore, doseIn, frequencyIn, type Dose } from './doses.js';
import { INHALED, ROUTES } from './lexicon/medications.js';
import { relativeIn } from './lexicon/relatives.js';
import { chartQuantity } from './quantity.js';
import { inHypothetical } from './problems.js';
import type { Utterance } from './utterances.js';

export type MedicationDraft = DraftOf<'medication'>;
type Change = MedicationDraft['change'];

const STOPPED =
  /\b(?:stopped|stop (?:taking|the|your|it|that|them|those)|quit|discontinu\w+|no longer|ran out|came off|went off|off (?:of )?(?:the|it))\b/;
const ADJUSTED =
  /\b(?:increas\w+|decreas\w+|cut (?:the|your|it|back|down)|bump\w* (?:up|the|your)|doubl\w+|lower\w*|rais\w+|reduc\w+|titrat\w+|taper\w*|go up on|go down on)\b/;
const STARTED =
  /\b(?:start(?:ing)? (?:you|him|her|them) on|start (?:the|a|some)|prescrib\w+|put (?:you|him|her) on|going to (?:give|send)|send (?:in|over)|(?:let's|let us|we will|i will) try(?! to\b)|try (?:you|him|her) on|switch\w* (?:you|him|her)? ?(?:to|over to)|add (?:on )?(?:a|some)?)\b/;
/** A start said with the drug's own name after it. */
const STARTS_NAMED = /\b(?:start(?:ing)?|begin(?:ning)?)(?: (?:you|him|her|them) on)? $/;
const CONTINUED = /\b(?:continue|keep (?:taking|on|using)|stay on|keep (?:you|him|her) on|remain on)\b/;

/** A decision told as past ("we put you on prozac last year") is history, not today's change. */
const PAST_DECISION =
  /\b(?:had (?:put|started|stopped|increased|decreased)|last (?:year|month|week|visit|time)|ago|previously|back in)\b/;

function clinicianChange(clause: string): Change {
  if (PAST_DECISION.test(clause)) return undefined;
  if (STOPPED.test(clause)) return 'stopped';
  if (ADJUSTED.test(clause)) return 'adjusted';
  if (STARTED.test(clause)) return 'started';
  if (CONTINUED.test(clause)) return 'continued';
  return undefined;
}

/** A switch "from A to B": A is stopped, B started. */
const SWITCH = /\bswitch\w* (?:you |him |her )?(?:from|off) /;

/**
 * A decision about a drug named before, by a pronoun: "that can be the lisinopril. I'll stop it and
 * switch you to losartan" stops the lisinopril, not the losartan.
 */
const REFERRED =
  /\b(?:stop|discontinue|continue|keep taking|keep using|increase|decrease|double|lower|raise|cut back on|bump up|taper) (?:it|that|this one|them|those)\b/g;

/**
 * The fact a drug named in a statement makes. `answer`: what the patient said when asked about
 * it, where its dose and frequency are when the question did not say them.
 */
function draftFor(
  named: NamedDrug,
  utterance: Utterance,
  polarity: MedicationDraft['polarity'],
  until = named.end + 60,
  answer = '',
  from = 0,
): MedicationDraft {
  const { text } = utterance;
  // What follows the drug, up to the next drug named: its dose and frequency are said there.
  const after = text.slice(named.end, Math.min(until, named.end + 60));
  const before = text.slice(Math.max(0, named.start - 30), named.start);
  const clause = text.replace(REFERRED, ' ');
  const dose = doseAfter(after) ?? doseBefore(before) ?? doseIn(answer);
  const frequency = frequencyIn(after) ?? frequencyIn(answer);
  const route = ROUTES.find(([, pattern]) => pattern.test(clause))?.[0];
  const byClinician = utterance.speaker === 'clinician';
  // "Continue the albuterol as needed, and add symbicort": the verb since the drug before decides.
  const lead = text.slice(from, named.start).replace(REFERRED, ' ');
  let change = byClinician ? (clinicianChange(lead) ?? clinicianChange(clause)) : undefined;
  // "Let's start sumatriptan": the verb right before the drug is the decision about it.
  if (byClinician && !utterance.question && change === undefined && STARTS_NAMED.test(before)) change = 'started';
  const switchedFrom = SWITCH.exec(text);
  if (switchedFrom !== null && byClinician) {
    const target = /\b(?:to|over to|onto) /.exec(text.slice(switchedFrom.index + switchedFrom[0].length));
    const targetAt = target === null ? -1 : switchedFrom.index + switchedFrom[0].length + target.index;
    change = targetAt >= 0 && named.start > targetAt ? 'started' : 'stopped';
  }
  const stopped = change === 'stopped' || (!byClinician && STOPPED.test(clause));
  return {
    kind: 'medication',
    text: [named.name, dose === undefined ? '' : doseText(dose), frequency ?? '']
      .filter((part) => part !== '')
      .join(' '),
    name: named.name,
    ...(dose === undefined ? {} : { dose }),
    ...(route === undefined ? {} : { route }),
    ...(frequency === undefined ? {} : { frequency }),
    status: polarity === 'absent' ? 'unknown' : stopped ? 'stopped' : 'active',
    ...(stopped && !byClinician ? { change: 'stopped' as const } : change === undefined ? {} : { change }),
    polarity,
    subject: { type: 'patient' },
    speaker: utterance.speaker,
    source: turnsSource([utterance.turn]),
  };
}

/** "2 puff" reads "2 puffs": countable units take the plural. */
export function doseText(dose: Dose): string {
  const countable = /^(?:puff|tablet|capsule|drop)$/.test(dose.unit) && dose.value !== 1;
  return chartQuantity(dose.value, countable ? `${dose.unit}s` : dose.unit);
}

/** Later words about the same drug fill what the first left out; the clinician's change wins. */
function merge(kept: MedicationDraft, later: MedicationDraft): MedicationDraft {
  const change = later.change ?? kept.change;
  return {
    ...kept,
    ...(kept.dose === undefined && later.dose !== undefined ? { dose: later.dose } : {}),
    ...(later.change === 'adjusted' && later.dose !== undefined ? { dose: later.dose } : {}),
    ...(kept.frequency === undefined && later.frequency !== undefined ? { frequency: later.frequency } : {}),
    ...(kept.route === undefined && later.route !== undefined ? { route: later.route } : {}),
    ...(change === undefined ? {} : { change }),
    status: later.status === 'unknown' ? kept.status : later.status,
    source: turnsSource([...kept.source.turns, ...later.source.turns]),
  };
}

const YES = /^(?:yes|yeah|yep|i do|i am|mm-hmm|uh-huh|still|correct|right)\b/;
const NO = /^(?:no|nope|not|never|i do not|i am not|i stopped)\b/;
/** Said right before the drug, a denial: "he denies any blood thinners", "not on any". */
const DENIED =
  /\b(?:denies|denied|deny|no|not on|not taking|never (?:taken|took|been on)|(?:does|do|did) not (?:take|use))(?: (?:any|the|a|his|her|your|my))?\s*$/;
/** A no to how a drug is taken ("not much" is taken, "I don't take it" is not). */
const NOT_TAKEN = /^(?:no|nope|never|i stopped|i (?:do not|don't) (?:take|use))\b/;
/** Asking how the patient takes a drug takes it as taken: "how often are you using the inhaler?". */
const HOW_TAKEN =
  /\b(?:how (?:often|much|many)|how (?:are|do|have) you (?:been )?(?:taking|using|doing)|what (?:dose|dosage|strength)|when do you (?:take|use))\b/;
/** A question that asks nothing of its own: examples of the one before ("aspirin, warfarin, anything like that?"). */
const ASKS_ITS_OWN =
  /^(?:(?:and|so|okay|ok|now|also) )?(?:do|does|did|are|is|was|were|have|has|had|can|could|would|will|any|how|what|when|where|why|who|which)\b/;

/** Each clinician question and the exchange that answers it: the turn's last, and those it only gives examples of. */
function answering(utterances: readonly Utterance[], exchanges: readonly Exchange[]): Map<Utterance, Exchange> {
  const asked = new Map<Utterance, Exchange>();
  for (const exchange of exchanges) {
    asked.set(exchange.question, exchange);
    const earlier = utterances.filter(
      (utterance) =>
        utterance.turn === exchange.question.turn && utterance.question && utterance.order < exchange.question.order,
    );
    let later = exchange.question;
    for (const question of earlier.reverse()) {
      if (ASKS_ITS_OWN.test(later.text)) break;
      asked.set(question, exchange);
      later = question;
    }
  }
  return asked;
}

/**
 * A drug the clinician asks about, with the answer: a yes, or any answer to how it is taken but a
 * no, is the drug taken, with the dose and frequency the answer gives (unless it speaks of another
 * drug); a no is the drug not taken.
 */
function answeredAbout(named: NamedDrug, question: Utterance, exchange: Exchange): MedicationDraft[] {
  const reply = exchange.spoken.join(' ').toLowerCase().trim();
  const answered = { speaker: exchange.answerSpeaker, source: turnsSource([question.turn, exchange.answerTurn]) };
  const taken = YES.test(reply) || (HOW_TAKEN.test(question.text) && !NOT_TAKEN.test(reply));
  if (!taken) {
    const denied = NO.test(reply) && !/\bstill\b/.test(question.text);
    return denied ? [{ ...draftFor(named, question, 'absent'), ...answered }] : [];
  }
  const otherDrug = exchange.answer.some((said) => drugsIn(said.text).some((drug) => drug.name !== named.name));
  const answer = otherDrug ? '' : exchange.answer.map((said) => said.text).join(' . ');
  return [{ ...draftFor(named, question, 'present', undefined, answer), ...answered }];
}

/** The patient saying they take the drug just asked about: "I use it maybe twice a week". */
const USES_IT =
  /\bi (?:use|take|am using|am taking|have been using|have been taking|still use|still take) (?:it|them|that|those)\b/;

/**
 * A drug a question takes as the patient's, even while asking what if ("what if you ran out of
 * the inhaler?"), when the answer says the patient uses it.
 */
function confirmedInUse(named: NamedDrug, question: Utterance, exchange: Exchange | undefined): MedicationDraft[] {
  const said = exchange?.answer.find((statement) => USES_IT.test(statement.text));
  if (exchange === undefined || said === undefined) return [];
  return [
    {
      ...draftFor(named, question, 'present', undefined, said.text),
      speaker: exchange.answerSpeaker,
      source: turnsSource([question.turn, exchange.answerTurn]),
    },
  ];
}

/** A change the clinician only foresees ("we will probably increase that over time"). */
const FORESEEN =
  /\b(?:probably|possibly|maybe|might|may|eventually|over time|at some point|down the road|in the future)\b/;

/** The change a clinician's decision by pronoun makes to the drug it refers to. */
function referredDecision(utterance: Utterance, referent: (position: number) => string | undefined) {
  const { text } = utterance;
  if (utterance.speaker !== 'clinician' || utterance.question || PAST_DECISION.test(text) || FORESEEN.test(text)) {
    return [];
  }
  return [...text.matchAll(REFERRED)].flatMap((match) => {
    const name = referent(match.index);
    const change = clinicianChange(match[0]);
    if (name === undefined || change === undefined || inHypothetical(text, match.index)) return [];
    const decided: MedicationDraft = {
      kind: 'medication',
      text: name,
      name,
      status: change === 'stopped' ? 'stopped' : 'active',
      change,
      polarity: 'present',
      subject: { type: 'patient' },
      speaker: utterance.speaker,
      source: turnsSource([utterance.turn]),
    };
    return [decided];
  });
}

/** A drug named as what a test measured ("we checked your estradiol and it was not elevated", "the digoxin level"). */
const MEASURED_BEFORE = /\b(?:checked|check|measured|tested|drew) (?:your|his|her|their|the) $/;
const MEASURED_AFTER =
  /^ (?:levels?|trough|concentration|(?:and it |which )?(?:was|is|were|came back) (?:not )?(?:elevated|high|low|normal|fine|therapeutic|undetectable))\b/;

function measured(text: string, named: NamedDrug): boolean {
  return (
    MEASURED_BEFORE.test(text.slice(Math.max(0, named.start - 30), named.start)) ||
    MEASURED_AFTER.test(text.slice(named.end))
  );
}

/**
 * A treatment the clinician recommends without starting it or giving its dose ("I then recommend
 * chemotherapy with cisplatin and taxol", after surgery): the plan says it; the medication list
 * would make it a drug the patient takes. "I recommend we give you some motrin, 800 milligrams" is
 * a prescription.
 */
const RECOMMENDED = /\b(?:recommend\w*|suggest\w*|consider\w*)\b/;

function onlyRecommended(utterance: Utterance, named: NamedDrug): boolean {
  const before = utterance.text.slice(0, named.start);
  return (
    utterance.speaker === 'clinician' &&
    RECOMMENDED.test(before) &&
    clinicianChange(before) === undefined &&
    doseAfter(utterance.text.slice(named.end, named.end + 60)) === undefined
  );
}

export function medicationFacts(
  utterances: readonly Utterance[],
  exchanges: readonly Exchange[],
  allergyStatements: ReadonlySet<Utterance>,
): MedicationDraft[] {
  const byName = new Map<string, MedicationDraft>();
  const add = (draft: MedicationDraft) => {
    const kept = byName.get(draft.name);
    byName.set(draft.name, kept === undefined ? draft : merge(kept, draft));
  };
  const asked = answering(utterances, exchanges);
  // The drug last named, for a decision about "it".
  let last: { name: string; turn: number } | undefined;
  for (const utterance of utterances) {
    // A relative's medicines are theirs; a drug named as an allergy is the allergy facts' business.
    if (relativeIn(utterance.text) !== undefined || allergyStatements.has(utterance)) continue;
    const drugs = drugsIn(utterance.text);
    const earlier = last;
    const referent = (position: number) =>
      drugs.filter((named) => named.end <= position).at(-1)?.name ??
      (earlier !== undefined && earlier.turn >= utterance.turn - 1 ? earlier.name : undefined);
    for (const [index, named] of drugs.entries()) {
      if (utterance.question && utterance.speaker === 'clinician') {
        const exchange = asked.get(utterance) ?? exchanges.find((each) => each.question.turn === utterance.turn);
        const confirmed = confirmedInUse(named, utterance, exchange);
        confirmed.forEach(add);
        if (confirmed.length > 0) continue;
      }
      if (inHypothetical(utterance.text, named.start) || measured(utterance.text, named)) continue;
      if (onlyRecommended(utterance, named)) continue;
      last = { name: named.name, turn: utterance.turn };
      if (!utterance.question) {
        const polarity = DENIED.test(utterance.text.slice(0, named.start)) ? 'absent' : 'present';
        add(draftFor(named, utterance, polarity, drugs[index + 1]?.start, '', drugs[index - 1]?.end));
        continue;
      }
      const exchange = asked.get(utterance);
      if (exchange === undefined || utterance.speaker !== 'clinician') continue;
      answeredAbout(named, utterance, exchange).forEach(add);
    }
    // After the drugs' own facts, so the decision settles their status.
    referredDecision(utterance, referent).forEach(add);
  }
  const named = [...byName.values()];
  const inhaled = named.filter((drug) => INHALED.test(drug.name) && drug.polarity === 'present');
  if (inhaled.length === 0) return named;
  // "The inhaler" in a visit that names the inhaled drug is that drug: its evidence goes with it.
  const device = byName.get('inhaler');
  return named
    .filter((drug) => drug !== device)
    .map((drug) =>
      device !== undefined && drug === inhaled[0]
        ? { ...drug, source: turnsSource([...drug.source.turns, ...device.source.turns]) }
        : drug,
    );
}
